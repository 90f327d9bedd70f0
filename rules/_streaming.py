"""Pieces shared by the rules that migrate code reading a stream: Chat chunks or the Chat
helper's events in, typed Responses events out (``migrator.rules._chunk_loops``, ``rules/stream_*.py``).

- ``EmptyText`` decides whether statements do nothing when the text they read is empty: a
  Chat stream has chunks (and the Chat helper events) with an empty text that a Responses stream
  does not send, so only such statements may move under the Responses text event;
- ``Segment`` and its builders (``keep``, ``remove``, ``wrap``, ``retest``) say what becomes of
  the statements of a loop body, and ``assemble`` builds the new body from the updated tree;
- ``chain_of`` and ``spelled_names`` answer questions about reads of names.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Dict, Iterable, Iterator, List, Optional, Sequence, Set, Tuple, Union

import libcst as cst

from migrator.analysis import ModuleAnalysis
from migrator.semantic.flow import CALL, constant_index, PathSegment
from migrator.shapes import code_of, is_constant, literal_int, literal_string, one_line
from migrator.libcst_internals import children

Path = Tuple[PathSegment, ...]

# A test that picks events out of a Responses stream, as the operands of an `and`; {event}
# is the loop variable.
Gate = Tuple[str, ...]

# Marks a list in ``EmptyText.accumulated``: its texts joined (``"".join(parts)``) hold the text so far.
JOINED = ".join()"
# How sure a test is that the text is there: falsy whenever it is empty, or only when it is None.
STRONG, WEAK = "strong", "weak"
# What a text value may be when there is no text: "" or None, or only "".
MAYBE_NONE, STRING = "str or None", "str"


def chain_of(node: cst.CSTNode) -> Optional[Tuple[str, Path]]:
    """``chunk.choices[0].delta`` -> ("chunk", ("choices", 0, "delta")); a call adds "()".

    None when the chain does not start at a name, or indexes with something not constant.
    """
    path: List[PathSegment] = []
    while not isinstance(node, cst.Name):
        if isinstance(node, cst.Attribute):
            path.append(node.attr.value)
            node = node.value
        elif isinstance(node, cst.Subscript) and constant_index(node) is not None:
            path.append(constant_index(node))
            node = node.value
        elif isinstance(node, cst.Call):
            path.append(CALL)
            node = node.func
        else:
            return None
    return node.value, tuple(reversed(path))


def spelled_names(root: cst.CSTNode, names: Set[str]) -> List[cst.Name]:
    """Every name node under ``root`` spelled as one of ``names``, except attribute names and
    keywords: to prove that a loop's reads of a name are all the reads the scope knows of."""
    return [name for name, _ in named_reads(root, names)]


def named_reads(root: cst.CSTNode, names: Set[str]) -> Iterator[Tuple[cst.Name, Optional[cst.CSTNode]]]:
    """The name nodes of ``spelled_names``, each with its parent (trees without metadata too)."""
    stack: List[Tuple[cst.CSTNode, Optional[cst.CSTNode]]] = [(root, None)]
    while stack:
        node, parent = stack.pop()
        if isinstance(node, cst.Name) and node.value in names:
            yield node, parent
        skipped = node.attr if isinstance(node, cst.Attribute) else node.keyword if isinstance(node, cst.Arg) else None
        stack.extend((child, node) for child in children(node) if child is not skipped)


def in_order(analysis: ModuleAnalysis, nodes: Iterable[cst.CSTNode]) -> List[cst.CSTNode]:
    """``nodes`` in source order (scope metadata gives sets: reasons must not depend on that)."""
    return sorted(nodes, key=lambda node: (analysis.nodes.positions[node].start.line, analysis.nodes.positions[node].start.column))


def is_inside(analysis: ModuleAnalysis, node: cst.CSTNode, ancestor: cst.CSTNode) -> bool:
    while node is not None:
        if node is ancestor:
            return True
        node = analysis.nodes.parents.get(node)
    return False


# String methods that make a new text from one and constants; those of them that give back the
# text they made when applied to it again.
STRING_REWRITES = frozenset({"replace", "strip", "lstrip", "rstrip", "removeprefix", "removesuffix"})
IDEMPOTENT_REWRITES = frozenset({"strip", "lstrip", "rstrip"})


