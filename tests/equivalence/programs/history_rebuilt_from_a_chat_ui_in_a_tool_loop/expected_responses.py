"""A chat UI's handler with a tool: the UI keeps the history, with keys of its own on each turn,
and the handler sends only each turn's role and text, then the question."""

import json
from typing import Any

from openai import OpenAI

client = OpenAI()
TOOLS: Any = [{"type": "function", "name": "get_time", "description": "Time.", "parameters": {"type": "object", "properties": {}}, "strict": False}]


def chat(question: str, history: list) -> str:
    history = [{"role": turn["role"], "content": turn["content"]} for turn in history]
    messages: Any = [{"role": "system", "content": "Be brief."}] + history + [{"role": "user", "content": question}]
    while True:
        response = client.responses.create(model="gpt-4o-mini", input=messages, tools=TOOLS)
        if not any(item.type == "function_call" for item in response.output):
            break
        messages.extend(response.output)
        for tool_call in [item for item in response.output if item.type == "function_call"]:
            messages.append({"type": "function_call_output", "call_id": tool_call.call_id, "output": json.dumps({"time": "noon"})})
    return response.output_text or ""


def main() -> None:
    shown: list = []
    for question in ("What time is it?", "And now?"):
        answer = chat(question, shown)
        shown.append({"role": "user", "content": question, "metadata": None})
        shown.append({"role": "assistant", "content": answer, "metadata": None})
        print(answer)


if __name__ == "__main__":
    main()
