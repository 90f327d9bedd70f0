"""A chat UI's handler with a tool: the UI keeps the history, with keys of its own on each turn,
and the handler sends only each turn's role and text, then the question."""

import json
from typing import Any

from openai import OpenAI

client = OpenAI()
TOOLS: Any = [{"type": "function", "function": {"name": "get_time", "description": "Time.", "parameters": {"type": "object", "properties": {}}}}]


def chat(question: str, history: list) -> str:
    history = [{"role": turn["role"], "content": turn["content"]} for turn in history]
    messages: Any = [{"role": "system", "content": "Be brief."}] + history + [{"role": "user", "content": question}]
    while True:
        response = client.chat.completions.create(model="gpt-4o-mini", messages=messages, tools=TOOLS)
        message = response.choices[0].message
        if not message.tool_calls:
            break
        messages.append(message)
        for tool_call in message.tool_calls:
            messages.append({"role": "tool", "tool_call_id": tool_call.id, "content": json.dumps({"time": "noon"})})
    return message.content or ""


def main() -> None:
    shown: list = []
    for question in ("What time is it?", "And now?"):
        answer = chat(question, shown)
        shown.append({"role": "user", "content": question, "metadata": None})
        shown.append({"role": "assistant", "content": answer, "metadata": None})
        print(answer)


if __name__ == "__main__":
    main()
