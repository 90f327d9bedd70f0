"""A tool loop that keeps the assistant message in a name once it asks for tools."""

import json
from typing import Any

from openai import OpenAI

client = OpenAI()
TOOLS: Any = [{"type": "function", "name": "get_time", "description": "Time.", "parameters": {"type": "object", "properties": {}}, "strict": False}]


def run(question: str) -> str:
    messages: Any = [{"role": "user", "content": question}]
    while True:
        response = client.responses.create(model="gpt-4o-mini", input=messages, tools=TOOLS)
        if any(item.type == "function_call" for item in response.output):
            messages.extend(response.output)
            for tool_call in [item for item in response.output if item.type == "function_call"]:
                result = {"time": "noon", "args": json.loads(tool_call.arguments)}
                messages.append({"type": "function_call_output", "call_id": tool_call.call_id, "output": json.dumps(result)})
        else:
            return response.output_text or ""


def main() -> None:
    print(run("What time is it?"))


if __name__ == "__main__":
    main()
