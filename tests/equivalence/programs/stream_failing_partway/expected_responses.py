"""Stream answers to a terminal and join others whole; the service fails partway through some
of them, which the program reports with the text it had."""

from typing import Iterable, Iterator, cast

import openai
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


QUESTIONS = ["Tell me a story.", "Tell me another.", "And a third."]


def answer(client: OpenAI, question: str) -> str:
    stream = client.responses.create(model="gpt-4o-mini", input=question, stream=True)
    return "".join(event.delta for event in _stream_events(stream) if event.type == "response.output_text.delta")


def main() -> None:
    client = OpenAI()
    for question in QUESTIONS:
        text = ""
        try:
            stream = client.responses.create(model="gpt-4o-mini", input=question, stream=True)
            for event in _stream_events(stream):
                if event.type == "response.output_text.delta":
                    text += event.delta
        except openai.APIError as error:
            print(f"failed after {text!r}: {error.message}")
            continue
        print(f"answer: {text}")
    for question in QUESTIONS[:2]:
        try:
            print("joined:", answer(client, question))
        except openai.APIError as error:
            print("joined answer failed:", error.message)


if __name__ == "__main__":
    main()
