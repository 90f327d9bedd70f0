"""Pull order details out of customer emails with the legacy `functions` parameter."""

import json

from openai import OpenAI

FUNCTIONS = [
    {
        "name": "record_order",
        "description": "Record an order found in an email.",
        "parameters": {
            "type": "object",
            "properties": {"item": {"type": "string"}, "quantity": {"type": "integer"}},
            "required": ["item", "quantity"],
        },
    }
]
EMAILS = ["Please send me 3 blue mugs.", "Hello, just saying thanks!"]


def main() -> None:
    client = OpenAI()
    for email in EMAILS:
        completion = client.chat.completions.create(
            model="gpt-4o-mini",
            messages=[{"role": "system", "content": "Record orders you find."}, {"role": "user", "content": email}],
            functions=FUNCTIONS,
            function_call="auto",
        )
        if completion.choices[0].message.function_call:
            order = json.loads(completion.choices[0].message.function_call.arguments)
            print(f"{completion.choices[0].message.function_call.name}: {order['quantity']} x {order['item']}")
        else:
            print(f"no order: {completion.choices[0].message.content}")


if __name__ == "__main__":
    main()
