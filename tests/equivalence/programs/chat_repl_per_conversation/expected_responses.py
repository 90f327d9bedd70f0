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
            "name": "order_status",
            "description": "The status of an order.",
            "parameters": {"type": "object", "properties": {"order": {"type": "string"}}, "required": ["order"]},
            "strict": False,
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
                completion = client.responses.create(model="gpt-4o-mini", input=messages, tools=tools)
                messages.extend(completion.output)
                if not any(item.type == "function_call" for item in completion.output):
                    break
                for call in [item for item in completion.output if item.type == "function_call"]:
                    order = json.loads(call.arguments)["order"]
                    print(f"looking up {order}")
                    messages.append({"type": "function_call_output", "call_id": call.call_id, "output": ORDERS.get(order, "unknown")})
            print(f"Q: {line}")
            print(f"A: {completion.output_text}")
        print("-- end of conversation")


if __name__ == "__main__":
    main()
