"""Let the model call a local weather function until it can answer."""

import json

from openai import OpenAI

TOOLS = [
    {
        "type": "function",
        "function": {
            "name": "get_weather",
            "description": "Current weather in a city.",
            "parameters": {
                "type": "object",
                "properties": {"city": {"type": "string"}},
                "required": ["city"],
            },
        },
    }
]
WEATHER = {"Paris": "18 C, cloudy", "Tokyo": "24 C, sunny"}


def get_weather(city: str) -> str:
    return WEATHER.get(city, "unknown")


def main() -> None:
    client = OpenAI()
    messages = [{"role": "user", "content": "Is it warmer in Paris or in Tokyo right now?"}]
    while True:
        completion = client.chat.completions.create(model="gpt-4o-mini", messages=messages, tools=TOOLS)
        message = completion.choices[0].message
        if not message.tool_calls:
            print(message.content)
            break
        messages.append(message)
        for call in message.tool_calls:
            arguments = json.loads(call.function.arguments)
            print(f"calling {call.function.name}({arguments['city']})")
            messages.append({"role": "tool", "tool_call_id": call.id, "content": get_weather(**arguments)})


if __name__ == "__main__":
    main()
