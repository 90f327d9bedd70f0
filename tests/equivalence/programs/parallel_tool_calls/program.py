"""Compare three cities: the model asks for all their temperatures at once."""

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


def main() -> None:
    client = OpenAI()
    messages = [{"role": "user", "content": "Which is warmest right now: Oslo, Lisbon or Cairo?"}]
    print(f"User: {messages[0]['content']}")
    while True:
        response = client.chat.completions.create(model="gpt-4o-mini", messages=messages, tools=TOOLS)
        choice = response.choices[0]
        if choice.finish_reason == "tool_calls":
            messages.append(choice.message)
            for tool_call in choice.message.tool_calls:
                city = json.loads(tool_call.function.arguments)["city"]
                print(f"{tool_call.function.name}({city}) -> {TEMPERATURES[city]}")
                messages.append({"role": "tool", "tool_call_id": tool_call.id, "content": str(TEMPERATURES[city])})
            continue
        print(choice.message.content or "(no answer)")
        break


if __name__ == "__main__":
    main()
