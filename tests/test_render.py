"""A stream that is not a terminal is written without rich: what it gets is what rich wrote there."""

from __future__ import annotations

import io

import pytest
from hypothesis import given
from hypothesis import strategies as st
from rich.console import Console
from rich.text import Text

from migrator.render import TERMINAL_OVERRIDES, Stream, _printable

STYLES = st.sampled_from(["", "bold", "red", "bold red", "cyan", "dim", "green"])
# Control characters rich drops and some it keeps, tabs, line breaks, wide and combining characters.
TEXT = st.text(alphabet=st.sampled_from(list("ab :[*]/\\\t\n\r\x07\x08\x0b\x0c\x1b\x00é中😀\u0301")), max_size=30)
SPANS = st.lists(st.tuples(TEXT, STYLES), min_size=1, max_size=4)
NARROW_TEXT = st.text(alphabet=st.sampled_from(list("ab :[*]/\t\n\r\x07\x08\x0b\x0c")), max_size=30)


@pytest.fixture(autouse=True)
def no_terminal_overrides(monkeypatch):
    for name in TERMINAL_OVERRIDES:
        monkeypatch.delenv(name, raising=False)


def written(spans, monkeypatch, no_color=False) -> str:
    output = io.StringIO()
    monkeypatch.setattr("sys.stdout", output)
    Stream(stderr=False, no_color=no_color).line(*spans)
    return output.getvalue()


def printed_by_rich(spans, no_color=False) -> str:
    output = io.StringIO()
    Console(file=output, no_color=no_color, highlight=False, soft_wrap=True).print(Text.assemble(*spans))
    return output.getvalue()


@given(spans=SPANS, no_color=st.booleans())
def test_a_plain_stream_writes_what_rich_prints_of_the_same_text(spans, no_color):
    with pytest.MonkeyPatch.context() as monkeypatch:
        assert written(spans, monkeypatch, no_color) == printed_by_rich(_printable(spans), no_color)


@given(spans=st.lists(st.tuples(NARROW_TEXT, STYLES), min_size=1, max_size=4))
def test_what_rich_would_change_in_a_text_is_changed_before_it(spans):
    """Control characters and tabs, in text of characters one cell wide: after a wide one (or a
    zero-width one, such as ESC) rich places a tab otherwise, counting terminal cells."""
    with pytest.MonkeyPatch.context() as monkeypatch:
        assert written(spans, monkeypatch) == printed_by_rich(spans)


def test_a_plain_stream_loads_no_rich(monkeypatch):
    import sys

    for name in [name for name in sys.modules if name == "rich" or name.startswith("rich.")]:
        monkeypatch.delitem(sys.modules, name)
    assert written([("a.py:1:1: ", "bold"), ("rule", "red")], monkeypatch) == "a.py:1:1: rule\n"
    assert "rich" not in sys.modules


@pytest.mark.parametrize("override", TERMINAL_OVERRIDES)
def test_a_stream_said_to_be_a_terminal_is_printed_in_colour_by_rich(override, monkeypatch):
    monkeypatch.setenv(override, "1")
    output = io.StringIO()
    monkeypatch.setattr("sys.stderr", output)
    stream = Stream(stderr=True, no_color=False)
    assert not stream.is_plain and stream.is_terminal
    stream.line(("error: ", "bold red"), ("it\tbroke\r", ""))
    assert output.getvalue() == "\x1b[1;31merror: \x1b[0mit" + " " * 7 + "broke\n"  # the tab stops at 16


def test_a_terminal_is_no_plain_stream(monkeypatch):
    class Terminal(io.StringIO):
        def isatty(self) -> bool:
            return True

    monkeypatch.setattr("sys.stdout", Terminal())
    assert not Stream(stderr=False, no_color=True).is_plain


def test_a_missing_stream_is_written_nowhere(monkeypatch):
    monkeypatch.setattr("sys.stdout", None)
    Stream(stderr=False, no_color=True).line(("a.py:1:1: rule", ""))