def rewritten_from(value: Optional[cst.BaseExpression]) -> Optional[Tuple[cst.Name, List[str]]]:
    """The name ``value`` rewrites with string methods given constants, and the methods in the
    order they run: ``text.replace("```", "").strip()`` -> ``text``, ``["replace", "strip"]``;
    None for anything else."""
    methods: List[str] = []
    node = value
    while isinstance(node, cst.Call) and isinstance(node.func, cst.Attribute) and node.func.attr.value in STRING_REWRITES:
        if not all(arg.keyword is None and not arg.star and literal_string(arg.value) is not None for arg in node.args):
            return None
        methods.insert(0, node.func.attr.value)
        node = node.func.value
    return (node, methods) if isinstance(node, cst.Name) and methods else None


def _is_literal(node: cst.BaseExpression) -> bool:
    return is_constant(node, "None") or is_constant(node, "True") or is_constant(node, "False") or literal_string(node) is not None or literal_int(node) is not None


# -- does a statement do nothing without text? ----------------------------------------------


class EmptyText:
    """Decides whether statements do nothing when the text they read is empty.

    ``text_of`` says whether an expression is a read of the text (and whether it can be None
    then); ``guard`` whether it is a test that lets the text be read at all (``chunk.choices``).
    Names in ``aliases`` may be assigned a text value. ``only_joined`` says whether a list is
    used for nothing but appending and ``"".join(...)``, to which an empty text adds nothing;
    ``is_len`` whether a call is of the builtin ``len`` (``count += len(text)`` adds nothing);
    ``is_flush`` whether it flushes what the text is written to (``sys.stdout.flush()``), which
    writes out nothing new however often it runs.

    ``if text is None: continue`` does nothing itself, and the statements after it see a text
    that is never None; after ``if not text: continue`` they see a text. ``skips`` collects
    them: they also skip what follows them in the loop body. A statement that
    yields the text (``yield text``, ``yield {"delta": text}``) does something for an empty text,
    but only what the generator's consumer sees as one more empty item: with ``collect_yields``,
    ``yields`` collects it, for an unsafe fix. So does a statement yielding a name the text was
    added to before it (``partial += text`` then ``yield partial``): the consumer sees the last
    item once more; ``repeats`` collects those. A print of a text that may be None
    (``print(text, end="")``) shows ``None`` where there is no text: ``none_prints`` collects
    those. ``redrawn`` gives, for a call that draws a
    placeholder with what names hold (``placeholder.markdown(text + "▌")``), the names it shows
    that the loop binds: when the text was added to each of them before it, the call draws what
    is shown already; ``redraws`` collects those.
    """

    def __init__(
        self,
        text_of: Callable[[cst.BaseExpression], Optional[str]],
        guard: Callable[[cst.BaseExpression], bool] = lambda node: False,
        aliases: Sequence[str] = (),
        where: str = "where there is no text",
        only_joined: Callable[[cst.BaseExpression], bool] = lambda node: False,
        is_len: Callable[[cst.Call], bool] = lambda call: False,
        is_flush: Callable[[cst.Call], bool] = lambda call: False,
        redrawn: Callable[[cst.Call], Optional[List[str]]] = lambda call: None,
        collect_yields: bool = False,
    ) -> None:
        self.text_of = text_of
        self.is_len = is_len
        self.is_flush = is_flush
        self.redrawn = redrawn
        self.collect_yields = collect_yields
        self.guard = guard
        self.only_joined = only_joined
        self.aliases = set(aliases)
        self.where = where
        self.names: Dict[str, str] = {}  # aliases assigned so far, and what they may hold
        self.not_none: Set[str] = set()  # code of the text reads known not to be None here
        # `if not text: continue` (STRONG) and `if text is None: continue` (WEAK) statements
        self.skips: Dict[cst.If, str] = {}
        self.yields: List[cst.BaseSmallStatement] = []  # statements yielding an empty text too
        self.repeats: List[cst.BaseSmallStatement] = []  # statements yielding the same text again
        self.redraws: List[cst.BaseSmallStatement] = []  # statements drawing what is shown already
        self.none_prints: List[cst.BaseSmallStatement] = []  # statements printing `None` for no text
        self.rewrites_again: List[cst.Assign] = []  # statements rewriting the text so far again
        self.accumulated: Set[str] = set()  # names the text was added to so far

    def value(self, node: cst.BaseExpression) -> Optional[str]:
        """MAYBE_NONE or STRING when ``node`` is the text, else None."""
        if isinstance(node, cst.Name) and node.value in self.names:
            return self.names[node.value]
        if isinstance(node, cst.NamedExpr):
            return self.value(node.value)  # `token := text`
        if isinstance(node, cst.IfExp) and self.guard(node.test) and self.value(node.body) is not None:
            # `text if chunk.choices else None` / `else ""`
            if literal_string(node.orelse) == "":
                return self.value(node.body)
            return MAYBE_NONE if is_constant(node.orelse, "None") else None
        if isinstance(node, cst.BooleanOperation) and isinstance(node.operator, cst.Or):
            if literal_string(node.right) == "" and self.value(node.left) is not None:
                return STRING  # `content or ""`
            return None
        kind = self.text_of(node)
        return STRING if kind is not None and code_of(node) in self.not_none else kind

    def presence(self, test: cst.BaseExpression, pure: bool = False) -> Optional[str]:
        """STRONG when ``test`` is falsy whenever the text is empty, WEAK when it is falsy when
        the text is None, else None. ``pure``: the test checks that and nothing else."""
        if self.value(test) is not None or self._is_length_test(test):
            return STRONG
        if is_not_none_test(test) and self.value(test.left) is not None:
            return WEAK
        if isinstance(test, cst.BooleanOperation) and isinstance(test.operator, cst.And):
            left, right = self.presence(test.left, pure), self.presence(test.right, pure)
            if left == STRONG and (right is not None or not pure):
                return STRONG
            if right == STRONG and (left is not None or self.guard(test.left)):
                return STRONG
            if right == WEAK and self.guard(test.left):
                return WEAK  # `chunk.choices and text is not None`
        return None

    def reason(self, statements: Sequence[cst.BaseStatement]) -> Optional[str]:
        """Why one of ``statements`` would do something without text; None when none would."""
        for position, statement in enumerate(statements):
            skipped = self._skipped_without_text(statement)
            if skipped is not None:
                self.skips[statement] = skipped
            if skipped == STRONG:
                return None  # what follows runs only for a text
            if skipped == WEAK:
                return self._reason_with_text_not_none(statement.test.left, statements[position + 1 :])
            reason = self._statement_reason(statement)
            if reason is not None:
                return reason
        return None

    def _skipped_without_text(self, statement: cst.BaseStatement) -> Optional[str]:
        """``if not text: continue`` (STRONG) or ``if text is None: continue`` (WEAK); else None."""
        if not (isinstance(statement, cst.If) and statement.orelse is None and only_continues(statement.body)):
            return None
        return self._absence(statement.test)

    def _absence(self, test: cst.BaseExpression) -> Optional[str]:
        """STRONG for ``not text``, WEAK for ``text is None``, and the same for ``not
        chunk.choices or <one of them>`` (the text is read only where the guard lets it be)."""
        if isinstance(test, cst.UnaryOperation) and isinstance(test.operator, cst.Not) and self.value(test.expression) is not None:
            return STRONG
        if _is_none_test(test) and self.value(test.left) is not None:
            return WEAK
        left = test.left if isinstance(test, cst.BooleanOperation) and isinstance(test.operator, cst.Or) else None
        if isinstance(left, cst.UnaryOperation) and isinstance(left.operator, cst.Not) and self.guard(left.expression):
            return self._absence(test.right)
        return None

    def _statement_reason(self, statement: cst.BaseStatement) -> Optional[str]:
        if isinstance(statement, cst.If) and statement.orelse is None:
            presence = self.presence(statement.test)
            if presence == STRONG:
                return None
            if presence == WEAK:
                return self._reason_with_text_not_none(_not_none_operand(statement.test), statement.body.body)
        if isinstance(statement, cst.If) and self._text_reads(statement.test) == []:
            return self._branches_reason(statement)
        if isinstance(statement, cst.SimpleStatementLine):
            for small in statement.body:
                if not self._small_does_nothing(small):
                    return self._prints_none(small) or self._runs(small)
            return None
        return self._runs(statement)

    def _branches_reason(self, statement: cst.If) -> Optional[str]:
        """Why a branch of ``if verbose: print(text, end="")`` (a test that neither reads the text
        nor runs code) would do something for an empty text. What a branch assigns is forgotten
        after it: the statements after the ``if`` may run without it."""
        branches: List[Sequence[cst.BaseStatement]] = [statement.body.body]
        if isinstance(statement.orelse, cst.If):
            branches.append([statement.orelse])  # `elif`
        elif statement.orelse is not None:
            branches.append(statement.orelse.body.body)
        for branch in branches:
            known, names, accumulated = set(self.not_none), dict(self.names), set(self.accumulated)
            reason = self.reason(branch)
            self.not_none, self.names, self.accumulated = known, names, accumulated
            if reason is not None:
                return reason
        return None

    def _reason_with_text_not_none(self, text: cst.BaseExpression, statements: Sequence[cst.BaseStatement]) -> Optional[str]:
        """Why one of ``statements``, run only where ``text`` is not None, would do something
        for an empty text."""
        tested = code_of(text)
        known, names, accumulated = set(self.not_none), dict(self.names), set(self.accumulated)
        self.not_none.add(tested)
        if tested in self.names:
            self.names[tested] = STRING
        reason = self.reason(statements)
        self.not_none, self.names, self.accumulated = known, names, accumulated
        return reason

    def _runs(self, node: cst.CSTNode) -> str:
        return f"`{one_line(code_of(node))}` would also run {self.where}"

    def _prints_none(self, small: cst.BaseSmallStatement) -> Optional[str]:
        """``print(text, end="")`` with a text that may be None prints ``None`` there."""
        printed = self._printed_without_newline(small.value) if isinstance(small, cst.Expr) else None
        if printed is None or self.value(printed) != MAYBE_NONE:
            return None
        return none_printed(one_line(code_of(small)), self.where)

    def _small_does_nothing(self, small: cst.BaseSmallStatement) -> bool:
        if isinstance(small, cst.Pass):
            return True
        if isinstance(small, cst.Assign):
            return self._is_alias_assignment(small) or self._is_text_added(small) or self._is_text_rewritten(small)
        if isinstance(small, cst.AugAssign):
            added = (
                isinstance(small.operator, cst.AddAssign)
                and (self.value(small.value) == STRING or self._is_text_length(small.value))
                and _is_plain_target(small.target)
            )
            if added and isinstance(small.target, cst.Name) and self.value(small.value) == STRING:
                self.accumulated.add(small.target.value)
            return added
        if self.collect_yields and self._prints_none(small) is not None:
            self.none_prints.append(small)
            return True
        if isinstance(small, cst.Expr) and isinstance(small.value, cst.Call):
            shown = self.redrawn(small.value)
            if shown is not None and set(shown) <= self.accumulated:
                self.redraws.append(small)
                return True
            if self._is_joined_append(small.value):
                self.accumulated.add(f"{code_of(small.value.func.value)}{JOINED}")
                return True
            return self._is_silent_print(small.value) or self._is_silent_write(small.value) or self.is_flush(small.value)
        if self.collect_yields and isinstance(small, cst.Expr) and isinstance(small.value, cst.Yield) and self._holds_text(small.value.value):
            self.yields.append(small)
            return True
        if self.collect_yields and isinstance(small, cst.Expr) and isinstance(small.value, cst.Yield) and self._is_text_so_far(small.value.value):
            self.repeats.append(small)
            return True
        return False

    def _is_text_so_far(self, value: Optional[cst.BaseExpression], within: bool = False) -> bool:
        """Is ``value`` made only of what the text was added to, which an empty text leaves as
        it was: a name (``partial``), the texts joined of a list (``"".join(parts)``), one of them
        rewritten with string methods given constants (``partial.replace("```", "")``), or a tuple
        of them and constants (``partial, None``, for a UI's several outputs)?"""
        if isinstance(value, cst.Name) and value.value in self.accumulated:
            return True
        joined = joined_list(value) if value is not None else None
        if joined is not None and f"{code_of(joined)}{JOINED}" in self.accumulated:
            return True
        rewritten = rewritten_from(value)
        if rewritten is not None:
            return self._is_text_so_far(rewritten[0], within)
        if isinstance(value, cst.Tuple) and not within and value.elements:
            parts = [element.value for element in value.elements if isinstance(element, cst.Element)]
            if len(parts) != len(value.elements):
                return False
            texts = [part for part in parts if self._is_text_so_far(part, within=True)]
            return bool(texts) and all(part in texts or _is_literal(part) for part in parts)
        return False

    def _is_text_added(self, small: cst.Assign) -> bool:
        """``partial = partial + text``, which an empty text leaves as it was."""
        target = small.targets[0].target if len(small.targets) == 1 else None
        value = small.value
        if not (isinstance(target, cst.Name) and isinstance(value, cst.BinaryOperation) and isinstance(value.operator, cst.Add)):
            return False
        if not (isinstance(value.left, cst.Name) and value.left.value == target.value and self.value(value.right) == STRING):
            return False
        self.accumulated.add(target.value)
        return True

    def _holds_text(self, node: Optional[cst.CSTNode]) -> bool:
        """Is ``node`` built from the text, never None here, with no call (``text``,
        ``{"delta": text}, None``, ``f"data: {text}"``)?"""
        kinds = self._text_reads(node) if isinstance(node, cst.BaseExpression) else None
        return bool(kinds) and all(kind == STRING for kind in kinds)

    def _text_reads(self, node: cst.CSTNode) -> Optional[List[str]]:
        """What each read of the text in ``node`` may hold; None when ``node`` runs code."""
        if isinstance(node, (cst.Call, cst.Await, cst.Lambda, cst.Yield, cst.NamedExpr)):
            return None
        kind = self.value(node) if isinstance(node, cst.BaseExpression) else None
        if kind is not None:
            return [kind]
        found: List[str] = []
        for child in children(node):
            inner = self._text_reads(child)
            if inner is None:
                return None
            found += inner
        return found

    def _is_length_test(self, test: cst.BaseExpression) -> bool:
        """``len(text) > 0`` (``!= 0``, ``>= 1``): true exactly when the text is not empty."""
        if not (isinstance(test, cst.Comparison) and len(test.comparisons) == 1 and self._is_text_length(test.left)):
            return False
        operator, bound = test.comparisons[0].operator, literal_int(test.comparisons[0].comparator)
        return (isinstance(operator, (cst.GreaterThan, cst.NotEqual)) and bound == 0) or (isinstance(operator, cst.GreaterThanEqual) and bound == 1)

    def _is_text_length(self, node: cst.BaseExpression) -> bool:
        """``len(text)``: 0 for an empty text, so ``count += len(text)`` adds nothing."""
        return (
            isinstance(node, cst.Call)
            and self.is_len(node)
            and len(node.args) == 1
            and node.args[0].keyword is None
            and not node.args[0].star
            and self.value(node.args[0].value) == STRING
        )

    def _is_joined_append(self, call: cst.Call) -> bool:
        """``parts.append(text)`` adds nothing to ``"".join(parts)`` for an empty text, when
        joining is all ``parts`` is used for."""
        return (
            isinstance(call.func, cst.Attribute)
            and call.func.attr.value == "append"
            and len(call.args) == 1
            and call.args[0].keyword is None
            and not call.args[0].star
            and self.value(call.args[0].value) == STRING
            and self.only_joined(call.func.value)
        )

    def _is_text_rewritten(self, small: cst.Assign) -> bool:
        """``partial = partial.replace("```", "")``, for a name the text was added to: for an
        empty text it rewrites the text so far again; ``rewrites_again`` collects it."""
        target = small.targets[0].target if len(small.targets) == 1 else None
        rewritten = rewritten_from(small.value)
        if not (isinstance(target, cst.Name) and target.value in self.accumulated and rewritten is not None and rewritten[0].value == target.value):
            return False
        self.rewrites_again.append(small)
        return True

    def _is_alias_assignment(self, small: cst.Assign) -> bool:
        target = small.targets[0].target if len(small.targets) == 1 else None
        kind = self.value(small.value)
        if not (isinstance(target, cst.Name) and target.value in self.aliases and kind is not None):
            return False
        self.names[target.value] = kind
        return True

    def _is_silent_print(self, call: cst.Call) -> bool:
        """``print(text, end="")`` prints nothing for an empty text."""
        printed = self._printed_without_newline(call)
        return printed is not None and self.value(printed) == STRING

    def _printed_without_newline(self, node: cst.BaseExpression) -> Optional[cst.BaseExpression]:
        """The one value ``print(value, end="")`` prints (with no other effect), else None."""
        if not (isinstance(node, cst.Call) and isinstance(node.func, cst.Name) and node.func.value == "print"):
            return None
        positional = [arg for arg in node.args if arg.keyword is None]
        keywords = {arg.keyword.value: arg.value for arg in node.args if arg.keyword is not None}
        if len(positional) != 1 or positional[0].star:
            return None
        if "end" not in keywords or literal_string(keywords["end"]) != "":
            return None
        plain = set(keywords) <= {"end", "flush", "file", "sep"} and all(
            _is_plain_target(value) or isinstance(value, (cst.Name, cst.SimpleString)) for value in keywords.values()
        )
        return positional[0].value if plain else None

    def _is_silent_write(self, call: cst.Call) -> bool:
        """``sys.stdout.write(text)`` writes nothing for an empty text."""
        return (
            isinstance(call.func, cst.Attribute)
            and call.func.attr.value == "write"
            and _is_plain_target(call.func.value)
            and len(call.args) == 1
            and call.args[0].keyword is None
            and not call.args[0].star
            and self.value(call.args[0].value) == STRING
        )


