"""An agent loop holding the tool calls as a list, empty when there are none."""

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


def run_tool(name, arguments):
    if name == "search_catalogue":
        return ", ".join(CATALOGUE.get(arguments["query"], []))
    return str(STOCK.get(arguments["sku"], 0))


def main():
    client = OpenAI()
    messages = [{"role": "user", "content": "Do you have a kettle in stock?"}]
    while True:
        response = client.chat.completions.create(model="gpt-4o-mini", messages=messages, tools=TOOLS)
        message = response.choices[0].message
        messages.append(message)
        tool_calls = message.tool_calls or []
        if not tool_calls:
            break
        print(f"calling {len(tool_calls)} tool(s), first {tool_calls[0].function.name}")
        for call in tool_calls:
            result = run_tool(call.function.name, json.loads(call.function.arguments))
            messages.append({"role": "tool", "tool_call_id": call.id, "content": result})
    print(message.content)


if __name__ == "__main__":
    main()
