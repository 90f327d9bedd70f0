"""Decides from raw bytes, before any parsing, which files could hold a finding.

Each rule declares in ``needs`` the text a file must contain for it to find anything. Most
rules act only at legacy call sites, and every legacy call goes through a ``completions``
attribute, so a file is a candidate for them only if it holds ``completions`` as well: a need
such as ``function`` or ``stream``, true of half of any tree, does not make the file worth
parsing unless a call is possible. Rules with an ``@RULE.module`` hook read whole modules, so
their needs alone make a candidate; for a rule that reports only in modules importing some
package (``needs_imports``), their needs and that package's name. What the rest of those
declarations ask (which modules are imported, what string literals hold) is told apart later,
by ``migrator.screen``.

The declarations are read from the rule files' text rather than by importing the rules, so a
run over files that mention none of them never imports LibCST; and they are read with regular
expressions, since compiling every rule file (or even its ``needs``) costs more than Python's
own start-up.
"""

from __future__ import annotations

import re
from collections import namedtuple
from functools import lru_cache

from migrator.registry import rules_folder

TYPE_CHECKING = False  # see migrator/quick.py: a check without candidates does not import typing
if TYPE_CHECKING:
    from pathlib import Path
    from typing import Dict, FrozenSet, Optional, Tuple


# Every legacy call's method path ends in a `completions` attribute (screen.LEGACY_RESOURCES).
CALL_SITE_TEXT = b"completions"
# Searched as plain text at the start of a line (str.find is many times faster than a regex).
RULE_DEFINITION = "\nRULE = Rule("
MODULE_HOOK = "\n@RULE.module\n"


class Declaration(
    namedtuple(
        "Declaration",
        [
            "needs",  # the texts, a tuple of str
            "reads_modules",  # it has an `@RULE.module` hook, offered modules without any call site
            "needs_imports",  # that hook is offered only modules importing one of these modules
            "needs_in_strings",  # that hook is offered only modules with each of these in a string literal
            "needs_calls_from",  # that hook is offered only modules calling a name these modules' imports bind
            "needs_strings_sent_to",  # and only modules sending those strings to such calls or to these methods
            "needs_keywords",  # and only modules passing one of these keywords (or assigning such an attribute),
            "needs_calls_of",  # or calling one of these names,
            "needs_string_values",  # or holding one of these strings, if any of the three is declared
        ],
    )
):
    """What the prefilter knows of a rule, read from its file."""

    __slots__ = ()


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
            end = text.find("\n)", definition)
            arguments = dict(_ARGUMENT_LINE.findall(text, definition, end if end >= 0 else len(text)))
            if "needs" not in arguments:
                raise ValueError(f"{path}: `RULE = Rule(...)` has no `needs=` argument on a line of its own")
            found[path.stem] = Declaration(
                _strings(arguments["needs"], text, path),
                MODULE_HOOK in text,
                _strings(arguments.get("needs_imports", "()"), text, path),
                _strings(arguments.get("needs_in_strings", "()"), text, path),
                _strings(arguments.get("needs_calls_from", "()"), text, path),
                _strings(arguments.get("needs_strings_sent_to", "()"), text, path),
                _strings(arguments.get("needs_keywords", "()"), text, path),
                _strings(arguments.get("needs_calls_of", "()"), text, path),
                _strings(arguments.get("needs_string_values", "()"), text, path),
            )
    return found


def declared_needs() -> Dict[str, Tuple[str, ...]]:
    return {rule_id: declaration.needs for rule_id, declaration in declarations().items()}


# A keyword argument of `RULE = Rule(...)`, written on one line of its own, indented four spaces
# (nested lines are indented more): what rules declare for the prefilter is read this way, with
# one regular expression rather than a parser, since compiling the rule files costs more than a
# whole run over files without candidates.
_ARGUMENT_LINE = re.compile(r"^    (\w+)=(.*),$", re.MULTILINE)


# What `needs` may hold: plain string literals, or names of module-level constants holding one.
_NEED = re.compile(r"""\s*(?:'([^'\\\n]*)'|"([^"\\\n]*)"|([A-Za-z_]\w*))\s*(?:,|$)""")


def _strings(expression: str, module_text: str, path: Path) -> Tuple[str, ...]:
    """The strings of a tuple written out, each a literal or the name of a module-level constant.

    Read with regular expressions: compiling each rule's expressions costs more than the rest of a
    run over files without candidates.
    """
    inside = expression.strip()
    if inside.startswith("(") and inside.endswith(")"):
        inside = inside[1:-1]
    strings, position = [], 0
    while position < len(inside.rstrip()):
        need = _NEED.match(inside, position)
        if need is None:
            raise ValueError(f"{path}: `needs` must be plain string literals or names of constants: {expression!r}")
        single, double, name = need.groups()
        strings.append(_constant(name, module_text, path) if name else single if single is not None else double)
        position = need.end()
    return tuple(strings)