def joined_list(node: Optional[cst.BaseExpression]) -> Optional[cst.BaseExpression]:
    """The list ``"".join(parts)`` joins with nothing between."""
    if not (isinstance(node, cst.Call) and isinstance(node.func, cst.Attribute) and node.func.attr.value == "join"):
        return None
    if literal_string(node.func.value) != "" or len(node.args) != 1 or node.args[0].keyword is not None or node.args[0].star:
        return None
    return node.args[0].value


def is_not_none_test(node: cst.BaseExpression) -> bool:
    """``x is not None``."""
    return _compares_with_none(node, cst.IsNot)


def _is_none_test(node: cst.BaseExpression) -> bool:
    """``x is None``."""
    return _compares_with_none(node, cst.Is)


def _compares_with_none(node: cst.BaseExpression, operator: type) -> bool:
    return (
        isinstance(node, cst.Comparison)
        and len(node.comparisons) == 1
        and isinstance(node.comparisons[0].operator, operator)
        and is_constant(node.comparisons[0].comparator, "None")
    )


def only_continues(body: cst.BaseSuite) -> bool:
    """Is ``body`` (of an ``if``) just ``continue``?"""
    statements = body.body
    if isinstance(body, cst.IndentedBlock):
        if not (len(statements) == 1 and isinstance(statements[0], cst.SimpleStatementLine)):
            return False
        statements = statements[0].body
    return len(statements) == 1 and isinstance(statements[0], cst.Continue)


