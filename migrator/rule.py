"""What a rule is: its metadata, its examples, and the hooks the engine calls.

A rule is one module in ``rules/``; its file name is its id. The module's docstring is its
documentation (ruff's headings: What it does / Why / Example / Use instead / Fix safety), and
it defines ``RULE = Rule(...)`` plus hook functions registered with the decorators below:

- ``@RULE.call("chat.completions.create")``: this rule, and no other, migrates that kind of
  call; the hook returns a ``Retarget``: the method path to call instead (``"responses.create"``)
  and any arguments the new call needs that the old one left to a default.
- ``@RULE.parameter("max_tokens", ...)``: this rule, and no other, owns those keyword arguments;
  the hook ``(keyword, value, site)`` turns one argument into new keyword arguments, or blocks
  the call.
- ``@RULE.result_use``: offered every read of a migrated call's result that no other rule
  rewrites; returns a rewrite, a block, or None (not mine). Where several rules block a read,
  the first by id gives the reason.
- ``@RULE.annotation``: offered every type annotation of a value the call produces or reads
  (see ``AnnotationUse``); returns a rewrite, a block, or None (the annotation stays as it is).
- ``@RULE.module``: offered each module once, for what a rule reports outside the calls it
  migrates (hand-written HTTP, say); returns ``Report``s, which may carry their fix.
- ``@RULE.guard``: offered every call site before it is planned; returns a ``Block`` to keep
  the call as it is whatever the other rules say (its client talks to another server, say),
  or None.

A hook whose decision depends on the run's options reads them as ``analysis.options``
(``site.analysis.options`` for a call site).

Hooks are pure functions of the nodes they are given: the engine calls them once on the
original tree to decide, and again on the updated nodes to build the output, so that rewrites
nested inside an argument (a previous answer read inside ``messages``) are kept.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Callable, Dict, Optional, Sequence, Tuple, Union

from migrator.model import Confidence, FixSafety

if TYPE_CHECKING:
    import libcst as cst

    from migrator.analysis import AnnotationUse, CallSite, ModuleAnalysis
    from migrator.semantic.flow import ResultUse


@dataclass(frozen=True)
class Example:
    """A documented example; the tests run every one.

    ``after=None`` means the rule leaves the code as it is and reports it; ``finding`` is a
    fragment the reported message must contain.
    """

    before: str
    after: Optional[str] = None
    finding: Optional[str] = None
    options: Tuple[str, ...] = ()  # Options fields switched on, e.g. ("unsafe_fixes",)


@dataclass(frozen=True)
class NewArgument:
    """A keyword argument of the migrated call: ``keyword=value``."""

    keyword: str
    value: "cst.BaseExpression"


@dataclass(frozen=True)
class Rewrite:
    """Replace one argument by these (none: drop it). ``note`` becomes a comment above the call.

    ``elsewhere`` rewrites code outside the call that the argument depends on, such as the
    tool list a module-level name holds. Every call whose plan rewrites the same node must
    migrate, or none of them does.
    """

    arguments: Tuple[NewArgument, ...] = ()
    note: Optional[str] = None
    elsewhere: Tuple["UseRewrite", ...] = ()


@dataclass(frozen=True)
class Retarget:
    """Call ``method`` instead; ``added`` arguments keep a default of the old API."""

    method: str
    added: Tuple[NewArgument, ...] = ()


@dataclass(frozen=True)
class Block:
    """The call cannot be migrated faithfully; ``reason`` says why, in the user's terms.

    ``unsafe`` is the rewrite applied anyway when the user opts into unsafe fixes. ``rule`` is
    the rule the finding belongs to when a hook blocks on another rule's behalf (a shared
    helper that follows a history for the ``messages`` hook, say); by default, the hook's own.
    """

    reason: str
    unsafe: Optional[Rewrite] = None
    rule: Optional[str] = None


@dataclass(frozen=True)
class Import:
    """``from module import name`` (``as alias``)."""

    module: str
    name: str
    alias: Optional[str] = None


@dataclass(frozen=True)
class Report:
    """Something a module hook reports at ``node``.

    ``resolved_by`` are nodes whose rewrite makes the report moot: it is dropped when the
    migrated calls rewrite every one of them (the reads of an imported Chat type, say). Where
    finding them costs (scopes), a function giving them: it is called only when the module has
    rewrites, which a plain ``check`` of unmigrated code seldom has.

    ``fix`` are the rewrites that settle it (a test's mock moved with the code it stands in
    for): the module is migrated with them, and the report is shown as fixable. The fixes of
    one hook's reports are one decision: a report the user keeps (``# migrator: ignore``)
    keeps them all as they are.
    """

    node: "cst.CSTNode"
    message: str
    confidence: Confidence = Confidence.HIGH
    resolved_by: Union[Tuple["cst.CSTNode", ...], Callable[[], Sequence["cst.CSTNode"]]] = ()
    fix: Tuple["UseRewrite", ...] = ()

    def resolving_nodes(self) -> Sequence["cst.CSTNode"]:
        return self.resolved_by() if callable(self.resolved_by) else self.resolved_by


@dataclass(frozen=True)
class Follow:
    """A value the rewritten use produces that is read like the result of a ``kind`` call:
    ``stream.get_final_completion()`` gives what ``chat.completions.create`` would have."""

    node: "cst.BaseExpression"
    kind: str


@dataclass(frozen=True)
class UseRewrite:
    """Replace ``target`` (an original node) by ``build(updated target)``.

    ``add_imports`` are imports the new code needs (added unless already there);
    ``remove_unused_imports`` are imports the old code needed (removed if nothing uses them any more);
    ``add_definitions`` are module-level helpers (source code) the new code calls, added once
    after the imports.
    ``more`` are rewrites elsewhere that the same decision needs (the reads, after a loop, of a
    value the loop stored); ``follow`` is a value whose own uses are offered to the rules in turn.
    ``shared_with`` are other calls the target belongs to (a previous answer written into the
    ``messages`` of the next call): they migrate with this one, or none of them does.
    """

    target: "cst.CSTNode"
    build: Callable[["cst.CSTNode"], "cst.CSTNode"]
    add_imports: Tuple[Import, ...] = ()
    remove_unused_imports: Tuple[Import, ...] = ()
    add_definitions: Tuple[str, ...] = ()
    more: Tuple["UseRewrite", ...] = ()
    follow: Optional[Follow] = None
    shared_with: Tuple["cst.Call", ...] = ()


ParameterHook = Callable[[str, "cst.BaseExpression", "CallSite"], Union[Rewrite, Block]]
UseHook = Callable[["ResultUse", "CallSite"], Union[UseRewrite, Block, None]]
AnnotationHook = Callable[["AnnotationUse", "CallSite"], Union[UseRewrite, Block, None]]
CallHook = Callable[["CallSite"], Union[Retarget, Block]]
ModuleHook = Callable[["ModuleAnalysis"], Sequence["Report"]]
GuardHook = Callable[["CallSite"], Optional[Block]]


@dataclass
class Rule:
    title: str
    safety: FixSafety
    needs: Tuple[str, ...]  # text a file must contain for this rule to find anything
    # The engine offers its module hook only modules that hold one of its needs and all the
    # following ask: an import reaching one of these modules (``import openai``, or ``from
    # openai.types.chat import ChatCompletion``, reaches ``openai.types.chat``; see
    # ``migrator.screen.reaches``), for a hook whose findings are qualified through them;
    needs_imports: Tuple[str, ...] = ()
    # and each of these texts in the source and, in any case, in a string literal in code (not
    # a docstring), for a hook that reports only strings or what they are passed to.
    needs_in_strings: Tuple[str, ...] = ()
    # and a call of (or a parameter annotated with) a name an import of one of these modules
    # binds (``requests.post``, ``httpx.AsyncClient()``), for a hook that reports what such
    # calls are given.
    needs_calls_from: Tuple[str, ...] = ()
    # and, when given, each of ``needs_in_strings`` in a string literal passed (directly, or
    # through the names it is assigned to) to such a call or to a method of one of these names
    # (``session.post(URL)``), for a hook that reports only the strings sent to them.
    needs_strings_sent_to: Tuple[str, ...] = ()
    # A hook that reports how code passes, assigns or calls some names declares them: it is
    # offered only modules that pass one of ``needs_keywords`` as a keyword argument (or assign
    # an attribute of that name: ``openai.base_url = ...``), call a name in ``needs_calls_of``
    # (as it is spelled last, or imported under another name), or hold a string literal in
    # code equal to one of ``needs_string_values``.
    needs_keywords: Tuple[str, ...] = ()
    needs_calls_of: Tuple[str, ...] = ()
    needs_string_values: Tuple[str, ...] = ()
    examples: Sequence[Example] = ()
    # Filled in by the registry from the module: its name and docstring.
    id: str = ""
    doc: str = ""
    calls: Dict[str, CallHook] = field(default_factory=dict)
    parameters: Dict[str, ParameterHook] = field(default_factory=dict)
    result_use_hooks: list = field(default_factory=list)
    annotation_hooks: list = field(default_factory=list)
    module_hooks: list = field(default_factory=list)
    guard_hooks: list = field(default_factory=list)

    def call(self, *kinds: str) -> Callable[[CallHook], CallHook]:
        def register(hook: CallHook) -> CallHook:
            for kind in kinds:
                _register(self.calls, kind, hook, f"`{kind}` calls")
            return hook

        return register

    def parameter(self, *names: str) -> Callable[[ParameterHook], ParameterHook]:
        def register(hook: ParameterHook) -> ParameterHook:
            for name in names:
                _register(self.parameters, name, hook, f"the parameter `{name}`")
            return hook

        return register

    def result_use(self, hook: UseHook) -> UseHook:
        self.result_use_hooks.append(hook)
        return hook

    def annotation(self, hook: AnnotationHook) -> AnnotationHook:
        self.annotation_hooks.append(hook)
        return hook

    def module(self, hook: ModuleHook) -> ModuleHook:
        self.module_hooks.append(hook)
        return hook

    def guard(self, hook: GuardHook) -> GuardHook:
        self.guard_hooks.append(hook)
        return hook

    @property
    def summary(self) -> str:
        """The first paragraph under "What it does"."""
        lines = self.doc.strip().splitlines()
        for index, line in enumerate(lines):
            if line.strip().lower().startswith("## what it does"):
                paragraph = []
                for text in lines[index + 1 :]:
                    if not text.strip():
                        if paragraph:
                            break
                        continue
                    paragraph.append(text.strip())
                return " ".join(paragraph)
        return self.title


class RuleConflict(Exception):
    """Two hooks claim one parameter or one kind of call: the rules do not load."""


def _register(hooks: Dict[str, Callable], key: str, hook: Callable, what: str) -> None:
    """Give ``key`` its hook, which a second one for it would silently replace."""
    if key in hooks:
        raise RuleConflict(f"`{hook.__module__}` has two hooks for {what}")
    hooks[key] = hook
