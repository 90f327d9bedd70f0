"""A chat with a tool whose request joins a system message, the history so far and the question."""

import json
from typing import Any

from openai import OpenAI

client = OpenAI()
TOOLS: Any = [{"type": "function", "name": "get_time", "description": "Time.", "parameters": {"type": "object", "properties": {}}, "strict": False}]
history: Any = []


def ask(question: str) -> str:
    messages: Any = [{"role": "system", "content": "Be brief."}] + history + [{"role": "user", "content": question}]
    while True:
        response = client.responses.create(model="gpt-4o-mini", input=messages, tools=TOOLS)
        if not any(item.type == "function_call" for item in response.output):
            break
        messages.extend(response.output)
        for tool_call in [item for item in response.output if item.type == "function_call"]:
            messages.append({"type": "function_call_output", "call_id": tool_call.call_id, "output": json.dumps({"time": "noon"})})
    answer = response.output_text or ""
    history.append({"role": "user", "content": question})
    history.append({"role": "assistant", "content": answer})
    return answer


def main() -> None:
    print(ask("What time is it?"))
    print(ask("And now?"))


if __name__ == "__main__":
    main()