def _not_none_operand(test: cst.BaseExpression) -> cst.BaseExpression:
    """The ``x`` of the ``x is not None`` a WEAK test is made of."""
    while isinstance(test, cst.BooleanOperation):
        test = test.left if is_not_none_test(test.left) else test.right
    return test.left


def _is_plain_target(node: cst.BaseExpression) -> bool:
    """A name, an attribute of one or a constant index into one: nothing runs to read it."""
    chain = chain_of(node)
    return chain is not None and CALL not in chain[1]


# -- building the new loop body ---------------------------------------------------------------


Rewrite = Callable[[cst.BaseStatement], cst.BaseStatement]


@dataclass
class Segment:
    """What becomes of some statements of a loop body (by their indexes in it)."""

    indexes: List[int]
    build: Callable[[List[cst.BaseStatement], Rewrite], List[cst.BaseStatement]]


def assemble(segments: Sequence[Segment], statements: Sequence[cst.BaseStatement], rewrite: Rewrite) -> List[cst.BaseStatement]:
    """The statements the segments make; the comments of removed statements move down."""
    produced: List[cst.BaseStatement] = []
    carried: List[cst.EmptyLine] = []
    for segment in segments:
        nodes = [statements[index] for index in segment.indexes]
        new = segment.build(nodes, rewrite)
        if not new:
            carried += [line for node in nodes for line in node.leading_lines if line.comment is not None]
            continue
        if carried:
            new[0] = new[0].with_changes(leading_lines=[*carried, *new[0].leading_lines])
            carried = []
        produced.extend(new)
    if not produced:
        produced.append(cst.SimpleStatementLine([cst.Pass()], leading_lines=carried))
    return produced


