"""Small questions and edits about expression shapes that several rules share."""

from __future__ import annotations

import re
from typing import Dict, Optional

import libcst as cst

STRING_NODES = (cst.SimpleString, cst.ConcatenatedString, cst.FormattedString)


def literal_string(node: cst.BaseExpression) -> Optional[str]:
    """The value of a plain string literal (no f-string), else None."""
    if isinstance(node, (cst.SimpleString, cst.ConcatenatedString)):
        value = node.evaluated_value
        return value if isinstance(value, str) else None
    return None


def is_string_expression(node: cst.BaseExpression) -> bool:
    """A literal, concatenated or f-string: certainly a ``str`` at run time."""
    return isinstance(node, STRING_NODES) and not (
        isinstance(node, cst.SimpleString) and "b" in node.prefix.lower()
    )


def literal_int(node: cst.BaseExpression) -> Optional[int]:
    if isinstance(node, cst.Integer):
        return int(node.value, 0)
    return None


def dict_entries(node: cst.BaseExpression) -> Optional[Dict[str, cst.DictElement]]:
    """The entries of a dict literal whose keys are all string literals, by key; else None."""
    if not isinstance(node, cst.Dict):
        return None
    entries: Dict[str, cst.DictElement] = {}
    for element in node.elements:
        if not isinstance(element, cst.DictElement):
            return None  # a ** splat: keys unknown
        key = literal_string(element.key)
        if key is None or key in entries:
            return None
        entries[key] = element
    return entries


def string_like(original: cst.BaseExpression, value: str) -> cst.SimpleString:
    """A string literal holding ``value``, in the quote style of ``original`` where it has one."""
    quote = '"'
    if isinstance(original, cst.SimpleString) and original.quote in ("'", '"'):
        quote = original.quote
    return cst.SimpleString(f"{quote}{value}{quote}")


def is_constant(node: cst.BaseExpression, code: str) -> bool:
    """Does ``node`` spell the constant ``code`` (``None``, ``1``, ``0``, ``False``)?"""
    if isinstance(node, cst.Name):
        return node.value == code
    if isinstance(node, (cst.Integer, cst.Float)):
        try:
            return float(node.value) == float(code)
        except ValueError:  # ``code`` is a name such as None
            return False
    return False


def code_of(node: cst.CSTNode) -> str:
    return cst.Module([]).code_for_node(node)


def one_line(code: str, limit: int = 60) -> str:
    """Code squeezed onto one line for a comment or a message."""
    text = re.sub(r"\s+", " ", code).strip()
    return text if len(text) <= limit else text[: limit - 3] + "..."
