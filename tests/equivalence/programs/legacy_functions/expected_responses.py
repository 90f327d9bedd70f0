"""Pull order details out of customer emails with the legacy `functions` parameter."""

import json

from openai import OpenAI

FUNCTIONS = [
    {
        "type": "function",
        "name": "record_order",
        "description": "Record an order found in an email.",
        "parameters": {
            "type": "object",
            "properties": {"item": {"type": "string"}, "quantity": {"type": "integer"}},
            "required": ["item", "quantity"],
        },
        "strict": False,
    }
]
EMAILS = ["Please send me 3 blue mugs.", "Hello, just saying thanks!"]


def main() -> None:
    client = OpenAI()
    for email in EMAILS:
        completion = client.responses.create(
            model="gpt-4o-mini",
            instructions="Record orders you find.",
            input=email,
            tools=FUNCTIONS,
            parallel_tool_calls=False,
            tool_choice="auto",
        )
        calls = [item for item in completion.output if item.type == "function_call"]
        if calls:
            order = json.loads(calls[0].arguments)
            print(f"{calls[0].name}: {order['quantity']} x {order['item']}")
        else:
            print(f"no order: {completion.output_text}")


if __name__ == "__main__":
    main()
