"""A one-line helper that streams an answer and joins its texts."""

from openai import OpenAI

client = OpenAI()


def ask(question):
    stream = client.responses.create(model="gpt-4o-mini", input=question, stream=True)
    return "".join(event.delta for event in stream if event.type == "response.output_text.delta")


def ask_listed(question):
    stream = client.responses.create(model="gpt-4o-mini", input=question, stream=True)
    return "".join([event.delta for event in stream if event.type == "response.output_text.delta"])


print(ask("Name a sea."))
print(ask_listed("Name a lake."))
