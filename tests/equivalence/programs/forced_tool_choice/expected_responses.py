"""Turn free-text introductions into contact cards by forcing the extraction function."""

import json

from openai import OpenAI

SAVE_CONTACT = {
    "type": "function",
    "name": "save_contact",
    "description": "Save a contact card.",
    "parameters": {
        "type": "object",
        "properties": {"name": {"type": "string"}, "email": {"type": "string"}},
        "required": ["name", "email"],
    },
    "strict": False,
}
INTRODUCTIONS = ["Hi, I'm Ann Lee, write to ann@example.com.", "Bob here (bob@example.org)."]


def main() -> None:
    client = OpenAI()
    for text in INTRODUCTIONS:
        response = client.responses.create(
            model="gpt-4o-mini",
            input=text,
            tools=[SAVE_CONTACT],
            tool_choice={"type": "function", "name": "save_contact"},
        )
        call = [item for item in response.output if item.type == "function_call"][0]
        card = json.loads(call.arguments)
        print(f"{call.name}: {card['name']} <{card['email']}>")


if __name__ == "__main__":
    main()
