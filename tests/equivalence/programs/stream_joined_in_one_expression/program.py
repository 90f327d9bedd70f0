"""A one-line helper that streams an answer and joins its texts."""

from openai import OpenAI

client = OpenAI()


def ask(question):
    stream = client.chat.completions.create(model="gpt-4o-mini", messages=[{"role": "user", "content": question}], stream=True)
    return "".join(chunk.choices[0].delta.content or "" for chunk in stream)


def ask_listed(question):
    stream = client.chat.completions.create(model="gpt-4o-mini", messages=[{"role": "user", "content": question}], stream=True)
    return "".join([chunk.choices[0].delta.content or "" for chunk in stream])


print(ask("Name a sea."))
print(ask_listed("Name a lake."))
