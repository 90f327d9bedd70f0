"""A stand-in for the part of Streamlit the program uses, printing what the page shows.

`empty()` makes a placeholder: each draw replaces what it shows, as Streamlit's own does. A
page shows the last draw, so a placeholder prints what it shows when the `chat_message` block it
was made in ends, and a plain `markdown` prints its text at once.
"""

import contextlib

_placeholders: list = []


class _Placeholder:
    def __init__(self) -> None:
        self.shown = ""

    def markdown(self, text: str) -> None:
        self.shown = text


def empty() -> _Placeholder:
    placeholder = _Placeholder()
    _placeholders.append(placeholder)
    return placeholder


def markdown(text: str) -> None:
    print(text)


@contextlib.contextmanager
def chat_message(role: str):
    print(f"[{role}]")
    start = len(_placeholders)
    yield
    for placeholder in _placeholders[start:]:
        print(placeholder.shown)
