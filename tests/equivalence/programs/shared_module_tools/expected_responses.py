"""Two helpers share one module-level tool list: one plans a trip, one answers a follow-up."""

import json

from openai import OpenAI

TOOLS = [
    {
        "type": "function",
        "name": "train_times",
        "description": "Departure times between two stations.",
        "parameters": {
            "type": "object",
            "properties": {"origin": {"type": "string"}, "destination": {"type": "string"}},
            "required": ["origin", "destination"],
        },
        "strict": False,
    }
]
TIMETABLE = {("Paris", "Lyon"): ["07:04", "09:00"], ("Lyon", "Paris"): ["18:04"]}


def plan(client: OpenAI, question: str) -> list:
    completion = client.responses.create(
        model="gpt-4o-mini",
        input=question,
        tools=TOOLS,
        tool_choice="required",
    )
    times = []
    for call in [item for item in completion.output if item.type == "function_call"]:
        route = json.loads(call.arguments)
        times.append(TIMETABLE[(route["origin"], route["destination"])])
    return times


def chat(client: OpenAI, question: str) -> str:
    completion = client.responses.create(model="gpt-4o-mini", input=question, tools=TOOLS, tool_choice="none")
    return completion.output_text


def main() -> None:
    client = OpenAI()
    print(plan(client, "Trains from Paris to Lyon and back?"))
    print(chat(client, "Is the 07:04 usually on time?"))


if __name__ == "__main__":
    main()
