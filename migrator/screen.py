"""Decides with Python's own parser which candidates LibCST must read.

A file the prefilter lets through holds the text a rule needs, which is often in a string, a
comment or an unrelated name: `completions` in a docstring, `openai` in a URL. LibCST costs
about ten times the stdlib parser, and its analysis several times more, so a candidate is
first parsed with ``ast`` and passed on only if it holds what the engine offers rules:

- a call shaped like a legacy method (``<anything>.chat.completions.<method>(...)``), such a
  method handed on uncalled (``asyncio.to_thread(client.chat.completions.create, ...)``), or
  text a scanner reads as a call (``CALL_SITE``, in a string or a comment: reported as written
  there), for the rules that act at call sites; or
- for a module rule, one of its needs and all its declarations ask: an import reaching one of
  the modules it reads (``Rule.needs_imports``: ``from openai.types.chat import ...`` for
  ``openai.types.chat``), string literals in code (not docstrings) holding, in any case, each
  text it reads them for (``Rule.needs_in_strings``), passed to the calls it reports
  (``Rule.needs_strings_sent_to``), and a keyword passed, a name called or a string value
  it reports (``Rule.needs_keywords``, ``needs_calls_of``, ``needs_string_values``): these
  last, looser forms of what the rule's hook looks for.

These are the engine's own gates (``ModuleAnalysis.call_sites``, ``method_references`` and
``planner.offers``), or looser forms of what the hooks look for, so a file screened out is one
LibCST would find nothing in. Most candidates are ruled out by their
text alone, holding neither a ``completions`` attribute nor an import of a module a rule reads,
and are not parsed at all, as a file that is not a candidate is not; a file that may hold one
and that ``ast`` cannot parse goes to LibCST, which reports why.

This module does not import LibCST: a run whose candidates are all screened out never does.
"""

from __future__ import annotations

import ast
import re
import warnings
from functools import lru_cache
from typing import Iterable, List, Optional, Sequence, Set, Tuple, Union

from migrator.prefilter import CALL_SITE_TEXT, Needs, holds

# Resource accessors that wrap a method without changing what it is called with.
RESPONSE_WRAPPERS = frozenset({"with_raw_response", "with_streaming_response"})
# The legacy resource paths, longest first, and the kind of call each names.
LEGACY_RESOURCES: Tuple[Tuple[Tuple[str, ...], str], ...] = (
    (("beta", "chat", "completions"), "chat.completions"),
    (("chat", "completions"), "chat.completions"),
    (("completions",), "completions"),
)
# A legacy call as a text search finds it (``beta.`` included, the response wrappers too):
# `migrator check` reports at least every line this matches, in code or not.
CALL_SITE = re.compile(
    r"\.chat\.completions\.(?:with_raw_response\.|with_streaming_response\.)?(?:create|parse|stream)\s*\("
    r"|(?<!\.chat)\.completions\.(?:with_raw_response\.|with_streaming_response\.)?create\s*\("
)
# The kinds of legacy call the rules migrate (those ``CALL_SITE`` spells); a method of one of
# these kinds used as a value, uncalled where it is written, is reported as such.
LEGACY_KINDS = frozenset({"chat.completions.create", "chat.completions.parse", "chat.completions.stream", "completions.create"})
LEGACY_METHOD_NAMES = frozenset(kind.rpartition(".")[2] for kind in LEGACY_KINDS)


# The dotted name a legacy call written as text is made on (``client``, ``self.client.beta``), if any.
WRITTEN_RECEIVER = re.compile(r"[\w.]*$")


def written_call(text: str, match: "re.Match[str]") -> Tuple[int, str]:
    """Where in ``text`` the call ``CALL_SITE`` found as ``match`` starts, its receiver
    included, and how a finding spells it: ``client.chat.completions.create``."""
    receiver = WRITTEN_RECEIVER.search(text, 0, match.start())
    assert receiver is not None, "the pattern matches the empty name"
    return receiver.start(), (receiver.group() + match.group().split("(")[0].rstrip()).lstrip(".")


