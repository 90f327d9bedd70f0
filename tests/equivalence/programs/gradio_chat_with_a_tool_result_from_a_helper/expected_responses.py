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
    "type": "function",
    "name": "get_ticket_price",
    "description": "Get the price of a return ticket to the destination city.",
    "parameters": {
        "type": "object",
        "properties": {"destination_city": {"type": "string", "description": "The city that the customer wants to travel to"}},
        "required": ["destination_city"],
        "additionalProperties": False,
    },
    "strict": False,
}
tools: Any = [price_function]


def chat(message, history):
    messages = [{"role": "system", "content": system_message}] + [{"role": turn["role"], "content": turn["content"]} for turn in history] + [{"role": "user", "content": message}]
    response = openai.responses.create(model=MODEL, input=messages, tools=tools)

    if response.status == "completed" and any(item.type == "function_call" for item in response.output):
        message = response
        response, city = handle_tool_call(message)
        print(f"[tool] price asked for {city}")
        messages.extend(message.output)
        messages.append(response)
        response = openai.responses.create(model=MODEL, input=messages)

    return response.output_text


def handle_tool_call(message):
    tool_call = [item for item in message.output if item.type == "function_call"][0]
    arguments = json.loads(tool_call.arguments)
    city = arguments.get("destination_city")
    price = get_ticket_price(city)
    response = {
        "type": "function_call_output",
        "output": json.dumps({"destination_city": city, "price": price}),
        "call_id": tool_call.call_id,
    }
    return response, city


gr.ChatInterface(fn=chat, type="messages").launch()
