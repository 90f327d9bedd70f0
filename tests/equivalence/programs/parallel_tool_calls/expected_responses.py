"""Compare three cities: the model asks for all their temperatures at once."""

import json

from openai import OpenAI

TOOLS = [
    {
        "type": "function",
        "name": "get_temperature",
        "description": "Current temperature in a city, in Celsius.",
        "parameters": {"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]},
        "strict": False,
    }
]
TEMPERATURES = {"Oslo": 4, "Lisbon": 21, "Cairo": 33}


def main() -> None:
    client = OpenAI()
    messages = [{"role": "user", "content": "Which is warmest right now: Oslo, Lisbon or Cairo?"}]
    print(f"User: {messages[0]['content']}")
    while True:
        response = client.responses.create(model="gpt-4o-mini", input=messages, tools=TOOLS)
        if response.status == "completed" and any(item.type == "function_call" for item in response.output):
            messages.extend(response.output)
            for tool_call in [item for item in response.output if item.type == "function_call"]:
                city = json.loads(tool_call.arguments)["city"]
                print(f"{tool_call.name}({city}) -> {TEMPERATURES[city]}")
                messages.append({"type": "function_call_output", "call_id": tool_call.call_id, "output": str(TEMPERATURES[city])})
            continue
        print(response.output_text or "(no answer)")
        break


if __name__ == "__main__":
    main()