def keep() -> Callable:
    return lambda nodes, rewrite: [rewrite(node) for node in nodes]


def remove() -> Callable:
    return lambda nodes, rewrite: []


def gate_test(gate: Gate, event: str, extra: Optional[cst.BaseExpression] = None) -> cst.BaseExpression:
    """The test ``gate`` makes of the loop variable ``event`` (``and extra``, a simple test). With
    three operands or more it is laid out one operand per line, in parentheses."""
    operands = [operand.format(event=event) for operand in gate]
    if extra is not None:
        operands.append(code_of(extra) if _binds_tighter_than_and(extra) else f"({code_of(extra)})")
    if len(operands) < 3:
        return cst.parse_expression(" and ".join(operands))
    lines = "".join(f"    {'and ' if position else ''}{operand}\n" for position, operand in enumerate(operands))
    return cst.parse_statement(f"if (\n{lines}):\n    pass\n").test


def _binds_tighter_than_and(node: cst.BaseExpression) -> bool:
    """Can ``node`` be an operand of ``and`` without parentheses?"""
    if node.lpar:
        return True
    if isinstance(node, cst.BooleanOperation):
        return isinstance(node.operator, cst.And)
    return not isinstance(node, (cst.NamedExpr, cst.Lambda, cst.IfExp))


