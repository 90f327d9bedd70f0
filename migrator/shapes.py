"""Small questions and edits about expression shapes that several rules share."""

from __future__ import annotations

import re
from typing import Dict, Iterator, List, Optional, Sequence, Union

import libcst as cst

from migrator.libcst_internals import children

STRING_NODES = (cst.SimpleString, cst.ConcatenatedString, cst.FormattedString)


def literal_string(node: cst.BaseExpression) -> Optional[str]:
    """The value of a plain string literal (no f-string), else None."""
    if isinstance(node, (cst.SimpleString, cst.ConcatenatedString)):
        value = node.evaluated_value
        return value if isinstance(value, str) else None
    return None


def string_text(node: cst.CSTNode) -> str:
    """The text of a string literal (bytes read as Latin-1) or of an f-string's literal part."""
    if isinstance(node, cst.SimpleString):
        value = node.evaluated_value
        return value if isinstance(value, str) else value.decode("latin-1")
    assert isinstance(node, cst.FormattedStringText)
    return node.value


def is_string_expression(node: cst.BaseExpression) -> bool:
    """A literal, concatenated or f-string: certainly a ``str`` at run time."""
    return isinstance(node, STRING_NODES) and not (
        isinstance(node, cst.SimpleString) and "b" in node.prefix.lower()
    )


def keyword_argument(call: cst.Call, keyword: str) -> Optional[cst.BaseExpression]:
    """The value ``call`` passes as ``keyword=...``, else None."""
    return next((arg.value for arg in call.args if arg.keyword is not None and arg.keyword.value == keyword), None)


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


def separator(node: Union[cst.Dict, cst.Call]) -> cst.Comma:
    """The comma that separates the entries of a dict literal or the arguments of a call (with
    its line break, if any)."""
    for element in node.elements if isinstance(node, cst.Dict) else node.args:
        if isinstance(element.comma, cst.Comma):
            return element.comma
    return cst.Comma(whitespace_after=cst.SimpleWhitespace(" "))


def lifted(outer: cst.Dict, wrapper: cst.DictElement, added: Sequence[cst.DictElement] = ()) -> Optional[cst.Dict]:
    """``outer`` with the entries of the dict literal under its entry ``wrapper`` in place of
    ``wrapper``, followed by ``added``. The moved entries keep their own layout, moved left to
    the indentation of ``outer``'s entries (entries of a one-line dict take ``outer``'s, one per
    line); the last one takes the comma of ``wrapper``. None when a comment would be lost."""
    inner = wrapper.value
    assert isinstance(inner, cst.Dict) and inner.elements
    shift = _indentation(inner) - _indentation(outer)
    moved = [_moved_left(element, shift) for element in inner.elements]
    if _indentation(outer) and not _indentation(inner):  # one line into one entry per line
        moved = [element.with_changes(comma=separator(outer)) for element in moved]
    last = len(moved) - 1  # the last entry moved: the comment ending its line goes with it
    comment = _line_end_comment(inner.elements[-1].comma) or _line_end_comment(inner.rbrace.whitespace_before)
    moved[-1] = moved[-1].with_changes(comma=separator(outer))
    moved = [*moved, *(element.with_changes(comma=separator(outer)) for element in added)]
    moved[-1] = moved[-1].with_changes(comma=wrapper.comma)
    rbrace = outer.rbrace
    comma = moved[last].comma
    placed = _ending_line_with(comma, comment) if comment is not None and isinstance(comma, cst.Comma) else comma
    if placed is not comma:
        moved[last] = moved[last].with_changes(comma=placed)
    elif comment is not None and last == len(moved) - 1 and wrapper is outer.elements[-1]:
        # The last entry of ``outer`` now: the line break before its closing brace ends the line.
        rbrace = rbrace.with_changes(whitespace_before=_ending_line_with(rbrace.whitespace_before, comment))
    result = outer.with_changes(elements=[new for old in outer.elements for new in (moved if old is wrapper else [old])], rbrace=rbrace)
    return result if _comments(result) == _comments(outer) else None


def _line_end_comment(node: object) -> Optional[cst.TrailingWhitespace]:
    """The end of the line, with its comment, that ``node`` (a comma, or the white space
    before a closing brace) ends with a line break after: ``  # why``."""
    whitespace = node.whitespace_after if isinstance(node, cst.Comma) else node
    if isinstance(whitespace, cst.ParenthesizedWhitespace) and whitespace.first_line.comment is not None:
        return whitespace.first_line
    return None


