"""Ask how far apart two cities are: the model calls a tool until it can answer, and what it
says on the way is shown."""

import json

from openai import OpenAI
from openai.types.chat import ChatCompletion, ChatCompletionMessageFunctionToolCall

TOOLS = [
    {
        "type": "function",
        "function": {
            "name": "distance_km",
            "description": "The road distance between two cities, in kilometres.",
            "parameters": {
                "type": "object",
                "properties": {"origin": {"type": "string"}, "destination": {"type": "string"}},
                "required": ["origin", "destination"],
            },
        },
    }
]
DISTANCES = {("Paris", "Lyon"): 465}


def main() -> None:
    client = OpenAI()
    messages: list = [{"role": "user", "content": "How far is Lyon from Paris by road?"}]
    while True:
        response = client.chat.completions.create(model="gpt-4o-mini", messages=messages, tools=TOOLS)
        assert isinstance(response, ChatCompletion)
        messages.append(response.choices[0].message)
        # what the model says, if anything, before or instead of calling tools
        text = response.choices[0].message.content
        if text:
            print(f"model: {text.strip()}")
        if not response.choices[0].message.tool_calls:
            break
        for call in response.choices[0].message.tool_calls:
            if not isinstance(call, ChatCompletionMessageFunctionToolCall):
                continue
            arguments = json.loads(call.function.arguments)
            distance = DISTANCES.get((arguments["origin"], arguments["destination"]))
            print(f"{call.function.name}: {arguments['origin']} -> {arguments['destination']} = {distance}")
            messages.append({"role": "tool", "tool_call_id": call.id, "content": json.dumps({"km": distance})})
    print(f"tokens: {response.usage.total_tokens}")


if __name__ == "__main__":
    main()
