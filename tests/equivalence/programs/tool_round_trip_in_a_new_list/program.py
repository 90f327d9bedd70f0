"""A tool round trip whose second request is a new list of the question, the model's turn and the result."""

import json

from openai import OpenAI

TOOLS = [
    {
        "type": "function",
        "function": {
            "name": "get_weather",
            "description": "The weather in a city today.",
            "parameters": {"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]},
        },
    }
]
WEATHER = {"Paris": "light rain, 12 C"}


def answer(client: OpenAI, question: str) -> str:
    completion = client.chat.completions.create(
        model="gpt-4o-mini",
        messages=[{"role": "user", "content": question}],
        tools=TOOLS,
        tool_choice="auto",
    )
    # the model's turn
    message = completion.choices[0].message
    # "auto" does not promise a tool call: answer with the text then.
    if not message.tool_calls:
        return message.content or ""

    # the first (and only) call
    tool_call = message.tool_calls[0]
    city = json.loads(tool_call.function.arguments)["city"]
    print(f"calling {tool_call.function.name} for {city}")
    messages = [
        {"role": "user", "content": question},
        message,
        {"role": "tool", "tool_call_id": tool_call.id, "content": WEATHER.get(city, "unknown")},
    ]
    follow_up = client.chat.completions.create(model="gpt-4o-mini", messages=messages, tools=TOOLS)
    return follow_up.choices[0].message.content or "(no answer)"


def main() -> None:
    client = OpenAI()
    print(answer(client, "Do I need an umbrella in Paris today?"))
    print(answer(client, "Hello!"))


if __name__ == "__main__":
    main()
