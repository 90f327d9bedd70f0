"""Decides with Python's own parser which candidates LibCST must read.

A file the prefilter lets through holds the text a rule needs, which is often in a string, a
comment or an unrelated name: `completions` in a docstring, `openai` in a URL. LibCST costs
about ten times the stdlib parser, and its analysis several times more, so a candidate is
first parsed with ``ast`` and passed on only if it holds what the engine offers rules:

- a call shaped like a legacy method (``<anything>.chat.completions.<method>(...)``), for the
  rules that act at call sites; or
- an ``import openai`` / ``from openai... import``, for the module rules that read only modules
  importing openai (``Rule.needs_openai_import``); or
- a string literal in code (not a docstring) holding the text of a module rule that reads only
  those (``Rule.needs_in_strings``), in any case; or
- the text of any other module rule.

These are the engine's own gates (``ModuleAnalysis.call_sites``, ``imports_openai`` and the
planner), so a file screened out is one LibCST would find nothing in. A file ``ast`` cannot
parse goes to LibCST, which reports why.

This module does not import LibCST: a run whose candidates are all screened out never does.
"""

from __future__ import annotations

import ast
import warnings
from typing import Optional, Sequence, Tuple

from migrator.prefilter import CALL_SITE_TEXT, Needs

# Resource accessors that wrap a method without changing what it is called with.
RESPONSE_WRAPPERS = frozenset({"with_raw_response", "with_streaming_response"})
# The legacy resource paths, longest first, and the kind of call each names.
LEGACY_RESOURCES: Tuple[Tuple[Tuple[str, ...], str], ...] = (
    (("beta", "chat", "completions"), "chat.completions"),
    (("chat", "completions"), "chat.completions"),
    (("completions",), "completions"),
)
OPENAI = "openai"


def legacy_method(attributes: Sequence[str]) -> Optional[Tuple[Tuple[str, ...], Optional[str], str, int]]:
    """``(resource, wrapper, kind, depth)`` when a call of ``receiver.<attributes>`` is shaped
    like a legacy method call, ``depth`` being how many of ``attributes`` follow the receiver:
    ``("chat", "completions", "create")`` gives ``(("chat", "completions"), None,
    "chat.completions.create", 3)``."""
    if len(attributes) < 2:
        return None
    method = attributes[-1]
    rest = list(attributes[:-1])
    wrapper = rest.pop() if rest[-1] in RESPONSE_WRAPPERS else None
    for resource, kind in LEGACY_RESOURCES:
        if len(rest) >= len(resource) and tuple(rest[-len(resource) :]) == resource:
            return resource, wrapper, f"{kind}.{method}", len(attributes) - (len(rest) - len(resource))
    return None


def needs_libcst(source: bytes, needs: Needs) -> bool:
    """Could the enabled rules (whose texts are ``needs``) find anything in this candidate?"""
    if any(text in source for text in needs.anywhere):
        return True
    in_strings = [text.decode("ascii").lower() for text in needs.in_strings if text in source]
    try:
        with warnings.catch_warnings():  # invalid escapes and the like: not this tool's to report
            warnings.simplefilter("ignore")
            tree = ast.parse(source)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return True  # LibCST says what is wrong with it, or reads what Python's parser cannot
    calls = CALL_SITE_TEXT in source  # (guards act at call sites whatever rules are selected)
    imports = any(text in source for text in needs.with_openai_import)
    statements = set()  # the ids of strings that are statements (docstrings): not code
    for node in ast.walk(tree):  # breadth first: a statement comes before its string
        if calls and isinstance(node, ast.Call) and _is_legacy_call(node):
            return True
        if imports and _imports_openai(node):
            return True
        if in_strings:
            if isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant):
                statements.add(id(node.value))
            elif isinstance(node, ast.Constant) and id(node) not in statements and _holds(node.value, in_strings):
                return True
    return False


def _holds(value: object, texts: Sequence[str]) -> bool:
    """Is ``value`` a string (bytes read as Latin-1) holding one of ``texts``, in any case?"""
    if isinstance(value, bytes):
        value = value.decode("latin-1")
    return isinstance(value, str) and any(text in value.lower() for text in texts)


def _is_legacy_call(call: ast.Call) -> bool:
    attributes = []
    func = call.func
    while isinstance(func, ast.Attribute):
        attributes.append(func.attr)
        func = func.value
    return legacy_method(attributes[::-1]) is not None


def _imports_openai(node: ast.AST) -> bool:
    if isinstance(node, ast.Import):
        return any(alias.name.split(".")[0] == OPENAI for alias in node.names)
    if isinstance(node, ast.ImportFrom):
        return node.level == 0 and node.module is not None and node.module.split(".")[0] == OPENAI
    return False
