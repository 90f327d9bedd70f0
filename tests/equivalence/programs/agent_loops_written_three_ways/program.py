"""Agent loops as tutorials write them: one logs how many tools the model asked for, one holds
the calls as a list that is empty when there are none, one sends its system message, held in a
name, before the history on each turn."""

import json

from openai import OpenAI

SYSTEM = {"role": "system", "content": "You are a shop assistant. Use the tools before answering."}
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
QUESTION = "Do you have a kettle in stock?"
client = OpenAI()


def run_tool(name, arguments):
    if name == "search_catalogue":
        return ", ".join(CATALOGUE.get(arguments["query"], []))
    return str(STOCK.get(arguments["sku"], 0))


def counting():
    messages = [{"role": "user", "content": QUESTION}]
    while True:
        response = client.chat.completions.create(model="gpt-4o-mini", messages=messages, tools=TOOLS)
        message = response.choices[0].message
        messages.append(message)
        if not message.tool_calls:
            break
        print(f"calling {len(message.tool_calls)} tool(s)")
        for call in message.tool_calls:
            result = run_tool(call.function.name, json.loads(call.function.arguments))
            messages.append({"role": "tool", "tool_call_id": call.id, "content": result})
    return message.content


def calls_or_empty():
    messages = [{"role": "user", "content": QUESTION}]
    while True:
        response = client.chat.completions.create(model="gpt-4o-mini", messages=messages, tools=TOOLS)
        message = response.choices[0].message
        messages.append(message)
        tool_calls = message.tool_calls or []
        if not tool_calls:
            break
        print(f"first call: {tool_calls[0].function.name}")
        for call in tool_calls:
            result = run_tool(call.function.name, json.loads(call.function.arguments))
            messages.append({"role": "tool", "tool_call_id": call.id, "content": result})
    return message.content


def system_message_joined():
    history = [{"role": "user", "content": QUESTION}]
    while True:
        response = client.chat.completions.create(model="gpt-4o-mini", messages=[SYSTEM] + history, tools=TOOLS)
        message = response.choices[0].message
        history.append(message)
        if not message.tool_calls:
            return message.content
        for call in message.tool_calls:
            result = run_tool(call.function.name, json.loads(call.function.arguments))
            history.append({"role": "tool", "tool_call_id": call.id, "content": result})


print(counting())
print(calls_or_empty())
print(system_message_joined())
