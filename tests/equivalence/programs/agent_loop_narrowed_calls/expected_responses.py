"""Ask how far apart two cities are: the model calls a tool until it can answer, and what it
says on the way is shown."""

import json

from openai import OpenAI
from openai.types.responses import Response, ResponseFunctionToolCall

TOOLS = [
    {
        "type": "function",
        "name": "distance_km",
        "description": "The road distance between two cities, in kilometres.",
        "parameters": {
            "type": "object",
            "properties": {"origin": {"type": "string"}, "destination": {"type": "string"}},
            "required": ["origin", "destination"],
        },
        "strict": False,
    }
]
DISTANCES = {("Paris", "Lyon"): 465}


def main() -> None:
    client = OpenAI()
    messages: list = [{"role": "user", "content": "How far is Lyon from Paris by road?"}]
    while True:
        response = client.responses.create(model="gpt-4o-mini", input=messages, tools=TOOLS)
        assert isinstance(response, Response)
        messages.extend(response.output)
        # what the model says, if anything, before or instead of calling tools
        text = response.output_text
        if text:
            print(f"model: {text.strip()}")
        if not any(item.type == "function_call" for item in response.output):
            break
        for call in [item for item in response.output if item.type == "function_call"]:
            if not isinstance(call, ResponseFunctionToolCall):
                continue
            arguments = json.loads(call.arguments)
            distance = DISTANCES.get((arguments["origin"], arguments["destination"]))
            print(f"{call.name}: {arguments['origin']} -> {arguments['destination']} = {distance}")
            messages.append({"type": "function_call_output", "call_id": call.call_id, "output": json.dumps({"km": distance})})
    print(f"tokens: {response.usage.total_tokens}")


if __name__ == "__main__":
    main()
