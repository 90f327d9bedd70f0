"""Ask what a rare word means: the model looks it up once, then answers."""

import json

from openai import OpenAI

TOOLS = [
    {
        "type": "function",
        "function": {
            "name": "lookup",
            "description": "Look a word up in the dictionary.",
            "parameters": {"type": "object", "properties": {"word": {"type": "string"}}, "required": ["word"]},
        },
    }
]
DICTIONARY = {"apricity": "the warmth of the sun in winter"}


def main() -> None:
    client = OpenAI()
    messages = [{"role": "user", "content": "What does 'apricity' mean?"}]
    first = client.chat.completions.create(model="gpt-4o-mini", messages=messages, tools=TOOLS)
    message = first.choices[0].message
    messages.append(message)
    for call in message.tool_calls:
        word = json.loads(call.function.arguments)["word"]
        print(f"looking up {word!r}")
        messages.append({"role": "tool", "tool_call_id": call.id, "content": DICTIONARY.get(word, "not found")})
    second = client.chat.completions.create(model="gpt-4o-mini", messages=messages, tools=TOOLS)
    print(second.choices[0].message.content or "(no answer)")
    print(f"tokens: {first.usage.total_tokens + second.usage.total_tokens}")


if __name__ == "__main__":
    main()
