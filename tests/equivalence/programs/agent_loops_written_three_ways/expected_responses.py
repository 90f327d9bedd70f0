"""Agent loops as tutorials write them: one logs how many tools the model asked for, one holds
the calls as a list that is empty when there are none, one sends its system message, held in a
name, before the history on each turn."""

import json

from openai import OpenAI

SYSTEM = {"role": "system", "content": "You are a shop assistant. Use the tools before answering."}
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
QUESTION = "Do you have a kettle in stock?"
client = OpenAI()


def run_tool(name, arguments):
    if name == "search_catalogue":
        return ", ".join(CATALOGUE.get(arguments["query"], []))
    return str(STOCK.get(arguments["sku"], 0))


def counting():
    messages = [{"role": "user", "content": QUESTION}]
    while True:
        response = client.responses.create(model="gpt-4o-mini", input=messages, tools=TOOLS)
        messages.extend(response.output)
        if not any(item.type == "function_call" for item in response.output):
            break
        print(f"calling {len([item for item in response.output if item.type == 'function_call'])} tool(s)")
        for call in [item for item in response.output if item.type == "function_call"]:
            result = run_tool(call.name, json.loads(call.arguments))
            messages.append({"type": "function_call_output", "call_id": call.call_id, "output": result})
    return response.output_text


def calls_or_empty():
    messages = [{"role": "user", "content": QUESTION}]
    while True:
        response = client.responses.create(model="gpt-4o-mini", input=messages, tools=TOOLS)
        messages.extend(response.output)
        tool_calls = [item for item in response.output if item.type == "function_call"]
        if not tool_calls:
            break
        print(f"first call: {tool_calls[0].name}")
        for call in tool_calls:
            result = run_tool(call.name, json.loads(call.arguments))
            messages.append({"type": "function_call_output", "call_id": call.call_id, "output": result})
    return response.output_text


def system_message_joined():
    history = [{"role": "user", "content": QUESTION}]
    while True:
        response = client.responses.create(model="gpt-4o-mini", input=[SYSTEM] + history, tools=TOOLS)
        history.extend(response.output)
        if not any(item.type == "function_call" for item in response.output):
            return response.output_text
        for call in [item for item in response.output if item.type == "function_call"]:
            result = run_tool(call.name, json.loads(call.arguments))
            history.append({"type": "function_call_output", "call_id": call.call_id, "output": result})


print(counting())
print(calls_or_empty())
print(system_message_joined())
