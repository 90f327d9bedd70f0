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
    "name": "get_ticket_price",
    "description": "Get the price of a return ticket to the destination city.",
    "parameters": {
        "type": "object",
        "properties": {"destination_city": {"type": "string", "description": "The city to travel to"}},
        "required": ["destination_city"],
        "additionalProperties": False,
    },
}
tools: Any = [{"type": "function", "function": price_function}]


def get_ticket_price(destination_city):
    print(f"Tool called for city {destination_city}")
    return PRICES.get(destination_city.lower(), "Unknown")


def handle_tool_calls(message):
    responses = []
    for tool_call in message.tool_calls:
        if tool_call.function.name == "get_ticket_price":
            arguments = json.loads(tool_call.function.arguments)
            city = arguments.get("destination_city")
            price_details = get_ticket_price(city)
            responses.append({"role": "tool", "content": price_details, "tool_call_id": tool_call.id})
    return responses


def chat(message, history):
    history = [{"role": h["role"], "content": h["content"]} for h in history]
    messages: Any = [{"role": "system", "content": SYSTEM_MESSAGE}] + history + [{"role": "user", "content": message}]
    response = openai.chat.completions.create(model=MODEL, messages=messages, tools=tools)

    while response.choices[0].finish_reason == "tool_calls":
        message = response.choices[0].message
        responses = handle_tool_calls(message)
        messages.append(message)
        messages.extend(responses)
        response = openai.chat.completions.create(model=MODEL, messages=messages, tools=tools)

    return response.choices[0].message.content


def main() -> None:
    history: list = []
    for question in ("How much is a ticket to London and to Paris?", "Thanks!"):
        answer = chat(question, history)
        history += [{"role": "user", "content": question, "metadata": None}, {"role": "assistant", "content": answer, "metadata": None}]
        print(answer)


if __name__ == "__main__":
    main()
