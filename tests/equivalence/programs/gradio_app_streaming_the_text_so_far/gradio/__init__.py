"""A stand-in for the part of Gradio the program uses, printing what the app shows.

`Interface(fn=..., inputs=[...], outputs=[...]).launch()` runs the app once with the value each
input component was given, as a user submitting the form would. Gradio shows each value a
generator yields in the output in place of the one before: the stand-in prints the output each
time it comes to show something new, and nothing when it is given what it shows already.
"""

from typing import Any, Callable, List, Optional


class Textbox:
    def __init__(self, label: str = "", value: Any = None) -> None:
        self.value = value


class Dropdown:
    def __init__(self, choices: Optional[List[str]] = None, label: str = "", value: Any = None) -> None:
        self.value = value


class Markdown:
    def __init__(self, label: str = "") -> None:
        self.label = label


class Interface:
    def __init__(self, fn: Callable, inputs: List[Any], outputs: List[Any], flagging_mode: str = "manual") -> None:
        self.fn, self.inputs = fn, inputs

    def launch(self) -> None:
        shown = ""
        for value in self.fn(*(component.value for component in self.inputs)):
            if value != shown:
                shown = value
                print(f"[output] {shown!r}")
