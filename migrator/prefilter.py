"""Decides from raw bytes, before any parsing, which files could hold a finding.

Each rule declares in ``needs`` the text a file must contain for it to find anything. Most
rules act only at legacy call sites, and every legacy call goes through a ``completions``
attribute, so a file is a candidate for them only if it holds ``completions`` as well: a need
such as ``function`` or ``stream``, true of half of any tree, does not make the file worth
parsing unless a call is possible. Rules with an ``@RULE.module`` hook read whole modules, so
their needs alone make a candidate; or, for a rule that reports only in modules importing
openai (``needs_openai_import``), their needs and the text ``openai``.

The declarations are read from the rule files' text rather than by importing the rules, so a
run over files that mention none of them never imports LibCST; and only ``needs`` itself is
parsed, since parsing every rule file costs more than Python's own start-up.
"""

from __future__ import annotations

import ast
import re
from functools import lru_cache
from pathlib import Path
from typing import Dict, FrozenSet, NamedTuple, Optional, Tuple

from migrator.registry import rules_folder


# Every legacy call's method path ends in a `completions` attribute (screen.LEGACY_RESOURCES).
CALL_SITE_TEXT = b"completions"
# What every import of openai spells.
OPENAI_IMPORT_TEXT = b"openai"
# Searched as plain text at the start of a line (str.find is many times faster than a regex).
RULE_DEFINITION = "\nRULE = Rule("
MODULE_HOOK = "\n@RULE.module\n"


class Declaration(NamedTuple):
    """What the prefilter knows of a rule, read from its file."""

    needs: Tuple[str, ...]
    reads_modules: bool  # it has an `@RULE.module` hook, offered modules without any call site
    needs_openai_import: bool  # that hook is offered only modules importing openai


@lru_cache(maxsize=None)
def declarations() -> Dict[str, Declaration]:
    """By rule id: ``needs`` as written in ``RULE = Rule(..., needs=(...))``, and whether it reads modules."""
    found = {}
    for path in sorted(rules_folder().glob("*.py")):
        if path.name.startswith("_"):
            continue
        text = path.read_text(encoding="utf-8")
        definition = text.find(RULE_DEFINITION)
        if definition >= 0:
            arguments = _keyword_arguments(text[definition + len(RULE_DEFINITION) :])
            if "needs" not in arguments:
                raise ValueError(f"{path}: `RULE = Rule(...)` has no `needs=` argument")
            found[path.stem] = Declaration(
                _strings(arguments["needs"], text, path),
                MODULE_HOOK in text,
                ast.literal_eval(arguments.get("needs_openai_import", "False")),
            )
    return found


def declared_needs() -> Dict[str, Tuple[str, ...]]:
    return {rule_id: declaration.needs for rule_id, declaration in declarations().items()}


# The tokens that matter to find a call's arguments: strings (whose brackets and commas do not
# count), comments, brackets and commas. A regular expression rather than Python's tokenize
# module, which would cost more to load than a whole run over files without candidates.
_ARGUMENT_TOKENS = re.compile(
    r"""'''(?:\\.|[^\\])*?'''|\"\"\"(?:\\.|[^\\])*?\"\"\"|'(?:\\.|[^'\\\n])*'|"(?:\\.|[^"\\\n])*"|#[^\n]*|[()\[\]{},]""",
    re.DOTALL,
)
_KEYWORD = re.compile(r"\s*(\w+)\s*=(?!=)")


def _keyword_arguments(arguments: str) -> Dict[str, str]:
    """The source of each keyword argument in `arguments`, a call's text after its parenthesis."""
    found = {}
    depth, start = 0, 0
    for token in _ARGUMENT_TOKENS.finditer(arguments):
        text = token.group()
        if text in "([{":
            depth += 1
        elif text in ")]}" and depth > 0:
            depth -= 1
        elif depth == 0 and text in ",)":
            keyword = _KEYWORD.match(arguments, start, token.start())
            if keyword:
                found[keyword.group(1)] = arguments[keyword.end() : token.start()]
            if text == ")":
                break
            start = token.end()
    return found


def _strings(expression: str, module_text: str, path: Path) -> Tuple[str, ...]:
    """The strings of a tuple written out, each a literal or the name of a module-level constant."""
    node = ast.parse(expression.strip(), mode="eval").body
    return tuple(_string(element, module_text, path) for element in getattr(node, "elts", [node]))


def _string(node: ast.expr, module_text: str, path: Path) -> str:
    if not isinstance(node, ast.Name):
        return ast.literal_eval(node)
    assignment = f"\n{node.id} = "
    start = module_text.find(assignment)
    if start < 0:
        raise ValueError(f"{path}: `needs` names {node.id}, which is not assigned at the start of a line")
    value_start = start + len(assignment)
    return ast.literal_eval(module_text[value_start : module_text.find("\n", value_start)])


class Needs(NamedTuple):
    """What a candidate holds: `CALL_SITE_TEXT` and one of `at_call_sites`, or one of `anywhere`,
    or `OPENAI_IMPORT_TEXT` and one of `with_openai_import`."""

    at_call_sites: Tuple[bytes, ...]  # needs of the enabled rules that act only at call sites
    anywhere: Tuple[bytes, ...]  # needs of the enabled rules that read whole modules
    with_openai_import: Tuple[bytes, ...]  # needs of those that read only modules importing openai


def needed_texts(selected: Optional[FrozenSet[str]] = None, ignored: FrozenSet[str] = frozenset()) -> Needs:
    """The texts the enabled rules need, as bytes (Python source encodings spell ASCII as ASCII)."""
    enabled = [
        declaration
        for rule_id, declaration in declarations().items()
        if rule_id not in ignored and (selected is None or rule_id in selected)
    ]

    def texts(reads_modules: bool, needs_openai_import: bool = False) -> Tuple[bytes, ...]:
        found = {
            text.encode("ascii")
            for d in enabled
            if (d.reads_modules, d.needs_openai_import) == (reads_modules, needs_openai_import)
            for text in d.needs
        }
        return tuple(sorted(found))

    return Needs(at_call_sites=texts(False), anywhere=texts(True), with_openai_import=texts(True, True))


def is_candidate(source: bytes, needs: Needs) -> bool:
    if any(text in source for text in needs.anywhere):
        return True
    if OPENAI_IMPORT_TEXT in source and any(text in source for text in needs.with_openai_import):
        return True
    return CALL_SITE_TEXT in source and any(text in source for text in needs.at_call_sites)
