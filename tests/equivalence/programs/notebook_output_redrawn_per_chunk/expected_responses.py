"""A notebook's cells that stream answers into outputs redrawn chunk by chunk, as a course's
brochure generator does: the text so far is drawn at every chunk, and once trimmed of spaces."""

from typing import Iterable, Iterator, cast

from IPython.display import Markdown, display, update_display
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


openai = OpenAI()
MODEL = "gpt-4o-mini"


def stream_brochure(company_name: str) -> None:
    stream = openai.responses.create(
        model=MODEL,
        instructions="You write short brochures.",
        input=f"Write a brochure for {company_name}.",
        stream=True,
    )
    response = ""
    display_handle = display(Markdown(""), display_id=True)
    for event in _stream_events(stream):
        if event.type == "response.output_text.delta":
            response += event.delta
            update_display(Markdown(response), display_id=display_handle.display_id)


def stream_trimmed(question: str) -> None:
    stream = openai.responses.create(
        model=MODEL,
        input=question,
        stream=True,
    )
    reply = ""
    handle = display(Markdown(""), display_id=True)
    for event in _stream_events(stream):
        if event.type == "response.output_text.delta":
            reply += event.delta
            reply = reply.strip()
            handle.update(Markdown(reply))


stream_brochure("HuggingFace")
stream_trimmed("Say something with spaces around it.")
