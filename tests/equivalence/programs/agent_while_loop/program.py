"""A small agent: it searches the catalogue, then checks stock, then answers."""

import json

from openai import OpenAI

TOOLS = [
    {
        "type": "function",
        "function": {
            "name": "search_catalogue",
            "description": "Find products matching a query.",
            "parameters": {"type": "object", "properties": {"query": {"type": "string"}}, "required": ["query"]},
        },
    },
    {
        "type": "function",
        "function": {
            "name": "check_stock",
            "description": "How many units of a product are in stock.",
            "parameters": {"type": "object", "properties": {"sku": {"type": "string"}}, "required": ["sku"]},
        },
    },
]
CATALOGUE = {"kettle": ["KT-100", "KT-200"]}
STOCK = {"KT-100": 0, "KT-200": 7}


def run_tool(name: str, arguments: dict) -> str:
    if name == "search_catalogue":
        return ", ".join(CATALOGUE.get(arguments["query"], []))
    return str(STOCK.get(arguments["sku"], 0))


def main() -> None:
    client = OpenAI()
    messages = [
        {"role": "system", "content": "You are a shop assistant. Use the tools before answering."},
        {"role": "user", "content": "Do you have a kettle in stock?"},
    ]
    rounds = 0
    while True:
        completion = client.chat.completions.create(model="gpt-4o-mini", messages=messages, tools=TOOLS)
        rounds += 1
        message = completion.choices[0].message
        if not message.tool_calls:
            break
        messages.append(message)
        for call in message.tool_calls:
            arguments = json.loads(call.function.arguments)
            result = run_tool(call.function.name, arguments)
            print(f"round {rounds}: {call.function.name}({arguments}) = {result!r}")
            messages.append({"role": "tool", "tool_call_id": call.id, "content": result})
    print(f"after {rounds} rounds: {message.content}")


if __name__ == "__main__":
    main()
