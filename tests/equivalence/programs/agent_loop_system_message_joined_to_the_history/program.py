"""An agent loop that sends its system message, held in a name, before the history on each turn."""

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
SYSTEM = {"role": "system", "content": "You are a shop assistant. Use the tools before answering."}
CATALOGUE = {"kettle": ["KT-100", "KT-200"]}
STOCK = {"KT-100": 0, "KT-200": 7}


def run_tool(name, arguments):
    if name == "search_catalogue":
        return ", ".join(CATALOGUE.get(arguments["query"], []))
    return str(STOCK.get(arguments["sku"], 0))


def main():
    client = OpenAI()
    messages = [{"role": "user", "content": "Do you have a kettle in stock?"}]
    while True:
        response = client.chat.completions.create(model="gpt-4o-mini", messages=[SYSTEM] + messages, tools=TOOLS)
        message = response.choices[0].message
        messages.append(message)
        if not message.tool_calls:
            break
        print(f"calling {len(message.tool_calls)} tool(s)")
        for call in message.tool_calls:
            result = run_tool(call.function.name, json.loads(call.function.arguments))
            messages.append({"role": "tool", "tool_call_id": call.id, "content": result})
    print(message.content)


if __name__ == "__main__":
    main()
