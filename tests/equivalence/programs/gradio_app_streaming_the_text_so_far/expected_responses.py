"""A Gradio app that streams an answer from the model the user picks, as a course's exercise
does: each model's generator yields the text so far, and the app's function yields from the
one picked."""

from typing import Iterable, Iterator, cast

import gradio as gr
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
system_message = "You are a helpful assistant that answers in markdown."


def stream_gpt(prompt):
    messages: list = [
        {"role": "system", "content": system_message},
        {"role": "user", "content": prompt},
    ]
    stream = openai.responses.create(model="gpt-4o-mini", input=messages, stream=True)
    result = ""
    for event in _stream_events(stream):
        if event.type == "response.output_text.delta":
            result += event.delta
            yield result


def stream_echo(prompt):
    yield prompt


def stream_model(prompt, model):
    if model == "GPT":
        result = stream_gpt(prompt)
    elif model == "Echo":
        result = stream_echo(prompt)
    else:
        raise ValueError("Unknown model")
    yield from result


view = gr.Interface(
    fn=stream_model,
    inputs=[gr.Textbox(label="Your message:", value="Tell me a joke."), gr.Dropdown(["GPT", "Echo"], label="Select model", value="GPT")],
    outputs=[gr.Markdown(label="Response:")],
    flagging_mode="never",
)
view.launch()
