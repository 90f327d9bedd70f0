"""A tool loop that keeps the assistant message in a name once it asks for tools."""

import json
from typing import Any

from openai import OpenAI

client = OpenAI()
TOOLS: Any = [{"type": "function", "function": {"name": "get_time", "description": "Time.", "parameters": {"type": "object", "properties": {}}}}]


def run(question: str) -> str:
    messages: Any = [{"role": "user", "content": question}]
    while True:
        response = client.chat.completions.create(model="gpt-4o-mini", messages=messages, tools=TOOLS)
        if response.choices[0].message.tool_calls:
            msg = response.choices[0].message
            messages.append(msg)
            for tool_call in msg.tool_calls:
                result = {"time": "noon", "args": json.loads(tool_call.function.arguments)}
                messages.append({"role": "tool", "tool_call_id": tool_call.id, "content": json.dumps(result)})
        else:
            return response.choices[0].message.content or ""


def main() -> None:
    print(run("What time is it?"))


if __name__ == "__main__":
    main()
