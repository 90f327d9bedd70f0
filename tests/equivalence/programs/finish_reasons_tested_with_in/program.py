"""Checks of how answers ended, written with `in` and `not in`."""

from openai import OpenAI

client = OpenAI()
TOOLS = [{"type": "function", "function": {"name": "lookup", "parameters": {"type": "object", "properties": {"word": {"type": "string"}}}}}]


def describe(question, max_tokens=None):
    kwargs = {"max_tokens": max_tokens} if max_tokens else {}
    response = client.chat.completions.create(model="gpt-4o-mini", messages=[{"role": "user", "content": question}], **kwargs)
    if response.choices[0].finish_reason in ("length", "content_filter"):
        return "cut short: " + (response.choices[0].message.content or "")
    if response.choices[0].finish_reason not in ("stop",):
        return "?"
    return response.choices[0].message.content or ""


def completed(question):
    response = client.chat.completions.create(model="gpt-4o-mini", messages=[{"role": "user", "content": question}], tools=TOOLS)
    return response.choices[0].finish_reason in ("stop", "tool_calls")


print(describe("Describe the sea.", max_tokens=20))
print(describe("Name a river."))
print(completed("Look up 'tide'."))
