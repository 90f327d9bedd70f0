"""Loops over a streamed Chat Completion, rewritten as loops over typed Responses events.

A Chat stream yields chunks read through ``chunk.choices[0].delta``; a Responses stream yields
events told apart by ``event.type``. A loop body migrates statement by statement: a statement
that reads the chunk is put under the event that carries what it reads (its ``if`` test is
replaced by the event test, or it is wrapped in one) and its reads are renamed. Statements that
only hold a part of the chunk in a name (``delta = chunk.choices[0].delta``) are removed and the
reads through that name renamed. Anything else blocks the call, with the reason.

Three facts make this exact:

- a Chat chunk that carries no text (the first, with the role; the one with the finish reason;
  the usage chunk) has an empty or ``None`` content, so a statement that does nothing for an
  empty text can run for the text deltas only;
- the finish reason and the usage come once, at the end of a Chat stream; a Responses stream
  ends with one ``response.completed`` or ``response.incomplete`` event that carries both;
- how the text is cut into deltas is the service's choice in both APIs: the same text arrives.

Tool-call deltas are left to a handler the rule ``stream_tool_calls`` passes in.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import Callable, Dict, List, Optional, Sequence, Tuple, Union

import libcst as cst

from migrator.analysis import CallSite, ModuleAnalysis
from migrator.rules._gradio import yields_shown_in_place
from migrator.rules._stream_failures import events_of, helper_needs
from migrator.semantic.branches import truth_where
from migrator.semantic.flow import CALL, ResultUse
from migrator.rule import Block, Rewrite, UseRewrite
from migrator.shapes import USAGE_FIELDS, code_of, dict_entries, is_constant, is_name, literal_string, one_line, walk
from migrator.rules._streaming import (
    MAYBE_NONE,
    STRING,
    STRONG,
    WEAK,
    IDEMPOTENT_REWRITES,
    EmptyText,
    Gate,
    Path,
    Segment,
    assemble,
    chain_of,
    if_chain,
    is_inside,
    is_not_none_test,
    keep,
    none_printed,
    named_reads,
    only_continues,
    remove,
    retest,
    rewritten_from,
    spelled_names,
    wrap,
)

# The chunks of a Chat stream that a Responses stream has no text event for.
NO_TEXT_CHUNKS = "for the chunks that carry no text (the first and the last), which a Responses stream does not send"
# The events that carry what a loop reads.
TEXT_GATE: Gate = ('{event}.type == "response.output_text.delta"',)
# Flushing the terminal shows nothing new: it may run per event instead of per chunk.
TERMINAL_FLUSHES = frozenset({"sys.stdout.flush", "sys.stderr.flush"})
# What Streamlit makes to be drawn over and over (`placeholder = st.empty()`), and the methods that
# replace what it shows: drawing it again with the same value shows the same.
PLACEHOLDER_MAKERS = frozenset({"streamlit.empty", "streamlit.sidebar.empty"})
PLACEHOLDER_DRAWS = frozenset({"markdown", "write", "text", "code", "caption", "info", "success", "warning", "error"})
# A notebook's output that is drawn over and over: `handle = display(Markdown(""), display_id=True)`,
# then `update_display(Markdown(text), display_id=handle.display_id)` or `handle.update(...)`,
# each replacing what it shows with one of IPython's rich text objects.
DISPLAY_MAKER = "IPython.display.display"
DISPLAY_UPDATE = "IPython.display.update_display"
DISPLAY_OBJECTS = frozenset({"IPython.display.Markdown", "IPython.display.HTML", "IPython.display.Latex", "IPython.display.Pretty"})
FINISHED_GATE: Gate = ('{event}.type in ("response.completed", "response.incomplete")',)


def _incomplete(reason: str) -> Gate:
    return (
        '{event}.type == "response.incomplete"',
        "{event}.response.incomplete_details is not None",
        '{event}.response.incomplete_details.reason == "%s"' % reason,
    )


# finish_reason == key -> the event that ends such a stream.
FINISH_GATES: Dict[str, Gate] = {
    "stop": ('{event}.type == "response.completed"',),
    "length": _incomplete("max_output_tokens"),
    "content_filter": _incomplete("content_filter"),
}

# What a loop reads from a chunk, as paths from the chunk.
TEXT_PATHS = {"chat.completions.create": ("choices", 0, "delta", "content"), "completions.create": ("choices", 0, "text")}
TOOL_CALLS = ("choices", 0, "delta", "tool_calls")
FINISH_REASON = ("choices", 0, "finish_reason")
USAGE = ("usage",)
CHOICES = ("choices",)
# Parts of a chunk a loop may hold in a name, only to read further into them.
STRUCTURE = (("choices", 0), ("choices", 0, "delta"))
# The fields of the SDK's models for those parts (``Choice`` and ``ChoiceDelta`` of
# ``openai.types.chat.chat_completion_chunk``): every object of them has each, so
# ``hasattr(delta, "content")`` is always true. Others are extra fields a server may send.
STRUCTURE_FIELDS = {
    ("choices", 0): frozenset({"delta", "finish_reason", "index", "logprobs"}),
    ("choices", 0, "delta"): frozenset({"audio", "content", "function_call", "refusal", "role", "tool_calls"}),
}
# What the rewritten loop reads from an event.
EVENT_FIELDS = frozenset({"type", "delta", "response", "item", "output_index"})
# Names a loop variable may keep: they already say "event".
EVENT_NAMES = frozenset({"event", "evt", "ev", "e"})


# ``len(chunk.choices) <op> n`` -> True when it holds for a chunk with choices, False for one without.
COUNT_TESTS = {
    (cst.NotEqual, "0"): True,
    (cst.GreaterThan, "0"): True,
    (cst.GreaterThanEqual, "1"): True,
    (cst.Equal, "0"): False,
    (cst.LessThan, "1"): False,
    (cst.LessThanEqual, "0"): False,
}


def choices_test(node: cst.BaseExpression, variable: str, is_len: Callable[[cst.Call], bool]) -> Optional[bool]:
    """True for a test that holds when the chunk ``variable`` has choices (``chunk.choices``,
    ``len(chunk.choices) > 0``), False for one that holds when it has none (``not chunk.choices``,
    ``len(chunk.choices) == 0``), None for anything else. ``is_len``: does a call call the builtin."""
    if isinstance(node, cst.UnaryOperation) and isinstance(node.operator, cst.Not):
        inner = choices_test(node.expression, variable, is_len)
        return None if inner is None else not inner
    if isinstance(node, cst.Comparison) and len(node.comparisons) == 1:
        comparison = node.comparisons[0]
        if not _is_choices_count(node.left, variable, is_len):
            return None
        for (operator, number), has_choices in COUNT_TESTS.items():
            if isinstance(comparison.operator, operator) and is_constant(comparison.comparator, number):
                return has_choices
        return None
    if _is_choices_count(node, variable, is_len) or chain_of(node) == (variable, CHOICES):
        return True
    return None


def _is_choices_count(node: cst.BaseExpression, variable: str, is_len: Callable[[cst.Call], bool]) -> bool:
    """``len(chunk.choices)``."""
    return (
        isinstance(node, cst.Call)
        and is_name(node.func, "len")
        and len(node.args) == 1
        and node.args[0].keyword is None
        and not node.args[0].star
        and chain_of(node.args[0].value) == (variable, CHOICES)
        and is_len(node)
    )


class Kind(enum.Enum):
    """What a read of the chunk is about."""

    TEXT = "the text"
    USAGE = "the usage"
    FINISH = "the finish reason"
    TOOL_CALLS = "the tool calls"
    CHOICES = "whether the chunk has choices"
    STRUCTURE = "a part of the chunk"


def loop_over(use: ResultUse, analysis: ModuleAnalysis) -> Optional[cst.For]:
    """The loop whose iterable is the stream ``use`` reads, as it is or through the builtin
    ``iter``, which gives the stream itself to the loop."""
    if use.path:
        return None
    if isinstance(use.parent, cst.For) and use.parent.iter is use.outer:
        return use.parent
    call = use.grandparent
    if not (isinstance(use.parent, cst.Arg) and isinstance(call, cst.Call) and len(call.args) == 1 and use.parent.keyword is None and not use.parent.star):
        return None
    loop = analysis.nodes.parents.get(call)
    if isinstance(loop, cst.For) and loop.iter is call and loop.asynchronous is None and analysis.flow.calls_builtin(call, "iter"):
        return loop
    return None


def is_streamed(site: CallSite, node: cst.CSTNode) -> bool:
    """Is the result of a ``create`` call a stream of chunks where ``node`` reads it? It is with
    ``stream=True``, and with ``stream=flag`` in the branch of an ``if flag:`` after the call."""
    stream = site.argument("stream")
    if site.kind not in TEXT_PATHS or stream is None:
        return False
    if is_constant(stream.value, "True"):
        return True
    return truth_where(site.analysis.nodes, site.analysis.bindings, stream.value, node) is True


def never_streamed(site: CallSite) -> bool:
    """Is ``stream=flag`` false whenever the call runs: ``flag`` a parameter, with no other
    binding reaching the call, that every call of its function leaves ``False``?"""
    stream = site.argument("stream")
    flag = stream.value if stream is not None else None
    if not isinstance(flag, cst.Name):
        return False
    reaching = site.analysis.bindings.reaching(flag)
    param = getattr(reaching[0], "node", None) if len(reaching) == 1 else None
    if not isinstance(param, cst.Param):
        return False
    passed = site.analysis.passed_by_every_call(param)
    return passed is not None and all(value is not None and is_constant(value, "False") for value in passed)


def includes_usage(site: CallSite) -> bool:
    """Does the stream end with a usage chunk (``stream_options={"include_usage": True}``)?"""
    options = site.argument("stream_options")
    entries = dict_entries(options.value) if options is not None else None
    return bool(entries) and "include_usage" in entries and is_constant(entries["include_usage"].value, "True")


def event_name(analysis: ModuleAnalysis, loop: cst.For) -> str:
    """``event`` for a loop variable named after chunks, unless the name is taken nearby."""
    name = loop.target.value
    if name in EVENT_NAMES:
        return name
    scope_node = analysis.nodes.enclosing(loop, (cst.FunctionDef, cst.Lambda)) or analysis.module
    return name if spelled_names(scope_node, {"event"}) else "event"


class ReadRewriter(cst.CSTTransformer):
    """Renames reads of a chunk (or of names holding parts of it) in one pass, outermost first.

    ``roots`` maps each name to the path it holds (``()`` for the chunk itself); ``mapping``
    turns a path into the code that reads the same from the event, or None to leave it.
    """

    def __init__(
        self,
        roots: Dict[str, Path],
        mapping: Callable[[Path], Optional[str]],
        choices_test: Callable[[cst.BaseExpression], Optional[bool]] = lambda node: None,
        always_true: Callable[[cst.BaseExpression], bool] = lambda node: False,
    ) -> None:
        super().__init__()
        self.roots = roots
        self.mapping = mapping
        self.choices_test = choices_test
        self.always_true = always_true  # ``hasattr(delta, "content")``: dropped with the read it tests
        self.replacements: Dict[cst.CSTNode, cst.BaseExpression] = {}

    def _mapped(self, node: cst.CSTNode) -> Optional[str]:
        chain = chain_of(node)
        if chain is None or chain[0] not in self.roots:
            return None
        return self.mapping(self.roots[chain[0]] + chain[1])

    def on_visit(self, node: cst.CSTNode) -> bool:
        if isinstance(node, (cst.Attribute, cst.Subscript, cst.Call, cst.Name)):
            code = self._mapped(node)
            if code is not None:
                self.replacements[node] = cst.parse_expression(code)
                return False
        return True

    def on_leave(self, original_node, updated_node):
        if original_node in self.replacements:
            return self.replacements.pop(original_node)
        if isinstance(updated_node, cst.BooleanOperation):
            return self._simplified(original_node, updated_node)
        if isinstance(updated_node, cst.IfExp) and self.choices_test(original_node.test) is True:
            return updated_node.body  # a text event is a chunk with choices
        return updated_node

    def _simplified(self, original: cst.BooleanOperation, updated: cst.BooleanOperation) -> cst.BaseExpression:
        """``text or ""`` -> the event's text (never None); ``chunk.choices and x`` and ``not
        chunk.choices or x`` -> ``x`` (a text event is a chunk with choices)."""
        if isinstance(updated.operator, cst.Or) and literal_string(updated.right) == "" and self._mapped(original.left):
            return updated.left
        if isinstance(updated.operator, cst.And) and self.choices_test(original.left) is True:
            return updated.right
        if isinstance(updated.operator, cst.Or) and self.choices_test(original.left) is False:
            return updated.right
        if isinstance(updated.operator, cst.And) and (self._is_structure(original.left) or self.always_true(original.left)):
            return updated.right  # `delta and x`: a delta is always true
        return updated

    def _is_structure(self, node: cst.CSTNode) -> bool:
        chain = chain_of(node)
        return chain is not None and chain[0] in self.roots and self.roots[chain[0]] + chain[1] in STRUCTURE


# -- the loop ---------------------------------------------------------------------------------


@dataclass
class Read:
    """One read of the chunk: directly, or through a name that holds a part of it."""

    node: cst.BaseExpression  # the whole read: ``chunk.choices[0].delta.content``
    path: Path  # from the chunk
    kind: Optional[Kind]
    statement: int  # the index of the loop-body statement it is in

    @property
    def code(self) -> str:
        return one_line(code_of(self.node))


@dataclass
class Alias:
    """``NAME = <part of the chunk>``, a statement of the loop body."""

    target: cst.Name
    path: Path
    statement: cst.BaseStatement
    text: Optional[str]  # for a name holding the text: MAYBE_NONE or STRING

    @property
    def name(self) -> str:
        return self.target.value


ToolCallHandler = Callable[["ChunkLoop", int, cst.BaseStatement], Union[Segment, Block]]


class ChunkLoop:
    """``for chunk in stream:`` over a streamed call, and how to make it a loop over events.

    ``plan()`` decides; the rewrite it returns rebuilds the loop from the updated tree. Tool-call
    deltas are left to ``tool_calls`` (the rule that migrates them), or block the call.
    """

    def __init__(self, use: ResultUse, site: CallSite, tool_calls: Optional[ToolCallHandler] = None) -> None:
        self.site = site
        self.analysis: ModuleAnalysis = site.analysis
        loop = loop_over(use, site.analysis)
        assert loop is not None, "a chunk loop is planned for a loop over the stream"
        self.loop: cst.For = loop
        self.through_iter = loop.iter is not use.outer  # `for chunk in iter(stream):`
        self.text_path: Path = TEXT_PATHS[site.kind]
        self.tool_calls = tool_calls
        self.include_usage = includes_usage(site)
        self.body: List[cst.BaseStatement] = list(self.loop.body.body) if isinstance(self.loop.body, cst.IndentedBlock) else []
        self.aliases: Dict[str, Alias] = {}
        self.reads: List[Read] = []
        self.extra_rewrites: List[UseRewrite] = []  # reads, after the loop, of the usage it stored
        self.yields: List[cst.BaseSmallStatement] = []  # statements that also yield an empty text
        self.repeats: List[cst.BaseSmallStatement] = []  # statements that also yield the same text again
        self.redraws: List[cst.BaseSmallStatement] = []  # statements that also draw the same text again
        self.none_prints: List[cst.BaseSmallStatement] = []  # statements that also print `None`
        self.rewrites_again: List[cst.Assign] = []  # statements that also rewrite the text so far again
        self.event = ""

    @property
    def variable(self) -> str:
        return self.loop.target.value

    @property
    def reads_tool_calls(self) -> bool:
        return any(read.kind == Kind.TOOL_CALLS for read in self.reads)

    # -- deciding ----------------------------------------------------------------------------

    def plan(self) -> Union[UseRewrite, Block]:
        problem = self._check_shape()
        if problem is None:
            self._find_aliases()
            problem = self._find_reads() or self._check_assignment_expressions()
        if problem is not None:
            return Block(problem)
        self.event = event_name(self.analysis, self.loop)
        segments = self._segments()
        if isinstance(segments, Block):
            return segments
        problem = self._check_final_order(segments)
        if problem is not None:
            return Block(problem)
        asynchronous = self.loop.asynchronous is not None
        needs = helper_needs(self.analysis, self.loop, asynchronous)
        if isinstance(needs, Block):
            return needs

        def build(updated: cst.For) -> cst.For:
            body = assemble(segments, list(updated.body.body), self._rewrite)
            target = updated.target.with_changes(value=self.event)
            stream = updated.iter.args[0].value if self.through_iter else updated.iter
            events = events_of(stream, asynchronous)
            return updated.with_changes(target=target, iter=events, body=updated.body.with_changes(body=body))

        leftover = self._chunk_reads_left(build(self.loop))
        if leftover is not None:  # a read the statements above let through: never guess
            return Block(f"`{one_line(code_of(leftover))}` has no equivalent in the events of a Responses stream")
        rewrite = UseRewrite(target=self.loop, build=build, add_imports=needs[0], add_definitions=needs[1], more=tuple(self.extra_rewrites))
        if self.yields:
            code = one_line(code_of(self.yields[0]))
            return Block(
                f"`{code}` would also yield an empty text {NO_TEXT_CHUNKS}",
                unsafe=Rewrite(note=f"`{code}` no longer yields an empty text for the chunks without one", elsewhere=(rewrite, *rewrite.more)),
            )
        if self.repeats and not (self._yields_shown_in_place() and all(self._yields_what_starts_empty(each) for each in self.repeats)):
            code = one_line(code_of(self.repeats[0]))
            return Block(
                f"`{code}` would also yield the same text again {NO_TEXT_CHUNKS}",
                unsafe=Rewrite(note=f"`{code}` no longer yields the same text again for the chunks without text", elsewhere=(rewrite, *rewrite.more)),
            )
        if self.none_prints:
            code = one_line(code_of(self.none_prints[0]))
            return Block(
                none_printed(code, NO_TEXT_CHUNKS),
                unsafe=Rewrite(note=f"`{code}` no longer prints `None` for the chunks without text", elsewhere=(rewrite, *rewrite.more)),
            )
        rewrites_again = [statement for statement in self.rewrites_again if not self._rewrites_to_itself(statement)]
        if rewrites_again:
            code = one_line(code_of(rewrites_again[0]))
            return Block(
                f"`{code}` would also run {NO_TEXT_CHUNKS}: run again on the text so far, it may change it once more",
                unsafe=Rewrite(note=f"`{code}` no longer runs again for the chunks without text", elsewhere=(rewrite, *rewrite.more)),
            )
        redraws = [statement for statement in self.redraws if not self._draws_what_is_shown(statement)]
        if redraws:
            code = one_line(code_of(redraws[0]))
            return Block(
                f"`{code}` would also draw {NO_TEXT_CHUNKS}: it draws what the placeholder shows already, but also before the first text",
                unsafe=Rewrite(note=f"`{code}` now draws only when text arrives", elsewhere=(rewrite, *rewrite.more)),
            )
        return rewrite

    def _chunk_reads_left(self, rebuilt: cst.For) -> Optional[cst.CSTNode]:
        """A read of the chunk, or of a removed name holding part of it, left in the new loop."""
        removed = {name for name, alias in self.aliases.items() if alias.text is None}
        for name, parent in named_reads(rebuilt.body, {self.variable, self.event, *removed}):
            read = parent if isinstance(parent, cst.Attribute) else name
            if not (name.value == self.event and read is parent and parent.attr.value in EVENT_FIELDS):
                return read
        return None

    def _check_shape(self) -> Optional[str]:
        if not isinstance(self.loop.target, cst.Name):
            return "the loop over the stream unpacks each chunk"
        if not self.body:
            return "the loop over the stream has a one-line body"
        return None

    def _find_aliases(self) -> None:
        """Names the loop body assigns a part of the chunk to, at its top level (or under an
        ``if chunk.choices:`` there); and names it assigns the text to under a test that the
        chunk has text (``if chunk.choices[0].delta.content is not None:``), read only there."""
        for statement, under_text_test in self._alias_candidates():
            small = statement.body[0]
            value = small.value
            text = None
            if isinstance(value, cst.IfExp) and self._is_choices_test(value.test):
                # `content if chunk.choices else None` (or `else ""`): the text where there is one.
                if literal_string(value.orelse) == "":
                    text = STRING
                elif not is_constant(value.orelse, "None"):
                    continue
                value = value.body
            if isinstance(value, cst.BooleanOperation) and isinstance(value.operator, cst.Or) and literal_string(value.right) == "":
                value, text = value.left, STRING
            chain = chain_of(value)
            if chain is not None and chain[0] == self.variable:
                path = chain[1]
            elif chain is not None and chain[0] in self.aliases and self.aliases[chain[0]].text is None:
                path = self.aliases[chain[0]].path + chain[1]  # `content = delta.content`
            else:
                continue
            if path == self.text_path:
                text = text or (MAYBE_NONE if self.site.kind == "chat.completions.create" else STRING)
            elif path not in STRUCTURE or text is not None:
                continue
            target = small.targets[0].target
            if under_text_test is not None and not (text is not None and self._read_only_in(target, under_text_test)):
                continue
            self.aliases[target.value] = Alias(target, path, statement, text)

    def _alias_candidates(self) -> List[Tuple[cst.SimpleStatementLine, Optional[cst.If]]]:
        """Assignments of one name, each with the ``if`` testing for text it is under, if any."""
        statements: List[Tuple[cst.BaseStatement, Optional[cst.If]]] = [(s, None) for s in self.body]
        for statement in self.body:
            if isinstance(statement, cst.If) and self._is_choices_test(statement.test):
                statements += [(s, None) for s in statement.body.body]
            elif isinstance(statement, cst.If) and self._is_text_test(statement.test):
                statements += [(s, statement) for s in statement.body.body]
        return [
            (s, under) for s, under in statements
            if isinstance(s, cst.SimpleStatementLine) and len(s.body) == 1 and isinstance(s.body[0], cst.Assign)
            and len(s.body[0].targets) == 1 and isinstance(s.body[0].targets[0].target, cst.Name)
        ]

    def _is_text_test(self, node: cst.BaseExpression) -> bool:
        """``chunk.choices[0].delta.content`` or ``... is not None``, after ``chunk.choices and``
        or not: true only for a chunk with text."""
        if isinstance(node, cst.BooleanOperation) and isinstance(node.operator, cst.And) and (self._is_choices_test(node.left) or self._is_always_true(node.left)):
            node = node.right
        if is_not_none_test(node):
            node = node.left
        return chain_of(node) == (self.variable, self.text_path)

    def _read_only_in(self, target: cst.Name, statement: cst.BaseStatement) -> bool:
        """Is what ``target`` is assigned read only inside ``statement``, where nothing else
        assigned reaches it? Past it, the name would hold a chunk's text the events do not set."""
        assignment = self.analysis.bindings.binding(target)
        if assignment is None:
            return False
        return all(
            is_inside(self.analysis, read, statement) and len(self.analysis.bindings.reaching(read)) == 1
            for read in self.analysis.bindings.reads_of(assignment)
        )

    def _is_choices_test(self, node: cst.BaseExpression) -> bool:
        """``chunk.choices``, ``len(chunk.choices) > 0``: true when the chunk has choices."""
        return self._choices_test(node) is True

    def _is_always_true(self, node: cst.CSTNode) -> bool:
        """``delta`` in ``delta and delta.content``: the choice or its delta, tested for truth on
        the left of an ``and``. They are objects of the SDK's models, which are always true; and
        so is a test that one has a field of its model (``hasattr(delta, "content")``, or the
        ``delta`` it reads), the left of an ``and`` too."""
        parent = self.analysis.nodes.parents.get(node)
        call = self.analysis.nodes.parents.get(parent) if isinstance(parent, cst.Arg) else None
        if isinstance(call, cst.Call) and call.args[0] is parent:
            return self._is_always_true(call)
        if not (isinstance(parent, cst.BooleanOperation) and isinstance(parent.operator, cst.And) and parent.left is node):
            return False
        if isinstance(node, cst.Call):
            if not (self.analysis.flow.calls_builtin(node, "hasattr") and len(node.args) == 2 and not any(arg.keyword or arg.star for arg in node.args)):
                return False
            tested, field = node.args[0].value, literal_string(node.args[1].value)
            return any(read.node is tested and read.kind == Kind.STRUCTURE and field in STRUCTURE_FIELDS.get(read.path, ()) for read in self.reads)
        return any(read.node is node and read.kind == Kind.STRUCTURE for read in self.reads)

    def _choices_test(self, node: cst.BaseExpression) -> Optional[bool]:
        return choices_test(node, self.variable, lambda call: self.analysis.flow.calls_builtin(call, "len"))

    def _find_reads(self) -> Optional[str]:
        names = {self.variable, *self.aliases}
        expected = [self.loop.target] + [alias.target for alias in self.aliases.values()]
        found = 0
        for target in expected:
            assignment = self.analysis.bindings.binding(target)
            if assignment is None:
                return f"`{target.value}` could not be followed"
            for node in self.analysis.bindings.reads_of(assignment):
                problem = self._add_read(target, node)
                if problem is not None:
                    return problem
                found += 1
        if len(spelled_names(self.loop.body, names)) != found + len(self.aliases):
            return f"a name in the loop body shadows `{self.variable}` or a name holding a part of it"
        return None

    def _check_assignment_expressions(self) -> Optional[str]:
        """A name a loop-body statement assigns with ``:=`` must be read in that statement only:
        on a Responses stream the statement may run for fewer events than there were chunks."""
        for index, statement in enumerate(self.body):
            for node in walk(statement):
                if not (isinstance(node, cst.NamedExpr) and isinstance(node.target, cst.Name)):
                    continue
                assignment = self.analysis.bindings.binding(node.target)
                if assignment is None:
                    return f"`{node.target.value}` could not be followed"
                if any(self._statement_index(read) != index for read in self.analysis.bindings.reads_of(assignment)):
                    return (
                        f"`{node.target.value}` is assigned with `:=` in `{one_line(code_of(statement))}` and read outside"
                        " it, where it would not hold what the chunks without text assign"
                    )
        return None

    def _add_read(self, target: cst.Name, node: cst.Name) -> Optional[str]:
        name = target.value
        statement = self._statement_index(node)
        if statement is None:
            return f"`{name}` is read after the loop, where it holds the last chunk's value"
        alias = self.aliases.get(name)
        if alias is not None and statement < self.body.index(self._top_statement(alias.statement)):
            return f"`{name}` is read before it is assigned in the loop body"
        if alias is not None and alias.text is not None:
            self.reads.append(Read(node, self.text_path, Kind.TEXT, statement))
            return None
        use = self.analysis.flow.use_of(node)
        path = (alias.path if alias else ()) + use.path
        if alias is None and self._is_structure_alias_value(use):
            return None  # `delta = chunk.choices[0].delta`: removed, its reads are read as the chunk's
        self.reads.append(Read(use.outer, path, self._kind(path), statement))
        return None

    def _is_structure_alias_value(self, use: ResultUse) -> bool:
        statement = self.analysis.nodes.enclosing_statement(use.base)
        return any(alias.statement is statement and alias.text is None for alias in self.aliases.values())

    def _kind(self, path: Path) -> Optional[Kind]:
        if path[: len(self.text_path)] == self.text_path:
            return Kind.TEXT
        if path[: len(TOOL_CALLS)] == TOOL_CALLS:
            return Kind.TOOL_CALLS
        if path == FINISH_REASON:
            return Kind.FINISH
        if path[:1] == USAGE:
            return Kind.USAGE
        if path == CHOICES:
            return Kind.CHOICES
        if path in STRUCTURE:
            return Kind.STRUCTURE
        return None

    def _statement_index(self, node: cst.CSTNode) -> Optional[int]:
        top = self._top_statement(node)
        return self.body.index(top) if top is not None else None

    def _top_statement(self, node: cst.CSTNode) -> Optional[cst.BaseStatement]:
        """The statement of the loop body that contains ``node``; None outside the body."""
        parent = self.analysis.nodes.parents.get(node)
        while parent is not None and parent is not self.loop.body:
            node, parent = parent, self.analysis.nodes.parents.get(parent)
        return node if parent is self.loop.body else None

    # -- statement by statement ------------------------------------------------------------

    def reads_in(self, node: cst.CSTNode) -> List[Read]:
        return [read for read in self.reads if is_inside(self.analysis, read.node, node)]

    def _segments(self) -> Union[List[Segment], Block]:
        """Plan the loop body statement by statement; consecutive text statements go together."""
        segments: List[Segment] = []
        text_run: List[int] = []
        for index, statement in enumerate(self.body):
            outcome = self._statement_segment(index, statement)
            if isinstance(outcome, Block):
                return outcome
            if outcome == Kind.TEXT:
                text_run.append(index)
                continue
            if text_run:
                run = self._text_run(text_run)
                if isinstance(run, Block):
                    return run
                segments.append(run)
                text_run = []
            segments.append(outcome)
        if text_run:
            run = self._text_run(text_run)
            if isinstance(run, Block):
                return run
            segments.append(run)
        return segments

    def _statement_segment(self, index: int, statement: cst.BaseStatement) -> Union[Segment, Kind, Block]:
        """The segment for one statement, or Kind.TEXT for one that joins a run of text statements."""
        if any(alias.statement is statement and alias.text is None for alias in self.aliases.values()):
            return Segment([index], remove())
        if self._is_skip_without_choices(statement) or self._is_choices_block(statement):
            return self._choices_segment(index, statement)
        reads = [read for read in self.reads_in(statement) if not self._is_always_true(read.node)]
        unknown = next((read for read in reads if read.kind is None), None)
        if unknown is not None:
            return Block(f"`{unknown.code}` has no equivalent in the events of a Responses stream")
        kinds = {read.kind for read in reads} - {Kind.CHOICES}
        if not reads:
            if isinstance(statement, cst.SimpleStatementLine) and all(isinstance(s, cst.Pass) for s in statement.body):
                return Segment([index], keep())
            if _rewrites_a_name(statement):
                # `text = text.replace(...)`: the text statements before it decide whether the
                # name holds the text so far, which it rewrites again for a chunk without text.
                return Kind.TEXT
            call = _lone_call(statement)
            if call is not None and (self._is_flush(call) or self._redrawn_names(call) is not None):
                # It goes with the text statements around it, under the text event (for a redraw,
                # those adding the text to the names it shows: `_redrawn_names`).
                return Kind.TEXT
            if _lone_yield(statement) is not None:
                # `yield partial` after `partial += text`: the text statements before it decide
                # whether it yields the same text again for a chunk without text (an unsafe fix).
                return Kind.TEXT
            return Block(
                f"`{one_line(code_of(statement))}` runs once per chunk in the loop over the stream, and a"
                " Responses stream sends a different number of events"
            )
        if Kind.TOOL_CALLS in kinds:
            if self.tool_calls is None:
                return Block("the loop collects tool-call deltas, which rule `stream_tool_calls` migrates")
            return self.tool_calls(self, index, statement)
        if len(kinds) > 1:
            names = " and ".join(sorted(kind.value for kind in kinds))
            return Block(f"`{one_line(code_of(statement))}` reads {names} of a chunk at once")
        problem = self._check_choices_reads(reads)
        if problem is not None:
            return Block(problem)
        if not kinds:
            return Block(f"`{one_line(code_of(statement))}` tests the chunk's choices in a way the tool cannot map")
        (kind,) = kinds
        if kind == Kind.STRUCTURE:
            read = next(read for read in reads if read.kind == Kind.STRUCTURE)
            return Block(f"`{read.code}` is used other than by reading further into it")
        if kind == Kind.TEXT:
            return self.check_choices_tested(reads) or Kind.TEXT
        if kind == Kind.USAGE:
            return self._usage_segment(index, statement, reads)
        return self._finish_segment(index, statement, reads)

    # ``chunk.choices`` tested for emptiness, and ``chunk.choices[0]`` on the usage chunk

    def _check_choices_reads(self, reads: List[Read]) -> Optional[str]:
        for read in reads:
            if read.kind == Kind.CHOICES and not self._is_choices_guard(read.node):
                return f"`{read.code}` is used other than to test whether the chunk has choices"
        return None

    def _is_choices_guard(self, node: cst.CSTNode) -> bool:
        """Is the read ``chunk.choices`` the whole of an ``if`` test that the chunk has choices
        (or has none), of a conditional expression's test that it has, the left of an ``and``
        that it has, or of an ``or`` that it has none?"""
        test = self._choices_test_around(node)
        parent = self.analysis.nodes.parents.get(test)
        if isinstance(parent, cst.If) and parent.test is test:
            return self._choices_test(test) is not None
        if isinstance(parent, cst.IfExp) and parent.test is test:
            return self._choices_test(test) is True  # `text if chunk.choices else None`
        if not (isinstance(parent, cst.BooleanOperation) and parent.left is test):
            return False
        return self._choices_test(test) is isinstance(parent.operator, cst.And)

    def _choices_test_around(self, node: cst.CSTNode) -> cst.CSTNode:
        """The largest of ``len(chunk.choices)``, a comparison of it and ``not`` around ``node``."""
        parent = self.analysis.nodes.parents.get(node)
        if isinstance(parent, cst.Arg):
            call = self.analysis.nodes.parents.get(parent)
            if isinstance(call, cst.Call) and self._is_choices_test(call):
                node, parent = call, self.analysis.nodes.parents.get(call)
        if isinstance(parent, cst.Comparison) and parent.left is node:
            node, parent = parent, self.analysis.nodes.parents.get(parent)
        while isinstance(parent, cst.UnaryOperation) and isinstance(parent.operator, cst.Not):
            node, parent = parent, self.analysis.nodes.parents.get(parent)
        return node

    def check_choices_tested(self, reads: List[Read]) -> Optional[Block]:
        """With ``include_usage`` the last chunk has no choices: ``chunk.choices[0]`` fails there."""
        if not self.include_usage:
            return None
        for read in reads:
            if read.kind != Kind.CHOICES and not self._choices_checked(read.node):
                return Block(
                    f"`{read.code}` fails on the usage chunk, which has no choices: test `chunk.choices` first"
                )
        return None

    def _choices_checked(self, node: cst.CSTNode) -> bool:
        """Is ``node`` read only after a test that the chunk has choices?"""
        child, parent = node, self.analysis.nodes.parents.get(node)
        while parent is not None and parent is not self.loop:
            if isinstance(parent, cst.BooleanOperation) and child is parent.right:
                if self._choices_test(parent.left) is isinstance(parent.operator, cst.And):
                    return True  # `chunk.choices and ...`, `not chunk.choices or ...`
            if isinstance(parent, cst.IfExp) and child is parent.body and self._is_choices_test(parent.test):
                return True
            if isinstance(parent, cst.If) and child is parent.body:
                test = parent.test
                if self._is_choices_test(test) or (
                    isinstance(test, cst.BooleanOperation) and self._is_choices_test(test.left)
                ):
                    return True
            child, parent = parent, self.analysis.nodes.parents.get(parent)
        index = self._statement_index(node)
        return any(self._is_skip_without_choices(self.body[i]) for i in range(index))

    def _is_skip_without_choices(self, statement: cst.BaseStatement) -> bool:
        """``if not chunk.choices: continue`` (or ``if len(chunk.choices) == 0:``)."""
        return (
            isinstance(statement, cst.If)
            and statement.orelse is None
            and self._choices_test(statement.test) is False
            and only_continues(statement.body)
        )

    def _choices_segment(self, index: int, statement: cst.BaseStatement) -> Union[Segment, Block]:
        """``if not chunk.choices: continue`` is dropped; ``if chunk.choices:`` over text
        statements becomes the text event's test."""
        if self._is_skip_without_choices(statement):
            later_usage = [r for r in self.reads if r.statement > index and r.kind == Kind.USAGE]
            if later_usage:
                return Block(f"`{later_usage[0].code}` is read after `{one_line(code_of(statement))}`, which skips the usage chunk")
            return Segment([index], remove())
        return self._choices_block(index, statement)

    def _is_choices_block(self, statement: cst.BaseStatement) -> bool:
        """``if chunk.choices:`` (no ``else``, or an ``elif`` testing the usage), around
        statements that read the text."""
        if not (isinstance(statement, cst.If) and self._is_choices_test(statement.test)):
            return False
        usage = statement.orelse
        return usage is None or (isinstance(usage, cst.If) and usage.orelse is None and self._is_usage_test(usage.test))

    def _choices_block(self, index: int, statement: cst.If) -> Union[Segment, Block]:
        inner: List[Segment] = []
        text: List[cst.BaseStatement] = []
        for position, nested in enumerate(statement.body.body):
            if any(alias.statement is nested and alias.text is None for alias in self.aliases.values()):
                inner.append(Segment([position], remove()))
                continue
            kinds = {read.kind for read in self.reads_in(nested)} - {Kind.CHOICES}
            if kinds != {Kind.TEXT}:
                return Block(f"`{one_line(code_of(nested))}` under `if chunk.choices:` does not only read the text")
            inner.append(Segment([position], keep()))
            text.append(nested)
        problem = self._text_reason(text, last=index)
        if problem is not None:
            return Block(problem)
        usage = statement.orelse
        if isinstance(usage, cst.If):
            # `elif chunk.usage:` runs for the usage chunk, the one without choices: the final event.
            if not self.include_usage:
                return self._usage_segment(index, usage, self.reads_in(usage))  # says why
            problem = self._check_usage_reads(self.reads_in(usage), guarded=True)
            if problem is not None:
                return Block(problem)
            return Segment([index], retest([TEXT_GATE, FINISHED_GATE], self.event, inner, keep=[False, True]))
        return Segment([index], retest([TEXT_GATE], self.event, inner))

    # text

    def _text_of(self, node: cst.BaseExpression) -> Optional[str]:
        chain = chain_of(node)
        if chain is None:
            return None
        root, path = chain
        if root == self.variable and path == self.text_path:
            return MAYBE_NONE if self.site.kind == "chat.completions.create" else STRING
        alias = self.aliases.get(root)
        if alias is not None and alias.text is None and alias.path + path == self.text_path:
            return MAYBE_NONE if self.site.kind == "chat.completions.create" else STRING
        if alias is not None and alias.text is not None and not path:
            return alias.text
        return None

    def _empty_text(self) -> EmptyText:
        text_aliases = [name for name, alias in self.aliases.items() if alias.text is not None]
        return EmptyText(
            self._text_of,
            guard=lambda node: self._is_choices_test(node) or self._is_always_true(node),
            aliases=text_aliases,
            where=NO_TEXT_CHUNKS,
            only_joined=self._only_joined,
            is_len=lambda call: self.analysis.flow.calls_builtin(call, "len"),
            is_flush=self._is_flush,
            redrawn=self._redrawn_names,
            collect_yields=True,
        )

    def _is_flush(self, call: cst.Call) -> bool:
        """``sys.stdout.flush()`` (or stderr's), or the ``flush()`` of a file the builtin ``open``
        made: it writes out nothing new, once per chunk or per event."""
        if call.args:
            return False
        if TERMINAL_FLUSHES & self.analysis.imports.qualified(call.func, imported_only=True):
            return True
        func = call.func
        if not (isinstance(func, cst.Attribute) and func.attr.value == "flush" and isinstance(func.value, cst.Name)):
            return False
        made = self.analysis.bindings.bound_values(func.value)
        return bool(made) and all(self.analysis.flow.calls_builtin(value, "open") for value in made)

    def _redrawn_names(self, call: cst.Call) -> Optional[List[str]]:
        """For ``placeholder.markdown(text + "▌")``, a Streamlit placeholder drawn with names,
        strings and their sums or f-strings (or a notebook's output updated with a rich text object
        made of them: ``_display_update``), the names it shows that the loop binds; None for any
        other call. When the loop binds them only by adding the text to them, which an empty text
        leaves as they were (``EmptyText`` checks it), a chunk without text draws the placeholder
        with what it shows already."""
        update = self._display_update(call)
        arguments = update[1].args if update is not None else self._placeholder_draw(call)
        if arguments is None or any(arg.star for arg in arguments) or not all(_is_plain_text(arg.value) for arg in arguments):
            return None
        shown = [node for arg in arguments for node in walk(arg.value) if isinstance(node, cst.Name)]
        return [name.value for name in shown if self.analysis.bindings.bound_in(name, [self.loop.body])]

    def _placeholder_draw(self, call: cst.Call) -> Optional[Sequence[cst.Arg]]:
        """The arguments of ``placeholder.markdown(...)``, for a placeholder ``st.empty()`` made."""
        if not (isinstance(call.func, cst.Attribute) and isinstance(call.func.value, cst.Name)):
            return None
        if call.func.attr.value not in PLACEHOLDER_DRAWS:
            return None
        made = self.analysis.bindings.bound_values(call.func.value)
        imports = self.analysis.imports
        if not made or not all(isinstance(value, cst.Call) and PLACEHOLDER_MAKERS & imports.qualified(value.func, imported_only=True) for value in made):
            return None
        return call.args

    def _display_update(self, call: cst.Call) -> Optional[Tuple[cst.Name, cst.Call]]:
        """(the output's handle, the object drawn) for ``update_display(Markdown(...),
        display_id=handle.display_id)`` or ``handle.update(Markdown(...))``, where ``handle`` is
        only ever ``display(..., display_id=True)``; None for any other call."""
        imports = self.analysis.imports
        func, args = call.func, call.args
        if isinstance(func, cst.Name) and DISPLAY_UPDATE in imports.qualified(func, imported_only=True) and len(args) == 2:
            drawn, identity = args
            if drawn.keyword is not None or drawn.star or identity.keyword is None or identity.keyword.value != "display_id":
                return None
            handle = identity.value
            if not (isinstance(handle, cst.Attribute) and handle.attr.value == "display_id" and isinstance(handle.value, cst.Name)):
                return None
            handle = handle.value
        elif isinstance(func, cst.Attribute) and func.attr.value == "update" and isinstance(func.value, cst.Name) and len(args) == 1:
            drawn, handle = args[0], func.value
            if drawn.keyword is not None or drawn.star:
                return None
        else:
            return None
        made = self.analysis.bindings.bound_values(handle)
        if not made or not all(self._makes_display(value) for value in made):
            return None  # each a notebook's output (a notebook binds its handle once per cell, say)
        shown = drawn.value
        if not (isinstance(shown, cst.Call) and DISPLAY_OBJECTS & imports.qualified(shown.func, imported_only=True)):
            return None
        if len(shown.args) != 1 or shown.args[0].keyword is not None:
            return None
        return handle, shown

    def _makes_display(self, value: cst.CSTNode) -> bool:
        """``display(obj, display_id=True)``: an output that can be drawn again."""
        if not (isinstance(value, cst.Call) and DISPLAY_MAKER in self.analysis.imports.qualified(value.func, imported_only=True)):
            return False
        positional = [arg for arg in value.args if arg.keyword is None and not arg.star]
        keywords = {arg.keyword.value: arg.value for arg in value.args if arg.keyword is not None}
        return len(positional) == 1 and len(value.args) == 2 and is_constant(keywords.get("display_id"), "True")

    def _draws_what_is_shown(self, statement: cst.BaseSmallStatement) -> bool:
        """Does the redraw ``statement`` draw, before the first text, what its output shows
        already? ``handle = display(Markdown(""), display_id=True)`` then, in the loop,
        ``update_display(Markdown(text), ...)`` with ``text`` bound to ``""`` before it: for a
        chunk without text it draws the same object with the same text, at every chunk."""
        call = statement.value if isinstance(statement, cst.Expr) else None
        update = self._display_update(call) if isinstance(call, cst.Call) else None
        if update is None:
            return False
        handle, shown = update
        maker = self._made_right_before_the_loop(handle)
        if maker is None:
            return False
        imports = self.analysis.imports
        first = next(arg.value for arg in maker.args if arg.keyword is None)
        if not (isinstance(first, cst.Call) and len(first.args) == 1 and literal_string(first.args[0].value) == ""):
            return False
        if imports.qualified(first.func, imported_only=True) != imports.qualified(shown.func, imported_only=True):
            return False
        text = shown.args[0].value
        return isinstance(text, cst.Name) and self._starts_empty(text, _is_empty_string)

    def _yields_shown_in_place(self) -> bool:
        """Is the generator the loop is in used only where each value it yields is shown in place
        of the one before (a Gradio app's function)? Then the text so far yielded again for a
        chunk without text shows what is shown already."""
        function = self.analysis.nodes.enclosing(self.loop, (cst.FunctionDef, cst.Lambda))
        return isinstance(function, cst.FunctionDef) and yields_shown_in_place(function, self.analysis)

    def _made_right_before_the_loop(self, handle: cst.Name) -> Optional[cst.Call]:
        """The ``display(...)`` call that made the output ``handle`` names in the loop, when it
        is made in the loop's block before it and nothing between reads the handle: the output
        shows, when the loop starts, what it was made with (not a note drawn since, nor what an
        earlier loop left in an output used again)."""
        reaching = self.analysis.bindings.reaching(handle)
        node = getattr(reaching[0], "node", None) if len(reaching) == 1 else None
        statement = self.analysis.nodes.enclosing_statement(node) if node is not None else None
        block = self.analysis.nodes.parents.get(statement) if statement is not None else None
        siblings = list(getattr(block, "body", ()))
        if statement not in siblings or self.loop not in siblings or siblings.index(statement) > siblings.index(self.loop):
            return None
        between = siblings[siblings.index(statement) + 1 : siblings.index(self.loop)]
        if any(isinstance(each, cst.Name) and each.value == handle.value for line in between for each in walk(line)):
            return None
        made = _assigned_value(reaching[0], self.analysis)
        return made if isinstance(made, cst.Call) and self._makes_display(made) else None

    def _yields_what_starts_empty(self, statement: cst.BaseSmallStatement) -> bool:
        """Does ``yield partial`` (or what else yields the text so far) read names that hold ``""``
        (or ``[]``, for a list of texts) before the loop? For a chunk without text it yields them
        again; were there a heading first, Chat would show it before the first text."""
        value = statement.value.value if isinstance(statement, cst.Expr) and isinstance(statement.value, cst.Yield) else None
        if value is None:
            return False
        for name in walk(value):
            if not isinstance(name, cst.Name) or name.value in ("None", "True", "False"):
                continue
            parent = self.analysis.nodes.parents.get(name)
            if isinstance(parent, cst.Attribute) and parent.attr is name:
                continue
            if not self._starts_empty(name, _is_empty_text):
                return False
        return True

    def _rewrites_to_itself(self, statement: cst.Assign) -> bool:
        """Does ``text = text.strip()`` give back the text it is given, for every chunk without
        text? It does for one method that gives back what it made (``strip``), on a name that
        holds ``""`` before the loop (which it gives back too): the text so far is always what it made."""
        rewritten = rewritten_from(statement.value)
        if rewritten is None or len(rewritten[1]) != 1 or rewritten[1][0] not in IDEMPOTENT_REWRITES:
            return False
        return self._starts_empty(rewritten[0], _is_empty_string)

    def _starts_empty(self, name: cst.Name, empty: Callable[[Optional[cst.BaseExpression]], bool]) -> bool:
        """Does every binding outside the loop that ``name`` (read in the loop body) holds with
        only text added to it or rewritten from itself give it an ``empty`` value?"""
        before = self._bound_before_the_loop(name)
        return bool(before) and all(empty(_assigned_value(binding, self.analysis)) for binding in before)

    def _bound_before_the_loop(self, name: cst.Name) -> Optional[List[object]]:
        """The bindings outside the loop whose value ``name`` (read in the loop body) holds with
        only text added to it (``name += text``) or rewritten from itself (``name =
        name.replace(...)``) in the loop; None when another binding in the loop reaches it."""
        bindings = self.analysis.bindings
        outside: List[object] = []
        seen: set = set()
        pending = [name]
        while pending:
            for binding in bindings.reaching(pending.pop()):
                if id(binding) in seen:
                    continue
                seen.add(id(binding))
                node = getattr(binding, "node", None)
                if not is_inside(self.analysis, node, self.loop):
                    outside.append(binding)
                    continue
                statement = self.analysis.nodes.parents.get(node)
                if isinstance(statement, cst.AugAssign) and statement.target is node:
                    pending.append(node)  # what it held before the text was added
                    continue
                rewritten = rewritten_from(_assigned_value(binding, self.analysis))
                if rewritten is None or rewritten[0].value != name.value:
                    return None
                pending.append(rewritten[0])
        return outside

    def _text_reason(self, statements: List[cst.BaseStatement], last: int, check: Optional[EmptyText] = None) -> Optional[str]:
        """Why one of ``statements`` (the last of them the body's statement ``last``) would do
        something for a chunk without text. ``if text is None: continue`` among them also skips
        the statements after them, for the chunks without text: none may follow."""
        check = check or self._empty_text()
        problem = check.reason(statements)
        if problem is None and check.skips and last != len(self.body) - 1:
            skip, after = one_line(code_of(next(iter(check.skips)))), one_line(code_of(self.body[last + 1]))
            problem = (
                f"`{skip}` also skips `{after}` for the chunks without text, which are those that carry the finish"
                " reason and the usage"
            )
        self.yields += check.yields
        self.repeats += check.repeats
        self.redraws += check.redraws
        self.rewrites_again += check.rewrites_again
        self.none_prints += check.none_prints
        return problem

    def _only_joined(self, node: cst.BaseExpression) -> bool:
        """Is ``node`` a name for a list made empty (``parts = []``) and used for nothing but
        ``parts.append(...)`` and ``"".join(parts)``?"""
        if not isinstance(node, cst.Name):
            return False
        reaching = self.analysis.bindings.reaching(node)
        if len(reaching) != 1:
            return False
        target = getattr(reaching[0], "node", None)
        parent = self.analysis.nodes.parents.get(target)
        statement = parent if isinstance(parent, cst.AnnAssign) else self.analysis.nodes.parents.get(parent)
        made = (
            isinstance(statement, cst.Assign) and len(statement.targets) == 1 and statement.targets[0].target is target
        ) or (isinstance(statement, cst.AnnAssign) and statement.target is target)  # `parts: list = []` too
        if not (made and isinstance(statement.value, cst.List) and not statement.value.elements):
            return False
        return all(self._appended_or_joined(read) for read in self.analysis.bindings.reads_of(reaching[0]))

    def _appended_or_joined(self, read: cst.CSTNode) -> bool:
        use = self.analysis.flow.use_of(read)
        if use.path == ("append", CALL):
            return True
        arg = self.analysis.nodes.parents.get(read)
        call = self.analysis.nodes.parents.get(arg)
        return (
            not use.path
            and isinstance(arg, cst.Arg)
            and arg.keyword is None
            and not arg.star
            and isinstance(call, cst.Call)
            and len(call.args) == 1
            and isinstance(call.func, cst.Attribute)
            and call.func.attr.value == "join"
            and literal_string(call.func.value) == ""
        )

    def _text_run(self, indexes: List[int]) -> Union[Segment, Block]:
        """Consecutive text statements: a lone ``if <text is there>:`` gets the text event as its
        test; otherwise they go under it, if they do nothing without text."""
        statements = [self.body[index] for index in indexes]
        first = statements[0]
        check = self._empty_text()
        if len(statements) == 1 and isinstance(first, cst.If) and first.orelse is None:
            presence = check.presence(first.test, pure=True)
            # `if token := text:` keeps its test, for the name it assigns.
            keep_test = any(isinstance(node, cst.NamedExpr) for node in walk(first.test))
            if presence == STRONG:
                return Segment(indexes, retest([TEXT_GATE], self.event, keep=keep_test))
            if presence == WEAK:
                problem = self._text_reason([first], indexes[-1], check)
                return Block(problem) if problem else Segment(indexes, retest([TEXT_GATE], self.event, keep=keep_test))
        problem = self._text_reason(statements, indexes[-1], check)
        if problem is not None:
            return Block(problem)
        # The text event's text is never None: `if text is None: continue` goes.
        skips = [position for position, statement in enumerate(statements) if check.skips.get(statement) == WEAK]
        return Segment(indexes, wrap(TEXT_GATE, self.event, leave_out=skips))

    # usage

    def _usage_segment(self, index: int, statement: cst.BaseStatement, reads: List[Read]) -> Union[Segment, Block]:
        if not self.include_usage:
            return Block(
                '`chunk.usage` is only sent with `stream_options={"include_usage": True}`; without it the'
                " original never sees the usage that a Responses stream always sends"
            )
        if isinstance(statement, cst.If) and statement.orelse is None and self._is_usage_test(statement.test):
            # The usage test stays: it tells the type checker the usage is there.
            problem = self._check_usage_reads(reads, guarded=True)
            return Block(problem) if problem else Segment([index], retest([FINISHED_GATE], self.event, keep=True))
        if not self._is_usage_assignment(statement):
            return Block(f"`{one_line(code_of(statement))}` reads the usage of every chunk, which only the last one has")
        problem = self._check_usage_reads(reads, guarded=False)
        return Block(problem) if problem else Segment([index], wrap(FINISHED_GATE, self.event))

    def _is_usage_assignment(self, statement: cst.BaseStatement) -> bool:
        """``usage = chunk.usage``: the name ends up holding the last chunk's usage."""
        if not (isinstance(statement, cst.SimpleStatementLine) and len(statement.body) == 1):
            return False
        small = statement.body[0]
        chain = chain_of(small.value) if isinstance(small, cst.Assign) else None
        return chain == (self.variable, USAGE)

    def _is_usage_test(self, test: cst.BaseExpression) -> bool:
        if is_not_none_test(test):
            test = test.left
        chain = chain_of(test)
        return chain is not None and chain[0] == self.variable and chain[1] == USAGE

    def _check_usage_reads(self, reads: List[Read], guarded: bool) -> Optional[str]:
        """Reads of the usage: field reads with a Responses name (under a usage test), and the
        usage object stored in a name that only code after the loop reads."""
        for read in reads:
            if read.path[1:] in USAGE_FIELDS and guarded:
                continue
            parent = self.analysis.nodes.parents.get(read.node)
            if read.path == USAGE and isinstance(parent, cst.If) and parent.test is read.node:
                continue
            if read.path == USAGE and is_not_none_test(parent) and parent.left is read.node:
                continue
            if read.path == USAGE and isinstance(parent, cst.Assign) and parent.value is read.node:
                problem = self._follow_stored_usage(parent)
                if problem is not None:
                    return problem
                continue
            return f"`{read.code}` has no equivalent on the usage of a Response"
        return None

    def _follow_stored_usage(self, assign: cst.Assign) -> Optional[str]:
        """``usage = chunk.usage``: the reads of ``usage`` after the loop get the Responses names."""
        target = assign.targets[0].target if len(assign.targets) == 1 else None
        if not isinstance(target, cst.Name):
            return "the usage is stored in something other than a plain name"
        assignment = self.analysis.bindings.binding(target)
        if assignment is None:
            return f"`{target.value}` could not be followed"
        for node in self.analysis.bindings.reads_of(assignment):
            if is_inside(self.analysis, node, self.loop):
                return f"`{target.value}` is read inside the loop, where it would hold the usage at other times"
            others = [
                other for other in self.analysis.bindings.reaching(node)
                if other is not assignment and not _assigns_none(self.analysis, other)
            ]
            if others:
                return f"`{target.value}` may also hold a value assigned elsewhere"
            rewrite = _usage_read_rewrite(self.analysis.flow.use_of(node))
            if isinstance(rewrite, str):
                return rewrite
            if rewrite is not None:
                self.extra_rewrites.append(rewrite)
        return None

    # finish reason

    def _finish_segment(self, index: int, statement: cst.BaseStatement, reads: List[Read]) -> Union[Segment, Block]:
        if self.include_usage and not all(self._choices_checked(r.node) for r in reads if r.kind == Kind.FINISH):
            return Block("the finish reason is read without testing `chunk.choices`, which the usage chunk does not have")
        branches = if_chain(statement)
        if branches is None:
            return Block(f"`{one_line(code_of(statement))}` uses the finish reason other than in `if` tests")
        tests = [branch.test for branch in branches]
        for read in reads:
            if not any(is_inside(self.analysis, read.node, test) for test in tests):
                return Block(f"`{read.code}` is used other than in an `if` test, and a Responses stream has no finish reason")
        gates = []
        for test in tests:
            gate = self._finish_gate(test)
            if isinstance(gate, Block):
                return gate
            gates.append(gate)
        return Segment([index], retest(gates, self.event))

    def _finish_gate(self, test: cst.BaseExpression) -> Union[Gate, Block]:
        if isinstance(test, cst.BooleanOperation) and isinstance(test.operator, cst.And) and self._is_choices_test(test.left):
            test = test.right
        if self._is_finish_read(test) or (is_not_none_test(test) and self._is_finish_read(test.left)):
            return FINISHED_GATE
        if not (isinstance(test, cst.Comparison) and len(test.comparisons) == 1 and self._is_finish_read(test.left)):
            return Block(f"`{one_line(code_of(test))}` tests the finish reason in a way the tool cannot map")
        comparison = test.comparisons[0]
        reason = literal_string(comparison.comparator)
        if not isinstance(comparison.operator, cst.Equal) or reason not in FINISH_GATES:
            return Block(f"`{one_line(code_of(test))}` has no Responses event to match: only `== \"stop\"`, `\"length\"` and `\"content_filter\"` do")
        if reason == "stop" and any(self.site.has_argument(name) for name in ("tools", "functions")):
            return Block('with tools, `finish_reason == "stop"` has no exact Responses equivalent')
        return FINISH_GATES[reason]

    def _is_finish_read(self, node: cst.BaseExpression) -> bool:
        return any(read.node is node and read.kind == Kind.FINISH for read in self.reads)

    def _check_final_order(self, segments: List[Segment]) -> Optional[str]:
        """The usage chunk comes after the finish reason in Chat; in Responses both come with
        the last event, so a usage statement must not run before a finish-reason one."""
        usage_seen = None
        for read in sorted(self.reads, key=lambda r: r.statement):
            if read.kind == Kind.USAGE and usage_seen is None:
                usage_seen = read
            if read.kind == Kind.FINISH and usage_seen is not None and read.statement > usage_seen.statement:
                return f"`{usage_seen.code}` is read before the finish reason, but Chat sends the usage last"
        return None

    # building

    def _rewrite(self, statement: cst.BaseStatement) -> cst.BaseStatement:
        roots = {self.variable: ()}
        roots.update({name: alias.path for name, alias in self.aliases.items() if alias.text is None})
        return statement.visit(ReadRewriter(roots, self._event_code, self._spelled_choices_test, self._is_always_true))

    def _spelled_choices_test(self, node: cst.BaseExpression) -> Optional[bool]:
        """``_choices_test`` for the updated tree, which the analysis does not know: ``plan()``
        has made sure that ``len`` is the builtin in the tests of the loop."""
        return choices_test(node, self.variable, is_len=lambda call: True)

    def _event_code(self, path: Path) -> Optional[str]:
        event = self.event
        if path == self.text_path:
            return f"{event}.delta"
        if path == USAGE:
            return f"{event}.response.usage"
        if path[:1] == USAGE and path[1:] in USAGE_FIELDS:
            return f"{event}.response.usage.{USAGE_FIELDS[path[1:]]}"
        return None


