"""A tool round trip whose second request is a new list of the question, the model's turn and the result."""

import json

from openai import OpenAI

TOOLS = [
    {
        "type": "function",
        "name": "get_weather",
        "description": "The weather in a city today.",
        "parameters": {"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]},
        "strict": False,
    }
]
WEATHER = {"Paris": "light rain, 12 C"}


def answer(client: OpenAI, question: str) -> str:
    completion = client.responses.create(
        model="gpt-4o-mini",
        input=question,
        tools=TOOLS,
        tool_choice="auto",
    )
    # the model's turn
    # "auto" does not promise a tool call: answer with the text then.
    if not any(item.type == "function_call" for item in completion.output):
        return completion.output_text or ""

    # the first (and only) call
    tool_call = [item for item in completion.output if item.type == "function_call"][0]
    city = json.loads(tool_call.arguments)["city"]
    print(f"calling {tool_call.name} for {city}")
    messages = [
        {"role": "user", "content": question},
        *completion.output,
        {"type": "function_call_output", "call_id": tool_call.call_id, "output": WEATHER.get(city, "unknown")},
    ]
    follow_up = client.responses.create(model="gpt-4o-mini", input=messages, tools=TOOLS)
    return follow_up.output_text or "(no answer)"


def main() -> None:
    client = OpenAI()
    print(answer(client, "Do I need an umbrella in Paris today?"))
    print(answer(client, "Hello!"))


if __name__ == "__main__":
    main()
