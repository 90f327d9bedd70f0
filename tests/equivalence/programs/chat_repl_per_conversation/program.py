"""A support chat: each conversation starts from the same system prompt, each user line is
appended to the history, and the assistant may look up orders before it answers."""

import json
from typing import Final

from openai import OpenAI

SYSTEM_PROMPT: Final[str] = "You are a terse support assistant for a bakery."
DEFAULT_MESSAGES: Final = [{"role": "system", "content": SYSTEM_PROMPT}]
ORDERS = {"A17": "baked, out for delivery", "B02": "waiting for flour"}
CONVERSATIONS = [
    ["Where is my order A17?", "Thanks. And B02?"],
    ["Do you sell rye bread?"],
]


def get_tools():
    return [
        {
            "type": "function",
            "function": {
                "name": "order_status",
                "description": "The status of an order.",
                "parameters": {"type": "object", "properties": {"order": {"type": "string"}}, "required": ["order"]},
            },
        }
    ]


def main() -> None:
    client = OpenAI()
    tools = get_tools()
    for conversation in CONVERSATIONS:
        messages = list(DEFAULT_MESSAGES)
        for line in conversation:
            messages.append({"role": "user", "content": line})
            while True:
                completion = client.chat.completions.create(model="gpt-4o-mini", messages=messages, tools=tools)
                message = completion.choices[0].message
                messages.append(message)
                if not message.tool_calls:
                    break
                for call in message.tool_calls:
                    order = json.loads(call.function.arguments)["order"]
                    print(f"looking up {order}")
                    messages.append({"role": "tool", "tool_call_id": call.id, "content": ORDERS.get(order, "unknown")})
            print(f"Q: {line}")
            print(f"A: {message.content}")
        print("-- end of conversation")


if __name__ == "__main__":
    main()
