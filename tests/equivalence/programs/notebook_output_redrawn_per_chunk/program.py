"""A notebook's cells that stream answers into outputs redrawn chunk by chunk, as a course's
brochure generator does: the text so far is drawn at every chunk, and once trimmed of spaces."""

from IPython.display import Markdown, display, update_display
from openai import OpenAI

openai = OpenAI()
MODEL = "gpt-4o-mini"


def stream_brochure(company_name: str) -> None:
    stream = openai.chat.completions.create(
        model=MODEL,
        messages=[
            {"role": "system", "content": "You write short brochures."},
            {"role": "user", "content": f"Write a brochure for {company_name}."},
        ],
        stream=True,
    )
    response = ""
    display_handle = display(Markdown(""), display_id=True)
    for chunk in stream:
        response += chunk.choices[0].delta.content or ''
        update_display(Markdown(response), display_id=display_handle.display_id)


def stream_trimmed(question: str) -> None:
    stream = openai.chat.completions.create(
        model=MODEL,
        messages=[{"role": "user", "content": question}],
        stream=True,
    )
    reply = ""
    handle = display(Markdown(""), display_id=True)
    for chunk in stream:
        reply += chunk.choices[0].delta.content or ''
        reply = reply.strip()
        handle.update(Markdown(reply))


stream_brochure("HuggingFace")
stream_trimmed("Say something with spaces around it.")
