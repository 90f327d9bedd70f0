"""Answer a question about an order: the tool result goes back to the model as a JSON string."""

import json

from openai import OpenAI

TOOLS = [
    {
        "type": "function",
        "name": "get_order",
        "description": "Look an order up by its number.",
        "parameters": {"type": "object", "properties": {"number": {"type": "integer"}}, "required": ["number"]},
        "strict": False,
    }
]
ORDERS = {1042: {"status": "shipped", "items": ["kettle", "mug"], "eta": "2024-05-02"}}


def main() -> None:
    client = OpenAI()
    messages = [{"role": "user", "content": "Where is my order 1042?"}]
    while True:
        response = client.responses.create(model="gpt-4o-mini", input=messages, tools=TOOLS)
        if not any(item.type == "function_call" for item in response.output):
            print(response.output_text)
            break
        messages.extend(response.output)
        for call in [item for item in response.output if item.type == "function_call"]:
            number = json.loads(call.arguments)["number"]
            order = ORDERS.get(number, {"error": "unknown order"})
            print(f"order {number}: {order.get('status', 'missing')}")
            messages.append({"type": "function_call_output", "call_id": call.call_id, "output": json.dumps(order)})
    print(f"{response.usage.input_tokens} prompt tokens in the last request")


if __name__ == "__main__":
    main()
