"""Checks of how answers ended, written with `in` and `not in`."""

from openai import OpenAI

client = OpenAI()
TOOLS = [{"type": "function", "name": "lookup", "parameters": {"type": "object", "properties": {"word": {"type": "string"}}}, "strict": False}]


def describe(question, max_tokens=None):
    kwargs = {"max_output_tokens": max_tokens} if max_tokens else {}
    response = client.responses.create(model="gpt-4o-mini", input=question, **kwargs)
    if (response.incomplete_details is not None and response.incomplete_details.reason == "max_output_tokens") or (response.incomplete_details is not None and response.incomplete_details.reason == "content_filter"):
        return "cut short: " + (response.output_text or "")
    if not (response.status == "completed"):
        return "?"
    return response.output_text or ""


def completed(question):
    response = client.responses.create(model="gpt-4o-mini", input=question, tools=TOOLS)
    return response.status == "completed"


print(describe("Describe the sea.", max_tokens=20))
print(describe("Name a river."))
print(completed("Look up 'tide'."))
