"""Answer a question about an order: the tool result goes back to the model as a JSON string."""

import json

from openai import OpenAI

TOOLS = [
    {
        "type": "function",
        "function": {
            "name": "get_order",
            "description": "Look an order up by its number.",
            "parameters": {"type": "object", "properties": {"number": {"type": "integer"}}, "required": ["number"]},
        },
    }
]
ORDERS = {1042: {"status": "shipped", "items": ["kettle", "mug"], "eta": "2024-05-02"}}


def main() -> None:
    client = OpenAI()
    messages = [{"role": "user", "content": "Where is my order 1042?"}]
    while True:
        response = client.chat.completions.create(model="gpt-4o-mini", messages=messages, tools=TOOLS)
        message = response.choices[0].message
        if not message.tool_calls:
            print(message.content)
            break
        messages.append(message)
        for call in message.tool_calls:
            number = json.loads(call.function.arguments)["number"]
            order = ORDERS.get(number, {"error": "unknown order"})
            print(f"order {number}: {order.get('status', 'missing')}")
            messages.append({"role": "tool", "tool_call_id": call.id, "content": json.dumps(order)})
    print(f"{response.usage.prompt_tokens} prompt tokens in the last request")


if __name__ == "__main__":
    main()
