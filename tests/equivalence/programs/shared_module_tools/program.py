"""Two helpers share one module-level tool list: one plans a trip, one answers a follow-up."""

import json

from openai import OpenAI

TOOLS = [
    {
        "type": "function",
        "function": {
            "name": "train_times",
            "description": "Departure times between two stations.",
            "parameters": {
                "type": "object",
                "properties": {"origin": {"type": "string"}, "destination": {"type": "string"}},
                "required": ["origin", "destination"],
            },
        },
    }
]
TIMETABLE = {("Paris", "Lyon"): ["07:04", "09:00"], ("Lyon", "Paris"): ["18:04"]}


def plan(client: OpenAI, question: str) -> list:
    completion = client.chat.completions.create(
        model="gpt-4o-mini",
        messages=[{"role": "user", "content": question}],
        tools=TOOLS,
        tool_choice="required",
    )
    times = []
    for call in completion.choices[0].message.tool_calls:
        route = json.loads(call.function.arguments)
        times.append(TIMETABLE[(route["origin"], route["destination"])])
    return times


def chat(client: OpenAI, question: str) -> str:
    completion = client.chat.completions.create(
        model="gpt-4o-mini", messages=[{"role": "user", "content": question}], tools=TOOLS, tool_choice="none"
    )
    return completion.choices[0].message.content


def main() -> None:
    client = OpenAI()
    print(plan(client, "Trains from Paris to Lyon and back?"))
    print(chat(client, "Is the 07:04 usually on time?"))


if __name__ == "__main__":
    main()