def _assigns_none(analysis: ModuleAnalysis, assignment) -> bool:
    """``usage = None`` before the loop does not make ``usage`` hold anything else."""
    value = _assigned_value(assignment, analysis)
    return value is not None and is_constant(value, "None")


def _rewrites_a_name(statement: cst.BaseStatement) -> bool:
    """``text = text.replace("```", "")``: a name bound to a text made from itself."""
    small = statement.body[0] if isinstance(statement, cst.SimpleStatementLine) and len(statement.body) == 1 else None
    if not (isinstance(small, cst.Assign) and len(small.targets) == 1 and isinstance(small.targets[0].target, cst.Name)):
        return False
    rewritten = rewritten_from(small.value)
    return rewritten is not None and rewritten[0].value == small.targets[0].target.value


def _is_empty_string(value: Optional[cst.BaseExpression]) -> bool:
    return value is not None and literal_string(value) == ""


def _is_empty_text(value: Optional[cst.BaseExpression]) -> bool:
    """``""``, or ``[]`` for a list the texts are appended to."""
    return _is_empty_string(value) or (isinstance(value, cst.List) and not value.elements)


def _assigned_value(assignment, analysis: ModuleAnalysis) -> Optional[cst.BaseExpression]:
    """The value of ``name = value`` (or ``name: T = value``) for the binding of ``name``; None
    for any other binding."""
    node = getattr(assignment, "node", None)
    parent = analysis.nodes.parents.get(node) if node is not None else None
    if isinstance(parent, cst.AssignTarget):
        return analysis.nodes.parents[parent].value
    if isinstance(parent, cst.AnnAssign) and parent.target is node:
        return parent.value
    return None


