"""Stream a turn with parallel tool calls, collect their arguments, run them once the stream ends."""

import json
from typing import Dict

from openai import OpenAI

TOOLS = [
    {
        "type": "function",
        "name": "get_weather",
        "description": "The current weather in a city.",
        "parameters": {
            "type": "object",
            "properties": {"city": {"type": "string"}},
            "required": ["city"],
        },
        "strict": False,
    }
]
WEATHER = {"Paris": "sunny, 21 °C", "Rome": "cloudy, 18 °C"}


def get_weather(city: str) -> str:
    return WEATHER.get(city, "unknown")


def main() -> None:
    client = OpenAI()
    stream = client.responses.create(
        model="gpt-4o-mini",
        input="What is the weather in Paris and in Rome?",
        tools=TOOLS,
        stream=True,
    )
    calls: Dict[int, Dict[str, str]] = {}
    for event in stream:
        if event.type == "response.output_text.delta":
            print(event.delta, end="")
        if event.type == "response.output_item.added" and event.item.type == "function_call":
            calls[event.output_index] = {"id": event.item.call_id, "name": event.item.name, "arguments": ""}
        elif event.type == "response.function_call_arguments.delta":
            calls[event.output_index]["arguments"] += event.delta
    print(f"{len(calls)} tool calls")
    for call in calls.values():
        arguments = json.loads(call["arguments"])
        print(f"{call['id']}: {call['name']}({arguments['city']}) -> {get_weather(**arguments)}")


if __name__ == "__main__":
    main()
