"""An airline assistant: it calls the price tool for as long as the model asks, then answers."""

import json

from openai import OpenAI

client = OpenAI()
MODEL = "gpt-4o-mini"
TOOLS: list = [
    {
        "type": "function",
        "function": {
            "name": "get_ticket_price",
            "description": "The price of a return ticket to a city.",
            "parameters": {
                "type": "object",
                "properties": {"destination_city": {"type": "string"}},
                "required": ["destination_city"],
            },
        },
    }
]
PRICES = {"london": "$799", "paris": "$899"}


def chat(question: str):
    messages: list = [{"role": "system", "content": "You are FlightAI."}, {"role": "user", "content": question}]
    response = client.chat.completions.create(model=MODEL, messages=messages, tools=TOOLS)
    while response.choices[0].finish_reason == "tool_calls":
        reply = response.choices[0].message
        messages.append(reply)
        for tool_call in reply.tool_calls:
            arguments = json.loads(tool_call.function.arguments)
            price = PRICES.get(arguments["destination_city"].lower(), "Unknown")
            print(f"price of {arguments['destination_city']}: {price}")
            messages.append({"role": "tool", "content": price, "tool_call_id": tool_call.id})
        response = client.chat.completions.create(model=MODEL, messages=messages, tools=TOOLS)
    return response.choices[0].message.content


if __name__ == "__main__":
    print(chat("How much are return tickets to London and Paris?"))
