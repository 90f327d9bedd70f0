"""A chat UI's generator: the stream read through iter(), the text so far yielded whenever a
chunk has some; another stream counted and printed as it comes."""

from typing import Iterator

from openai import OpenAI

client = OpenAI()


def respond(message: str) -> Iterator[str]:
    response = client.chat.completions.create(
        model="gpt-4o-mini", messages=[{"role": "user", "content": message}], stream=True
    )
    partial_message = ""
    for chunk in iter(response):
        content = chunk.choices[0].delta.content or ""
        if len(content) > 0:
            partial_message = partial_message + content
            yield partial_message


def count(message: str) -> int:
    stream = client.chat.completions.create(
        model="gpt-4o-mini", messages=[{"role": "user", "content": message}], stream=True
    )
    characters = 0
    for chunk in stream:
        text = chunk.choices[0].delta.content or ""
        if len(text) >= 1:
            characters += len(text)
            print(text, end="|")
    print()
    return characters


for partial in respond("Tell me a story."):
    print(repr(partial))
print(count("And another."))
