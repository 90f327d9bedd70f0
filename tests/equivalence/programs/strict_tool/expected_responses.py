"""Book a meeting room through a strict tool: the arguments must match the schema exactly."""

import json

from openai import OpenAI

BOOK_ROOM = {
    "type": "function",
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
}


def main() -> None:
    client = OpenAI()
    messages = [{"role": "user", "content": "Book Grace for an hour at 14:00."}]
    response = client.responses.create(model="gpt-4o-mini", input=messages, tools=[BOOK_ROOM])
    if not any(item.type == "function_call" for item in response.output):
        print(response.output_text)
        return
    messages.extend(response.output)
    for call in [item for item in response.output if item.type == "function_call"]:
        booking = json.loads(call.arguments)
        print(f"booking {booking['room']} at {booking['start']} for {booking['minutes']} minutes")
        messages.append({"type": "function_call_output", "call_id": call.call_id, "output": "booked"})
    confirmation = client.responses.create(model="gpt-4o-mini", input=messages, tools=[BOOK_ROOM])
    print(confirmation.output_text or "")


if __name__ == "__main__":
    main()
