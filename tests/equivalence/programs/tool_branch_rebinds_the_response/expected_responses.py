"""A weather helper: when the model asks for the weather the answer comes from a second call,
bound to the same name as the first, and read once after the branch."""

import json

from openai import OpenAI

TOOLS = [
    {
        "type": "function",
        "name": "get_weather",
        "description": "Get the weather in a city.",
        "parameters": {"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]},
        "strict": False,
    }
]
client = OpenAI()


def get_weather(city: str) -> str:
    return f"Sunny, 21 C in {city}"


def answer(question: str) -> str:
    messages = [{"role": "user", "content": question}]
    response = client.responses.create(model="gpt-4o-mini", input=messages, tools=TOOLS)
    if any(item.type == "function_call" for item in response.output):
        messages.extend(response.output)
        for call in [item for item in response.output if item.type == "function_call"]:
            arguments = json.loads(call.arguments)
            print(f"calling {call.name} for {arguments['city']}")
            messages.append({"type": "function_call_output", "call_id": call.call_id, "output": get_weather(**arguments)})
        response = client.responses.create(model="gpt-4o-mini", input=messages)
    return response.output_text


if __name__ == "__main__":
    print(answer("What's the weather in Lyon?"))
    print(answer("Say hello."))
