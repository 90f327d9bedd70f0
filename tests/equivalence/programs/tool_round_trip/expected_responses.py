"""Ask what a rare word means: the model looks it up once, then answers."""

import json

from openai import OpenAI

TOOLS = [
    {
        "type": "function",
        "name": "lookup",
        "description": "Look a word up in the dictionary.",
        "parameters": {"type": "object", "properties": {"word": {"type": "string"}}, "required": ["word"]},
        "strict": False,
    }
]
DICTIONARY = {"apricity": "the warmth of the sun in winter"}


def main() -> None:
    client = OpenAI()
    messages = [{"role": "user", "content": "What does 'apricity' mean?"}]
    first = client.responses.create(model="gpt-4o-mini", input=messages, tools=TOOLS)
    messages.extend(first.output)
    for call in [item for item in first.output if item.type == "function_call"]:
        word = json.loads(call.arguments)["word"]
        print(f"looking up {word!r}")
        messages.append({"type": "function_call_output", "call_id": call.call_id, "output": DICTIONARY.get(word, "not found")})
    second = client.responses.create(model="gpt-4o-mini", input=messages, tools=TOOLS)
    print(second.output_text or "(no answer)")
    print(f"tokens: {first.usage.total_tokens + second.usage.total_tokens}")


if __name__ == "__main__":
    main()