def wrap(gate: Gate, event: str, leave_out: Sequence[int] = ()) -> Callable:
    """Put the statements under ``if <gate>:``, but those at the positions ``leave_out``,
    whose comments go to the statement after them."""

    def build(nodes, rewrite):
        kept = [Segment([position], remove() if position in leave_out else keep()) for position in range(len(nodes))]
        inner = assemble(kept, nodes, rewrite)
        leading = inner[0].leading_lines
        inner[0] = inner[0].with_changes(leading_lines=[])
        return [cst.If(test=gate_test(gate, event), body=cst.IndentedBlock(body=inner), leading_lines=leading)]

    return build


def retest(
    gates: Sequence[Gate], event: str, inner: Optional[Sequence[Segment]] = None, keep: Union[bool, Sequence[bool]] = False
) -> Callable:
    """Replace the tests of an ``if`` / ``elif`` chain by ``gates`` (``keep``: by ``gate and
    <the test as rewritten>``, for every branch or branch by branch); ``inner`` rebuilds the
    body of the ``if``."""
    keeps = [keep] * len(gates) if isinstance(keep, bool) else list(keep)

    def build(nodes, rewrite):
        node = rewrite(nodes[0])
        if inner is not None:
            body = assemble(inner, list(node.body.body), lambda statement: statement)
            node = node.with_changes(body=node.body.with_changes(body=body))
        return [_replace_tests(node, list(gates), event, keeps)]

    return build


def _replace_tests(node: cst.If, gates: List[Gate], event: str, keeps: List[bool]) -> cst.If:
    orelse = node.orelse
    if isinstance(orelse, cst.If):
        orelse = _replace_tests(orelse, gates[1:], event, keeps[1:])
    test = gate_test(gates[0], event, node.test if keeps[0] else None)
    return node.with_changes(test=test, orelse=orelse)


def if_chain(node: cst.CSTNode) -> Optional[List[cst.If]]:
    """The ``if`` and its ``elif`` branches; None when the chain ends with ``else``."""
    branches = []
    while isinstance(node, cst.If):
        branches.append(node)
        node = node.orelse
    return branches if node is None else None


def none_printed(code: str, where: str) -> str:
    """Why ``code``, a print of a text that may be None, does something ``where`` there is none."""
    return f"`{code}` prints `None` when the text is None, as it can be {where}; with `or \"\"` it would print nothing"
