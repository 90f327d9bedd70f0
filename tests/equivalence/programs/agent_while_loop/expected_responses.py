"""A small agent: it searches the catalogue, then checks stock, then answers."""

import json

from openai import OpenAI

TOOLS = [
    {
        "type": "function",
        "name": "search_catalogue",
        "description": "Find products matching a query.",
        "parameters": {"type": "object", "properties": {"query": {"type": "string"}}, "required": ["query"]},
        "strict": False,
    },
    {
        "type": "function",
        "name": "check_stock",
        "description": "How many units of a product are in stock.",
        "parameters": {"type": "object", "properties": {"sku": {"type": "string"}}, "required": ["sku"]},
        "strict": False,
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
        completion = client.responses.create(model="gpt-4o-mini", input=messages, tools=TOOLS)
        rounds += 1
        if not any(item.type == "function_call" for item in completion.output):
            break
        messages.extend(completion.output)
        for call in [item for item in completion.output if item.type == "function_call"]:
            arguments = json.loads(call.arguments)
            result = run_tool(call.name, arguments)
            print(f"round {rounds}: {call.name}({arguments}) = {result!r}")
            messages.append({"type": "function_call_output", "call_id": call.call_id, "output": result})
    print(f"after {rounds} rounds: {completion.output_text}")


if __name__ == "__main__":
    main()
