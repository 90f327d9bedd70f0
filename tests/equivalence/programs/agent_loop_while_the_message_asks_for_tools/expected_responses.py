"""A tool loop that runs while the message asks for tools, then reads the answer."""

import json
from typing import Any, Optional

from openai import OpenAI

client = OpenAI()
TOOLS: Any = [{"type": "function", "name": "get_time", "description": "Time.", "parameters": {"type": "object", "properties": {}}, "strict": False}]


def run(question: str) -> Optional[str]:
    messages: Any = [{"role": "user", "content": question}]
    response = client.responses.create(model="gpt-4o-mini", input=messages, tools=TOOLS)
    while any(item.type == "function_call" for item in response.output):
        messages.extend(response.output)
        for tool_call in [item for item in response.output if item.type == "function_call"]:
            messages.append({"type": "function_call_output", "call_id": tool_call.call_id, "output": json.dumps({"time": "noon"})})
        response = client.responses.create(model="gpt-4o-mini", input=messages, tools=TOOLS)
    return response.output_text


def main() -> None:
    print(run("What time is it?"))


if __name__ == "__main__":
    main()
