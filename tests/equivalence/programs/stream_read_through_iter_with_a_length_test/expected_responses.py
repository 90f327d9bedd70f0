"""A chat UI's generator: the stream read through iter(), the text so far yielded whenever a
chunk has some; another stream counted and printed as it comes."""

from typing import Iterable, Iterator, cast

from openai import APIError, OpenAI, Stream
from openai.types.responses import ResponseStreamEvent


def _stream_events(stream: Iterable[ResponseStreamEvent]) -> Iterator[ResponseStreamEvent]:
    """The events of a Responses stream; a failure raises `APIError`, as a Chat Completions stream did."""
    for event in stream:
        if event.type == "error":
            request = cast(Stream[ResponseStreamEvent], stream).response.request
            raise APIError(event.message, request, body=event.to_dict())
        if event.type == "response.failed":
            error = event.response.error
            message = error.message if error is not None else "An error occurred during streaming"
            request = cast(Stream[ResponseStreamEvent], stream).response.request
            raise APIError(message, request, body=error.to_dict() if error is not None else None)
        yield event


client = OpenAI()


def respond(message: str) -> Iterator[str]:
    response = client.responses.create(
        model="gpt-4o-mini", input=message, stream=True
    )
    partial_message = ""
    for event in _stream_events(response):
        if event.type == "response.output_text.delta":
            content = event.delta
            if len(content) > 0:
                partial_message = partial_message + content
                yield partial_message


def count(message: str) -> int:
    stream = client.responses.create(
        model="gpt-4o-mini", input=message, stream=True
    )
    characters = 0
    for event in _stream_events(stream):
        if event.type == "response.output_text.delta":
            text = event.delta
            if len(text) >= 1:
                characters += len(text)
                print(text, end="|")
    print()
    return characters


for partial in respond("Tell me a story."):
    print(repr(partial))
print(count("And another."))
