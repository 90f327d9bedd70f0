"""A chat with a tool whose request joins a system message, the history so far and the question."""

import json
from typing import Any

from openai import OpenAI

client = OpenAI()
TOOLS: Any = [{"type": "function", "function": {"name": "get_time", "description": "Time.", "parameters": {"type": "object", "properties": {}}}}]
history: Any = []


def ask(question: str) -> str:
    messages: Any = [{"role": "system", "content": "Be brief."}] + history + [{"role": "user", "content": question}]
    while True:
        response = client.chat.completions.create(model="gpt-4o-mini", messages=messages, tools=TOOLS)
        message = response.choices[0].message
        if not message.tool_calls:
            break
        messages.append(message)
        for tool_call in message.tool_calls:
            messages.append({"role": "tool", "tool_call_id": tool_call.id, "content": json.dumps({"time": "noon"})})
    answer = message.content or ""
    history.append({"role": "user", "content": question})
    history.append({"role": "assistant", "content": answer})
    return answer


def main() -> None:
    print(ask("What time is it?"))
    print(ask("And now?"))


if __name__ == "__main__":
    main()
