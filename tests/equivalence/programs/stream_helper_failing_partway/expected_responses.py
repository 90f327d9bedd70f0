"""Stream answers with the SDK helper; the service fails partway through some of them, which the
program reports with the text it had. One answer is read whole once the stream ends."""

import asyncio
from typing import AsyncIterable, AsyncIterator, Iterable, Iterator, cast

import openai
from openai import APIError, AsyncOpenAI, AsyncStream, OpenAI, Stream
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


async def _stream_events_async(stream: AsyncIterable[ResponseStreamEvent]) -> AsyncIterator[ResponseStreamEvent]:
    """The events of a Responses stream; a failure raises `APIError`, as a Chat Completions stream did."""
    async for event in stream:
        if event.type == "error":
            request = cast(AsyncStream[ResponseStreamEvent], stream).response.request
            raise APIError(event.message, request, body=event.to_dict())
        if event.type == "response.failed":
            error = event.response.error
            message = error.message if error is not None else "An error occurred during streaming"
            request = cast(AsyncStream[ResponseStreamEvent], stream).response.request
            raise APIError(message, request, body=error.to_dict() if error is not None else None)
        yield event


QUESTIONS = ["Tell me a story.", "Tell me another."]


def tell(client: OpenAI, question: str) -> None:
    text = ""
    try:
        with client.responses.create(model="gpt-4o-mini", input=question, stream=True) as stream:
            for event in _stream_events(stream):
                if event.type == "response.output_text.delta":
                    text += event.delta
                elif event.type == "response.output_text.done":
                    print(f"({len(event.text)} characters)")
    except openai.APIError as error:
        print(f"failed after {text!r}: {error.message}")
        return
    print(f"answer: {text}")


async def show(client: AsyncOpenAI, question: str) -> None:
    try:
        async with await client.responses.create(model="gpt-4o-mini", input=question, stream=True) as stream:
            async for event in _stream_events_async(stream):
                if event.type == "response.output_text.delta":
                    print(event.delta, end="", flush=True)
        print()
    except openai.APIError as error:
        print(f"\nfailed: {error.message}")


def whole(client: OpenAI, question: str) -> str:
    with client.responses.stream(model="gpt-4o-mini", input=question) as stream:
        for event in stream:
            if event.type == "response.output_text.delta":
                print(event.delta, end="", flush=True)
        completion = stream.get_final_response()
    print()
    return completion.output_text or ""


def main() -> None:
    client = OpenAI()
    for question in QUESTIONS:
        tell(client, question)
    asyncio.run(show(AsyncOpenAI(), "And a third."))
    asyncio.run(show(AsyncOpenAI(), "And a fourth."))
    print(f"whole: {whole(client, 'The end?')}")


if __name__ == "__main__":
    main()
