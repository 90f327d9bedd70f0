"""A Gradio chat with a tool, as a course's airline assistant writes it: the model's message is
kept in a name, handed to a helper that returns the tool's result and the city asked about, and
the response's name then holds that result before it holds the next response."""

import json
from typing import Any

import gradio as gr
from openai import OpenAI

openai = OpenAI()
MODEL = "gpt-4o-mini"
system_message = "You are a helpful assistant for an Airline called FlightAI. Give short answers."

ticket_prices = {"london": "$799", "paris": "$899", "tokyo": "$1400", "berlin": "$499"}


def get_ticket_price(destination_city):
    return ticket_prices.get(destination_city.lower(), "Unknown")


price_function = {
    "name": "get_ticket_price",
    "description": "Get the price of a return ticket to the destination city.",
    "parameters": {
        "type": "object",
        "properties": {"destination_city": {"type": "string", "description": "The city that the customer wants to travel to"}},
        "required": ["destination_city"],
        "additionalProperties": False,
    },
}
tools: Any = [{"type": "function", "function": price_function}]


def chat(message, history):
    messages = [{"role": "system", "content": system_message}] + history + [{"role": "user", "content": message}]
    response = openai.chat.completions.create(model=MODEL, messages=messages, tools=tools)

    if response.choices[0].finish_reason == "tool_calls":
        message = response.choices[0].message
        response, city = handle_tool_call(message)
        print(f"[tool] price asked for {city}")
        messages.append(message)
        messages.append(response)
        response = openai.chat.completions.create(model=MODEL, messages=messages)

    return response.choices[0].message.content


def handle_tool_call(message):
    tool_call = message.tool_calls[0]
    arguments = json.loads(tool_call.function.arguments)
    city = arguments.get("destination_city")
    price = get_ticket_price(city)
    response = {
        "role": "tool",
        "content": json.dumps({"destination_city": city, "price": price}),
        "tool_call_id": tool_call.id,
    }
    return response, city


gr.ChatInterface(fn=chat, type="messages").launch()
