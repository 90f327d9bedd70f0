"""A stand-in for IPython's rich display, printing what a notebook's outputs show.

`display(obj, display_id=True)` adds an output and returns its handle; `update_display(obj,
display_id=...)` and `handle.update(obj)` replace what an output shows. Each time an output comes
to show something new, the stand-in prints it: a reader of the notebook sees every such change,
and nothing when an output is drawn again with what it shows already.
"""

from typing import Dict

_shown: Dict[str, str] = {}


class Markdown:
    def __init__(self, data: str) -> None:
        self.data = data


class DisplayHandle:
    def __init__(self, display_id: str) -> None:
        self.display_id = display_id

    def update(self, obj: Markdown) -> None:
        update_display(obj, display_id=self.display_id)


def display(obj: Markdown, display_id: bool = False) -> DisplayHandle:
    handle = DisplayHandle(f"out{len(_shown) + 1}")
    _shown[handle.display_id] = ""
    update_display(obj, display_id=handle.display_id)
    return handle


def update_display(obj: Markdown, display_id: str) -> None:
    if _shown[display_id] != obj.data:
        _shown[display_id] = obj.data
        print(f"[{display_id}] {obj.data!r}")
