"""An airline assistant: it calls the price tool for as long as the model asks, then answers."""

import json

from openai import OpenAI

client = OpenAI()
MODEL = "gpt-4o-mini"
TOOLS: list = [
    {
        "type": "function",
        "name": "get_ticket_price",
        "description": "The price of a return ticket to a city.",
        "parameters": {
            "type": "object",
            "properties": {"destination_city": {"type": "string"}},
            "required": ["destination_city"],
        },
        "strict": False,
    }
]
PRICES = {"london": "$799", "paris": "$899"}


def chat(question: str):
    messages: list = [{"role": "system", "content": "You are FlightAI."}, {"role": "user", "content": question}]
    response = client.responses.create(model=MODEL, input=messages, tools=TOOLS)
    while response.status == "completed" and any(item.type == "function_call" for item in response.output):
        messages.extend(response.output)
        for tool_call in [item for item in response.output if item.type == "function_call"]:
            arguments = json.loads(tool_call.arguments)
            price = PRICES.get(arguments["destination_city"].lower(), "Unknown")
            print(f"price of {arguments['destination_city']}: {price}")
            messages.append({"type": "function_call_output", "output": price, "call_id": tool_call.call_id})
        response = client.responses.create(model=MODEL, input=messages, tools=TOOLS)
    return response.output_text


if __name__ == "__main__":
    print(chat("How much are return tickets to London and Paris?"))
