"""Two ways of writing the tool result into a name before adding it to the history."""

import json

from openai import OpenAI

TOOLS = [
    {
        "type": "function",
        "function": {
            "name": "get_temperature",
            "description": "Current temperature in a city, in Celsius.",
            "parameters": {"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]},
        },
    }
]
TEMPERATURES = {"Oslo": 4, "Lisbon": 21, "Cairo": 33}


def compare(client: OpenAI, question: str) -> None:
    messages = [{"role": "user", "content": question}]
    while True:
        response = client.chat.completions.create(model="gpt-4o-mini", messages=messages, tools=TOOLS)
        message = response.choices[0].message
        if not message.tool_calls:
            print(message.content or "(no answer)")
            return
        messages.append(message)
        for tool_call in message.tool_calls:
            city = json.loads(tool_call.function.arguments)["city"]
            if city in TEMPERATURES:
                result = {"role": "tool", "tool_call_id": tool_call.id, "content": str(TEMPERATURES[city])}
            else:
                result = {"role": "tool", "tool_call_id": tool_call.id, "content": "no such city"}
            print(f"{tool_call.function.name}({city})")
            messages.append(result)


def one_city(client: OpenAI, question: str) -> None:
    messages = [{"role": "user", "content": question}]
    response = client.chat.completions.create(model="gpt-4o-mini", messages=messages, tools=TOOLS)
    message = response.choices[0].message
    messages.append(message)
    for tool_call in message.tool_calls or []:
        tool_message = {
            "role": "tool",
            "tool_call_id": tool_call.id,
            "content": str(TEMPERATURES.get(json.loads(tool_call.function.arguments)["city"], "no such city")),
        }
        messages.append(tool_message)
    response = client.chat.completions.create(model="gpt-4o-mini", messages=messages, tools=TOOLS)
    print(response.choices[0].message.content or "(no answer)")


def main() -> None:
    client = OpenAI()
    compare(client, "How warm are Oslo and Atlantis?")
    one_city(client, "How warm is Cairo?")


if __name__ == "__main__":
    main()
