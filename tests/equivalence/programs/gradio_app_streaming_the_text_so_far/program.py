"""A Gradio app that streams an answer from the model the user picks, as a course's exercise
does: each model's generator yields the text so far, and the app's function yields from the
one picked."""

import gradio as gr
from openai import OpenAI

openai = OpenAI()
system_message = "You are a helpful assistant that answers in markdown."


def stream_gpt(prompt):
    messages: list = [
        {"role": "system", "content": system_message},
        {"role": "user", "content": prompt},
    ]
    stream = openai.chat.completions.create(model="gpt-4o-mini", messages=messages, stream=True)
    result = ""
    for chunk in stream:
        result += chunk.choices[0].delta.content or ""
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
