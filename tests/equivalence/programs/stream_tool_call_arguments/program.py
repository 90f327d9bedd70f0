"""Stream a turn with parallel tool calls, collect their arguments, run them once the stream ends."""

import json
from typing import Dict

from openai import OpenAI

TOOLS = [
    {
        "type": "function",
        "function": {
            "name": "get_weather",
            "description": "The current weather in a city.",
            "parameters": {
                "type": "object",
                "properties": {"city": {"type": "string"}},
                "required": ["city"],
            },
        },
    }
]
WEATHER = {"Paris": "sunny, 21 °C", "Rome": "cloudy, 18 °C"}


def get_weather(city: str) -> str:
    return WEATHER.get(city, "unknown")


def main() -> None:
    client = OpenAI()
    stream = client.chat.completions.create(
        model="gpt-4o-mini",
        messages=[{"role": "user", "content": "What is the weather in Paris and in Rome?"}],
        tools=TOOLS,
        stream=True,
    )
    calls: Dict[int, Dict[str, str]] = {}
    for chunk in stream:
        delta = chunk.choices[0].delta
        if delta.content:
            print(delta.content, end="")
        for tool_call in delta.tool_calls or []:
            if tool_call.index not in calls:
                calls[tool_call.index] = {"id": tool_call.id, "name": tool_call.function.name, "arguments": ""}
            calls[tool_call.index]["arguments"] += tool_call.function.arguments
    print(f"{len(calls)} tool calls")
    for call in calls.values():
        arguments = json.loads(call["arguments"])
        print(f"{call['id']}: {call['name']}({arguments['city']}) -> {get_weather(**arguments)}")


if __name__ == "__main__":
    main()
