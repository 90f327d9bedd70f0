"""Book a meeting room through a strict tool: the arguments must match the schema exactly."""

import json

from openai import OpenAI

BOOK_ROOM = {
    "type": "function",
    "function": {
        "name": "book_room",
        "description": "Book a meeting room.",
        "strict": True,
        "parameters": {
            "type": "object",
            "properties": {
                "room": {"type": "string", "enum": ["Ada", "Grace", "Hedy"]},
                "start": {"type": "string"},
                "minutes": {"type": "integer"},
            },
            "required": ["room", "start", "minutes"],
            "additionalProperties": False,
        },
    },
}


def main() -> None:
    client = OpenAI()
    messages = [{"role": "user", "content": "Book Grace for an hour at 14:00."}]
    response = client.chat.completions.create(model="gpt-4o-mini", messages=messages, tools=[BOOK_ROOM])
    message = response.choices[0].message
    if not message.tool_calls:
        print(message.content)
        return
    messages.append(message)
    for call in message.tool_calls:
        booking = json.loads(call.function.arguments)
        print(f"booking {booking['room']} at {booking['start']} for {booking['minutes']} minutes")
        messages.append({"role": "tool", "tool_call_id": call.id, "content": "booked"})
    confirmation = client.chat.completions.create(model="gpt-4o-mini", messages=messages, tools=[BOOK_ROOM])
    print(confirmation.choices[0].message.content or "")


if __name__ == "__main__":
    main()
