"""A weather helper: when the model asks for the weather the answer comes from a second call,
bound to the same name as the first, and read once after the branch."""

import json

from openai import OpenAI

TOOLS = [
    {
        "type": "function",
        "function": {
            "name": "get_weather",
            "description": "Get the weather in a city.",
            "parameters": {"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]},
        },
    }
]
client = OpenAI()


def get_weather(city: str) -> str:
    return f"Sunny, 21 C in {city}"


def answer(question: str) -> str:
    messages = [{"role": "user", "content": question}]
    response = client.chat.completions.create(model="gpt-4o-mini", messages=messages, tools=TOOLS)
    message = response.choices[0].message
    if message.tool_calls:
        messages.append(message)
        for call in message.tool_calls:
            arguments = json.loads(call.function.arguments)
            print(f"calling {call.function.name} for {arguments['city']}")
            messages.append({"role": "tool", "tool_call_id": call.id, "content": get_weather(**arguments)})
        response = client.chat.completions.create(model="gpt-4o-mini", messages=messages)
    return response.choices[0].message.content


if __name__ == "__main__":
    print(answer("What's the weather in Lyon?"))
    print(answer("Say hello."))
