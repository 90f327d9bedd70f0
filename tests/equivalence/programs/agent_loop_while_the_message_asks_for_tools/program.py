"""A tool loop that runs while the message asks for tools, then reads the answer."""

import json
from typing import Any, Optional

from openai import OpenAI

client = OpenAI()
TOOLS: Any = [{"type": "function", "function": {"name": "get_time", "description": "Time.", "parameters": {"type": "object", "properties": {}}}}]


def run(question: str) -> Optional[str]:
    messages: Any = [{"role": "user", "content": question}]
    response = client.chat.completions.create(model="gpt-4o-mini", messages=messages, tools=TOOLS)
    while response.choices[0].message.tool_calls:
        messages.append(response.choices[0].message)
        for tool_call in response.choices[0].message.tool_calls:
            messages.append({"role": "tool", "tool_call_id": tool_call.id, "content": json.dumps({"time": "noon"})})
        response = client.chat.completions.create(model="gpt-4o-mini", messages=messages, tools=TOOLS)
    return response.choices[0].message.content


def main() -> None:
    print(run("What time is it?"))


if __name__ == "__main__":
    main()