def _constant(name: str, module_text: str, path: Path) -> str:
    assignment = re.search(rf"^{name} = (.*)$", module_text, re.MULTILINE)
    value = _NEED.fullmatch(assignment.group(1)) if assignment else None
    if value is None or value.group(3):
        raise ValueError(f"{path}: `needs` names {name}, which is not assigned a plain string at the start of a line")
    return value.group(1) if value.group(1) is not None else value.group(2)


class ModuleNeeds(
    namedtuple(
        "ModuleNeeds",
        [
            "texts",  # one of the rule's needs (bytes)
            "imports",  # an import reaching one of these modules (`migrator.screen.reaches`), if any
            "in_strings",  # each of these (bytes) in the source and, in any case, in a string literal in code
            "calls_from",  # a call of a name an import of one of these modules binds, if any
            "sent_to",  # methods which, with those calls, the `in_strings` must be passed to, if any
            "uses",  # `Uses`: keywords, called names and string values one of which the code must use, if any
        ],
    )
):
    """What a module must hold for an enabled rule's module hook to be offered it."""

    __slots__ = ()

    @classmethod
    def declared(
        cls,
        needs: Tuple[str, ...],
        imports: Tuple[str, ...],
        in_strings: Tuple[str, ...],
        calls_from: Tuple[str, ...] = (),
        sent_to: Tuple[str, ...] = (),
        uses: Optional["Uses"] = None,
    ) -> "ModuleNeeds":
        """From a rule's ``needs``, ``needs_imports``, ``needs_in_strings``, ``needs_calls_from``,
        ``needs_strings_sent_to`` and ``Uses``."""
        return cls(_ascii(needs), imports, _ascii(in_strings), calls_from, sent_to, uses or Uses((), (), ()))


class Uses(namedtuple("Uses", ["keywords", "calls_of", "string_values"])):
    """A rule's ``needs_keywords``, ``needs_calls_of`` and ``needs_string_values``."""

    __slots__ = ()

    def __bool__(self) -> bool:
        return any(self)


class Needs(
    namedtuple(
        "Needs",
        [
            "at_call_sites",  # needs (bytes) of the enabled rules that act only at call sites
            "module_rules",  # the `ModuleNeeds` of the enabled rules that read whole modules
        ],
    )
):
    """What a candidate holds: `CALL_SITE_TEXT` and one of `at_call_sites`, or what one of
    `module_rules` needs."""

    __slots__ = ()


def needed_texts(selected: Optional[FrozenSet[str]] = None, ignored: FrozenSet[str] = frozenset()) -> Needs:
    """The texts the enabled rules need, as bytes (Python source encodings spell ASCII as ASCII)."""
    enabled = [
        declaration
        for rule_id, declaration in declarations().items()
        if rule_id not in ignored and (selected is None or rule_id in selected)
    ]
    at_call_sites = {text.encode("ascii") for d in enabled if not d.reads_modules for text in d.needs}
    module_rules = {
        ModuleNeeds.declared(
            d.needs, d.needs_imports, d.needs_in_strings, d.needs_calls_from, d.needs_strings_sent_to,
            Uses(d.needs_keywords, d.needs_calls_of, d.needs_string_values),
        )
        for d in enabled
        if d.reads_modules
    }
    return Needs(tuple(sorted(at_call_sites)), tuple(sorted(module_rules)))


def _ascii(texts: Tuple[str, ...]) -> Tuple[bytes, ...]:
    return tuple(text.encode("ascii") for text in texts)


def holds(source: bytes, rule: ModuleNeeds) -> bool:
    """Does ``source`` hold the texts a module rule needs: one of its needs, and each of the
    texts its strings must hold?"""
    return any(text in source for text in rule.texts) and all(text in source for text in rule.in_strings)


def is_candidate(source: bytes, needs: Needs) -> bool:
    for rule in needs.module_rules:
        # Every import of a package spells its name (relative imports are the project's own).
        if holds(source, rule) and (
            not rule.imports or any(module.split(".")[0].encode("ascii") in source for module in rule.imports)
        ):
            return True
    return CALL_SITE_TEXT in source and any(text in source for text in needs.at_call_sites)
