"""An agent loop that sends its system message, held in a name, before the history on each turn."""

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
        response = client.responses.create(model="gpt-4o-mini", input=[SYSTEM] + messages, tools=TOOLS)
        messages.extend(response.output)
        if not any(item.type == "function_call" for item in response.output):
            break
        print(f"calling {len([item for item in response.output if item.type == 'function_call'])} tool(s)")
        for call in [item for item in response.output if item.type == "function_call"]:
            result = run_tool(call.name, json.loads(call.arguments))
            messages.append({"type": "function_call_output", "call_id": call.call_id, "output": result})
    print(response.output_text)


if __name__ == "__main__":
    main()
