"""Turn free-text introductions into contact cards by forcing the extraction function."""

import json

from openai import OpenAI

SAVE_CONTACT = {
    "type": "function",
    "function": {
        "name": "save_contact",
        "description": "Save a contact card.",
        "parameters": {
            "type": "object",
            "properties": {"name": {"type": "string"}, "email": {"type": "string"}},
            "required": ["name", "email"],
        },
    },
}
INTRODUCTIONS = ["Hi, I'm Ann Lee, write to ann@example.com.", "Bob here (bob@example.org)."]


def main() -> None:
    client = OpenAI()
    for text in INTRODUCTIONS:
        response = client.chat.completions.create(
            model="gpt-4o-mini",
            messages=[{"role": "user", "content": text}],
            tools=[SAVE_CONTACT],
            tool_choice={"type": "function", "function": {"name": "save_contact"}},
        )
        call = response.choices[0].message.tool_calls[0]
        card = json.loads(call.function.arguments)
        print(f"{call.function.name}: {card['name']} <{card['email']}>")


if __name__ == "__main__":
    main()