def _ending_line_with(node, comment: cst.TrailingWhitespace):
    """``node`` (a comma, or the white space before a closing brace) ending its line with
    ``comment`` instead, when it ends it with a line break and no comment of its own; else as it is."""
    whitespace = node.whitespace_after if isinstance(node, cst.Comma) else node
    if not isinstance(whitespace, cst.ParenthesizedWhitespace) or whitespace.first_line.comment is not None:
        return node
    whitespace = whitespace.with_changes(first_line=comment)
    return node.with_changes(whitespace_after=whitespace) if isinstance(node, cst.Comma) else whitespace


def moved_out(inner: cst.BaseExpression, outer: cst.BaseExpression) -> cst.BaseExpression:
    """The literal ``inner``, written inside the literal ``outer``, laid out to stand in its place."""
    return _moved_left(inner, _indentation(inner) - _indentation(outer))


def _indentation(node: cst.BaseExpression) -> int:
    """The indentation of the entries of a dict or list literal (or comprehension) written one
    entry per line, else 0."""
    opening = node.lbrace if isinstance(node, (cst.Dict, cst.DictComp)) else getattr(node, "lbracket", None)
    whitespace = opening.whitespace_after if opening is not None else None
    return len(whitespace.last_line.value) if isinstance(whitespace, cst.ParenthesizedWhitespace) else 0


def _moved_left(node: cst.CSTNode, width: int) -> cst.CSTNode:
    return node.visit(_MoveLeft(width)) if width > 0 else node


class _MoveLeft(cst.CSTTransformer):
    """Moves the continuation lines of a node ``width`` columns to the left."""

    def __init__(self, width: int) -> None:
        super().__init__()
        self.width = width

    def leave_ParenthesizedWhitespace(self, original_node, updated_node):
        return updated_node.with_changes(last_line=self._less(updated_node.last_line))

    def leave_EmptyLine(self, original_node, updated_node):
        return updated_node.with_changes(whitespace=self._less(updated_node.whitespace))

    def _less(self, whitespace: cst.SimpleWhitespace) -> cst.SimpleWhitespace:
        if whitespace.value.startswith(" " * self.width):
            return whitespace.with_changes(value=whitespace.value[self.width :])
        return whitespace


def _comments(node: cst.CSTNode) -> int:
    return sum(isinstance(inner, cst.Comment) for inner in walk(node))


def parameters(function: Union[cst.FunctionDef, cst.Lambda]) -> List[cst.Param]:
    """Every parameter of ``function``, ``*args`` and ``**kwargs`` included."""
    params = function.params
    every = [*params.posonly_params, *params.params, *params.kwonly_params]
    return every + [p for p in (params.star_arg, params.star_kwarg) if isinstance(p, cst.Param)]


def chain_root(node: cst.BaseExpression) -> Optional[str]:
    """The name an expression starts from, through attributes, calls, subscripts and awaits:
    ``httpx`` for ``httpx.AsyncClient().post``, ``llm`` for ``(await llm.make()).client``.
    ``migrator.screen`` reads Python's own tree the same way."""
    root = chain_root_name(node)
    return root.value if root is not None else None


def chain_root_name(node: cst.BaseExpression) -> Optional[cst.Name]:
    """The ``Name`` node ``chain_root`` reads."""
    while isinstance(node, (cst.Attribute, cst.Call, cst.Subscript, cst.Await)):
        node = node.func if isinstance(node, cst.Call) else node.expression if isinstance(node, cst.Await) else node.value
    return node if isinstance(node, cst.Name) else None


def is_name(node: cst.CSTNode, *names: str) -> bool:
    """Is ``node`` the bare name ``names[0]`` (or another of ``names``)?"""
    return isinstance(node, cst.Name) and node.value in names


def walk(root: cst.CSTNode) -> Iterator[cst.CSTNode]:
    """``root`` and every node below it, in source order (no visitor, no matchers: both cost more)."""
    stack = [root]
    while stack:
        node = stack.pop()
        yield node
        stack.extend(reversed(children(node)))


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


# The fields of a Chat usage (``CompletionUsage``) and their names on a Responses usage
# (``ResponseUsage``), as paths from the usage object.
USAGE_FIELDS = {
    ("prompt_tokens",): "input_tokens",
    ("completion_tokens",): "output_tokens",
    ("total_tokens",): "total_tokens",
    ("prompt_tokens_details", "cached_tokens"): "input_tokens_details.cached_tokens",
    ("completion_tokens_details", "reasoning_tokens"): "output_tokens_details.reasoning_tokens",
}


def needs_parentheses(context: Optional[cst.CSTNode]) -> bool:
    """Must ``not x`` or ``x and y``, put where an operand of ``context`` was, be parenthesised?"""
    return isinstance(context, (cst.UnaryOperation, cst.BinaryOperation, cst.Comparison, cst.Attribute, cst.Subscript))