def holds_call_site(text: str) -> bool:
    """Does ``text`` hold what ``CALL_SITE`` matches? Each match spells ``.completions``, which a
    search for the string finds many times faster than the expression."""
    return ".completions" in text and CALL_SITE.search(text) is not None


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
    offered = [rule for rule in needs.module_rules if holds(source, rule)]
    if any(not rule.imports and not rule.in_strings for rule in offered):
        return True
    calls = CALL_SITE_TEXT in source  # (guards act at call sites whatever rules are selected)
    # Latin-1 decodes any bytes, and keeps the ASCII the pattern spells where it was.
    if calls and holds_call_site(source.decode("latin-1")):
        return True
    # Most candidates hold neither a legacy attribute chain nor an import of a module a rule
    # reads, which text alone can rule out: parsing them costs as much as a peer's whole search.
    if not (calls and LEGACY_ATTRIBUTE.search(source)) and not any(_may_import(source, rule.imports) for rule in offered):
        return False
    try:
        with warnings.catch_warnings():  # invalid escapes and the like: not this tool's to report
            warnings.simplefilter("ignore")
            tree = ast.parse(source)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return True  # LibCST says what is wrong with it, or reads what Python's parser cannot
    read_strings = any(rule.in_strings or rule.uses.string_values for rule in offered)
    read_calls = any(rule.calls_from for rule in offered)
    uses = _Used() if any(rule.uses for rule in offered) else None
    imported: List[str] = []
    statements_importing: List[Union[ast.Import, ast.ImportFrom]] = []
    roots: Set[Optional[str]] = set()  # the names calls, and parameters' annotations, start from
    strings: List[str] = []  # string literals in code, in lower case
    statements = set()  # the ids of strings that are statements (docstrings): not code
    # The ids of attributes read into, set or deleted (a test's fake: ``create.return_value``,
    # ``create = MagicMock()``): no method handed on, as ``ModuleAnalysis.method_references`` says.
    not_handed_on: Set[int] = set()
    for node in ast.walk(tree):  # breadth first: a statement comes before its string
        if calls and isinstance(node, ast.Call) and _is_legacy_call(node):
            return True
        if calls and isinstance(node, ast.Attribute):
            if node.attr in LEGACY_METHOD_NAMES and id(node) not in not_handed_on and _legacy_kind(node) in LEGACY_KINDS:
                return True  # a method handed on uncalled
            not_handed_on.add(id(node.value))
        elif calls and isinstance(node, (ast.Assign, ast.AugAssign, ast.AnnAssign, ast.Delete)):
            not_handed_on.update(map(id, node.targets if isinstance(node, (ast.Assign, ast.Delete)) else [node.target]))
        if uses is not None:
            uses.add(node)
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            imported.extend(bound_by(node))
            statements_importing.append(node)
        elif read_calls and isinstance(node, ast.Call):
            roots.add(_chain_root(node.func))
        elif read_calls and isinstance(node, ast.arg) and isinstance(node.annotation, (ast.Name, ast.Attribute)):
            roots.add(_chain_root(node.annotation))
        elif not read_strings:
            continue
        elif isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant):
            statements.add(id(node.value))
        elif isinstance(node, ast.Constant) and id(node) not in statements and isinstance(node.value, (str, bytes)):
            value = node.value.decode("latin-1") if isinstance(node.value, bytes) else node.value
            strings.append(value.lower())
            if uses is not None:
                uses.string_values.add(value)
    return any(
        (not rule.uses or uses is not None and uses.any_of(rule.uses))
        and (not rule.imports or reaches(imported, rule.imports))
        and all(_held(text, strings) for text in rule.in_strings)
        and (not rule.calls_from or _calls_names_from(statements_importing, rule.calls_from, roots))
        and (not rule.sent_to or _strings_sent(tree, rule, _names_from(statements_importing, rule.calls_from)))
        for rule in offered
    )


