"""Requests built as dicts, key by key under conditions, then sent with `**`."""

import json
from typing import Any, Dict

from openai import OpenAI

client = OpenAI()


def ask(question: str, as_json: bool = False, creative: bool = False) -> str:
    params: Dict[str, Any] = {
        "model": "gpt-4o-mini",
        "messages": [{"role": "system", "content": "Answer in one sentence."}, {"role": "user", "content": question}],
    }
    if as_json:
        params["response_format"] = {"type": "json_object"}
    if creative:
        params.update(temperature=1.1, top_p=0.9)
    else:
        params.update({"temperature": 0.2})
    completion = client.chat.completions.create(**params)
    return completion.choices[0].message.content or ""


def summarize(text: str, limit: int) -> str:
    request: Dict[str, Any] = dict(model="gpt-4o-mini", n=1)
    request["messages"] = [{"role": "user", "content": f"Summarize: {text}"}]
    if limit:
        request["max_tokens"] = limit
    completion = client.chat.completions.create(**request, user="summaries")
    print("summary tokens:", completion.usage.completion_tokens)
    return completion.choices[0].message.content or ""


def main() -> None:
    print(ask("Why is the sky blue?"))
    data = json.loads(ask("Give the capital of Italy as JSON with the key capital.", as_json=True))
    print("capital:", data["capital"])
    print(ask("Invent a name for a cat.", creative=True))
    print(summarize("The meeting moved to Thursday because the room was booked.", limit=60))


if __name__ == "__main__":
    main()