def _usage_read_rewrite(use: ResultUse) -> Union[UseRewrite, str, None]:
    """A read of a stored Chat usage, made a read of a Responses usage: a rewrite, nothing to
    change (a test of the usage itself), or why it cannot be done."""
    for fields, name in USAGE_FIELDS.items():
        if use.startswith(*fields):
            return use.replace(len(fields), f"{{base}}.{name}")
    parent = use.parent
    if not use.path and (
        isinstance(parent, (cst.If, cst.While, cst.IfExp, cst.BooleanOperation))
        or (isinstance(parent, cst.UnaryOperation) and isinstance(parent.operator, cst.Not))
        or is_not_none_test(parent)
        or (isinstance(parent, cst.Comparison) and isinstance(parent.comparisons[0].operator, cst.Is))
    ):
        return None
    return f"the stored usage is used as `{use.code}`, which has no equivalent on the usage of a Response"


def _is_plain_text(node: cst.BaseExpression) -> bool:
    """A name, a string, a constant, or a sum or f-string of them: nothing that calls anything."""
    if isinstance(node, (cst.Name, cst.SimpleString, cst.Integer)):
        return True
    if isinstance(node, cst.ConcatenatedString):
        return _is_plain_text(node.left) and _is_plain_text(node.right)
    if isinstance(node, cst.BinaryOperation) and isinstance(node.operator, cst.Add):
        return _is_plain_text(node.left) and _is_plain_text(node.right)
    if isinstance(node, cst.FormattedString):
        return all(
            isinstance(part, cst.FormattedStringText) or (_is_plain_text(part.expression) and part.format_spec is None)
            for part in node.parts
        )
    return False


def _lone_yield(statement: cst.BaseStatement) -> Optional[cst.Yield]:
    """The ``yield value`` a statement is made of alone, else None."""
    body = statement.body if isinstance(statement, cst.SimpleStatementLine) else ()
    value = body[0].value if len(body) == 1 and isinstance(body[0], cst.Expr) else None
    return value if isinstance(value, cst.Yield) and value.value is not None else None


def _lone_call(statement: cst.BaseStatement) -> Optional[cst.Call]:
    """The call a statement is made of alone (``sys.stdout.flush()``), else None."""
    body = statement.body if isinstance(statement, cst.SimpleStatementLine) else ()
    value = body[0].value if len(body) == 1 and isinstance(body[0], cst.Expr) else None
    return value if isinstance(value, cst.Call) else None
