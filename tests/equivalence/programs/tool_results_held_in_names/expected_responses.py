"""Two ways of writing the tool result into a name before adding it to the history."""

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


def compare(client: OpenAI, question: str) -> None:
    messages = [{"role": "user", "content": question}]
    while True:
        response = client.responses.create(model="gpt-4o-mini", input=messages, tools=TOOLS)
        if not any(item.type == "function_call" for item in response.output):
            print(response.output_text or "(no answer)")
            return
        messages.extend(response.output)
        for tool_call in [item for item in response.output if item.type == "function_call"]:
            city = json.loads(tool_call.arguments)["city"]
            if city in TEMPERATURES:
                result = {"type": "function_call_output", "call_id": tool_call.call_id, "output": str(TEMPERATURES[city])}
            else:
                result = {"type": "function_call_output", "call_id": tool_call.call_id, "output": "no such city"}
            print(f"{tool_call.name}({city})")
            messages.append(result)


def one_city(client: OpenAI, question: str) -> None:
    messages = [{"role": "user", "content": question}]
    response = client.responses.create(model="gpt-4o-mini", input=messages, tools=TOOLS)
    messages.extend(response.output)
    for tool_call in [item for item in response.output if item.type == "function_call"]:
        tool_message = {
            "type": "function_call_output",
            "call_id": tool_call.call_id,
            "output": str(TEMPERATURES.get(json.loads(tool_call.arguments)["city"], "no such city")),
        }
        messages.append(tool_message)
    response = client.responses.create(model="gpt-4o-mini", input=messages, tools=TOOLS)
    print(response.output_text or "(no answer)")


def main() -> None:
    client = OpenAI()
    compare(client, "How warm are Oslo and Atlantis?")
    one_city(client, "How warm is Cairo?")


if __name__ == "__main__":
    main()
