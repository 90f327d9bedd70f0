"""A stand-in for the part of Streamlit the program uses, printing what a page would show.

`write_stream` does what Streamlit's own does (`streamlit/elements/write.py`): a chunk of an
OpenAI Chat stream (a type named `openai.....ChatCompletionChunk`) becomes its first choice's
`delta.content or ""` ("" when it has no choices); empty strings are skipped, the others shown
as one growing text; anything else is written as it is. It returns the text, or "" when nothing
was shown, or the list of what was written when that was more than one text.
"""

import contextlib
import re

_OPENAI_CHUNK = re.compile(r"^openai\..+\.ChatCompletionChunk$")


def _is_openai_chunk(value):
    kind = type(value)
    return _OPENAI_CHUNK.match(f"{kind.__module__}.{kind.__qualname__}") is not None


@contextlib.contextmanager
def chat_message(role):
    print(f"[{role}]")
    yield


def markdown(text):
    print(text)


def write_stream(stream):
    shown = ""
    written = []
    for chunk in stream:
        if _is_openai_chunk(chunk):
            chunk = chunk.choices[0].delta.content or "" if chunk.choices else ""
        if isinstance(chunk, str):
            if chunk:
                shown += chunk
            continue
        if shown:
            markdown(shown)
            written.append(shown)
            shown = ""
        print(f"(written: {type(chunk).__name__})")
        written.append(chunk)
    if shown:
        markdown(shown)
        written.append(shown)
    if not written:
        return ""
    if len(written) == 1 and isinstance(written[0], str):
        return written[0]
    return written