class _Used:
    """What a module's code uses of what ``Uses`` declarations name: keywords passed (and
    attributes assigned), names called (as spelled last, and as imported under another name),
    string literals in code."""

    def __init__(self) -> None:
        self.keywords: Set[str] = set()
        self.called: Set[str] = set()
        self.imported_as: dict = {}  # the name an import binds -> the name it imports
        self.string_values: Set[str] = set()

    def add(self, node: ast.AST) -> None:
        if isinstance(node, ast.keyword) and node.arg is not None:
            self.keywords.add(node.arg)
        elif isinstance(node, (ast.Assign, ast.AugAssign, ast.AnnAssign)):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            self.keywords.update(target.attr for target in targets if isinstance(target, ast.Attribute))
        elif isinstance(node, ast.Call):
            func = node.func
            self.called.add(func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", ""))
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            self.imported_as.update((alias.asname, alias.name.split(".")[-1]) for alias in node.names if alias.asname)

    def any_of(self, declared) -> bool:
        called = self.called | {self.imported_as[name] for name in self.called if name in self.imported_as}
        return bool(
            self.keywords.intersection(declared.keywords)
            or called.intersection(declared.calls_of)
            or self.string_values.intersection(declared.string_values)
        )


# ``completions`` followed by an attribute: every legacy call's chain holds it, the parts
# between being blanks, line continuations, comments and closing brackets.
LEGACY_ATTRIBUTE = re.compile(rb"completions(?:[\s)\\]|#[^\r\n]*[\r\n])*\.")


def _may_import(source: bytes, modules: Sequence[str]) -> bool:
    """Could an import statement of ``source`` bind a name ``reaches`` counts for one of
    ``modules``? True for a rule that reads no imports. Every such statement spells the
    module's top name right after ``from``, or in the list after ``import``."""
    return not modules or _import_pattern(tuple(sorted({module.split(".")[0] for module in modules}))).search(source) is not None


@lru_cache(maxsize=None)
def _import_pattern(names: Tuple[str, ...]) -> "re.Pattern[bytes]":
    top = b"(?:" + b"|".join(re.escape(name.encode("ascii")) for name in names) + b")\\b"
    blank = rb"[\s\\]"
    return re.compile(rb"\bfrom" + blank + b"+" + top + rb"|\bimport" + blank + rb"+(?:[\w.]+(?:" + blank + rb"+as" + blank + rb"+\w+)?" + blank + rb"*," + blank + b"*)*" + top)


def bound_by(statement: Union[ast.Import, ast.ImportFrom]) -> List[str]:
    """The qualified names an import binds: ``openai`` for ``import openai.types``,
    ``openai.types`` for ``import openai.types as t``, ``requests.Session`` for ``from requests
    import Session``, ``openai`` for ``from openai import *``; none for a relative import, whose
    modules are the project's own. ``Imports.imported`` reads LibCST's nodes the same way."""
    if isinstance(statement, ast.Import):
        return [alias.name if alias.asname else alias.name.split(".")[0] for alias in statement.names]
    if statement.level or statement.module is None:
        return []
    return [statement.module if alias.name == "*" else f"{statement.module}.{alias.name}" for alias in statement.names]


def reaches(imported: Iterable[str], modules: Sequence[str]) -> bool:
    """Do the names imports bind (``imported``, qualified) give a module access to one of
    ``modules`` or to something in it? ``openai`` (``import openai.types``) reaches
    ``openai.types.chat``, and so do ``openai.types.chat`` and ``openai.types.chat.ChatCompletion``
    (``from openai.types.chat import ChatCompletion``); ``openai.types.responses`` does not."""
    return any(
        name == module or name.startswith(module + ".") or module.startswith(name + ".")
        for name in imported
        for module in modules
    )


def _calls_names_from(statements: Sequence[Union[ast.Import, ast.ImportFrom]], packages: Sequence[str], roots: Set[Optional[str]]) -> bool:
    """Do ``roots`` hold a name an import of one of ``packages`` binds, or does one import
    ``*``? What ``ModuleAnalysis.calls_names_from`` answers from LibCST's tree."""
    names = _names_from(statements, packages)
    return names is None or not names.isdisjoint(roots)


def _names_from(statements: Sequence[Union[ast.Import, ast.ImportFrom]], packages: Sequence[str]) -> Optional[Set[str]]:
    """The names imports of ``packages`` bind; None when one imports ``*`` (any name may be)."""
    names = set()
    for statement in statements:
        if isinstance(statement, ast.Import):
            names.update(alias.asname or alias.name.split(".")[0] for alias in statement.names if alias.name.split(".")[0] in packages)
        elif not statement.level and (statement.module or "").split(".")[0] in packages:
            if any(alias.name == "*" for alias in statement.names):
                return None
            names.update(alias.asname or alias.name for alias in statement.names)
    return names


def _strings_sent(tree: ast.AST, rule, imported: Optional[Set[str]]) -> bool:
    """Is each of ``rule.in_strings`` in a string literal that goes, as an argument, directly or
    through the names it is assigned to (any read of them), into a call of one of the
    ``imported`` names or of a method named in ``rule.sent_to``? The rule's hook follows the
    same way, reading assignments more narrowly (the binding a read sees)."""
    parents = {child: node for node in ast.walk(tree) for child in ast.iter_child_nodes(node)}
    reads: dict = {}
    for node in parents:
        if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load):
            reads.setdefault(node.id, []).append(node)

    def is_sending(call: ast.Call) -> bool:
        func = call.func
        return (isinstance(func, ast.Attribute) and func.attr in rule.sent_to) or imported is None or _chain_root(func) in imported

    def sent(node: ast.AST, seen: Set[str]) -> bool:
        child, parent = node, parents.get(node)
        while parent is not None and not isinstance(parent, (ast.stmt, ast.Lambda)):
            if isinstance(parent, ast.Call) and child is not parent.func and is_sending(parent):
                return True
            child, parent = parent, parents.get(parent)
        if isinstance(parent, (ast.Assign, ast.AnnAssign, ast.AugAssign)) and child is parent.value:
            targets = parent.targets if isinstance(parent, ast.Assign) else [parent.target]
            names = {name.id for target in targets for name in ast.walk(target) if isinstance(name, ast.Name)} - seen
            seen.update(names)
            return any(sent(read, seen) for name in names for read in reads.get(name, ()))
        return False

    texts = [text.decode("ascii").lower() for text in rule.in_strings]
    literals = [node for node in parents if isinstance(node, ast.Constant) and isinstance(node.value, (str, bytes))]
    return all(
        any(text in _lowered(literal.value) and sent(literal, set()) for literal in literals) for text in texts
    )


def _lowered(value: Union[str, bytes]) -> str:
    return (value.decode("latin-1") if isinstance(value, bytes) else value).lower()


def _chain_root(node: ast.expr) -> Optional[str]:
    """``shapes.chain_root`` for Python's own tree."""
    while isinstance(node, (ast.Attribute, ast.Call, ast.Subscript, ast.Await)):
        node = node.func if isinstance(node, ast.Call) else node.value
    return node.id if isinstance(node, ast.Name) else None


def _held(text: bytes, strings: Sequence[str]) -> bool:
    """Does one of ``strings`` hold ``text``, in any case?"""
    lowered = text.decode("ascii").lower()
    return any(lowered in string for string in strings)


def _is_legacy_call(call: ast.Call) -> bool:
    return _legacy_kind(call.func) is not None


def _legacy_kind(func: ast.expr) -> Optional[str]:
    """The kind of legacy method ``func`` names, if it names one."""
    attributes = []
    while isinstance(func, ast.Attribute):
        attributes.append(func.attr)
        func = func.value
    shape = legacy_method(attributes[::-1])
    return shape[2] if shape is not None else None
