"""An airline assistant as a course teaches it: a helper of the module runs the tool calls of the
model's message and returns their results, which the loop adds to the history after the message."""

import json
from typing import Any

from openai import OpenAI

openai = OpenAI()
MODEL = "gpt-4o-mini"
SYSTEM_MESSAGE = "You are a helpful assistant for an airline called FlightAI. Give short answers."
PRICES = {"london": "$799", "paris": "$899", "tokyo": "$1400"}

price_function = {
    "type": "function",
    "name": "get_ticket_price",
    "description": "Get the price of a return ticket to the destination city.",
    "parameters": {
        "type": "object",
        "properties": {"destination_city": {"type": "string", "description": "The city to travel to"}},
        "required": ["destination_city"],
        "additionalProperties": False,
    },
    "strict": False,
}
tools: Any = [price_function]


def get_ticket_price(destination_city):
    print(f"Tool called for city {destination_city}")
    return PRICES.get(destination_city.lower(), "Unknown")


def handle_tool_calls(message):
    responses = []
    for tool_call in [item for item in message.output if item.type == "function_call"]:
        if tool_call.name == "get_ticket_price":
            arguments = json.loads(tool_call.arguments)
            city = arguments.get("destination_city")
            price_details = get_ticket_price(city)
            responses.append({"type": "function_call_output", "output": price_details, "call_id": tool_call.call_id})
    return responses


def chat(message, history):
    history = [{"role": h["role"], "content": h["content"]} for h in history]
    messages: Any = [{"role": "system", "content": SYSTEM_MESSAGE}] + history + [{"role": "user", "content": message}]
    response = openai.responses.create(model=MODEL, input=messages, tools=tools)

    while response.status == "completed" and any(item.type == "function_call" for item in response.output):
        responses = handle_tool_calls(response)
        messages.extend(response.output)
        messages.extend(responses)
        response = openai.responses.create(model=MODEL, input=messages, tools=tools)

    return response.output_text


def main() -> None:
    history: list = []
    for question in ("How much is a ticket to London and to Paris?", "Thanks!"):
        answer = chat(question, history)
        history += [{"role": "user", "content": question, "metadata": None}, {"role": "assistant", "content": answer, "metadata": None}]
        print(answer)


if __name__ == "__main__":
    main()
