"""Turns migration plans into code: one pass over the tree, replacing the planned nodes.

Every replacement is built from the *updated* node, so rewrites nested inside another
(an answer read inside the next call's ``messages``) survive. Then the imports the rewrites ask
for are added, those they leave unused are removed, and the helpers they call are defined once,
after the imports.
"""

from __future__ import annotations

from collections import Counter
from typing import Callable, Dict, List, Optional, Sequence, Tuple, Union

import libcst as cst
from libcst.helpers import parse_template_expression

from migrator.import_placement import add_imports, import_block
from migrator.model import Options
from migrator.planner import ArgumentPlan, SitePlan
from migrator.rule import Block, NewArgument, Rewrite, UseRewrite
from migrator.shapes import is_name, walk

Build = Callable[[cst.CSTNode], cst.CSTNode]
# The position ``_layout`` gets for an argument the migrated call adds (a new default): it
# takes the place after the original last argument.
ADDED = -1


def apply_plans(module: cst.Module, plans: Sequence[SitePlan], options: Options, fixes: Sequence[UseRewrite] = ()) -> cst.Module:
    """``module`` with the migrated calls of ``plans`` and the ``fixes`` of module hooks."""
    builds: Dict[cst.CSTNode, Build] = {fix.target: fix.build for fix in fixes}
    notes: Dict[cst.CSTNode, List[str]] = {}
    kept: Dict[cst.CSTNode, List[cst.Comment]] = {}  # comments of rewritten arguments, by the statement they go above
    use_rewrites: List[UseRewrite] = list(fixes)
    for plan in plans:
        if plan.target is not None:  # else it rewrites the reads of what a call in another module returns
            builds[plan.site.call] = _call_builder(plan, options, kept.setdefault(plan.site.statement, []))
        for _, use_rewrite in plan.use_rewrites + plan.shared_rewrites:
            builds.setdefault(use_rewrite.target, use_rewrite.build)
            use_rewrites.append(use_rewrite)
        for note in _notes(plan, options):
            notes.setdefault(plan.site.statement, []).append(note)
    module = _update_imports(module.visit(_Replacer(builds, notes, kept)), use_rewrites)
    return _add_definitions(module, use_rewrites)


def _update_imports(module: cst.Module, rewrites: Sequence[UseRewrite]) -> cst.Module:
    """Add the imports the rewritten code needs; remove those it no longer uses."""
    added = sorted({needed for rewrite in rewrites for needed in rewrite.add_imports}, key=str)
    removed = sorted({unused for rewrite in rewrites for unused in rewrite.remove_unused_imports}, key=str)
    if not (added or removed):
        return module
    module = add_imports(module, added)
    if removed:
        from migrator.import_removal import remove_unused_imports  # see its docstring: it costs

        module = _without_emptied_blocks(remove_unused_imports(module, removed))
    return module


def _without_emptied_blocks(module: cst.Module) -> cst.Module:
    """Drop the top-level ``if TYPE_CHECKING:`` blocks left empty by removed imports, then the
    ``TYPE_CHECKING`` import if nothing else uses it."""
    body = [statement for statement in module.body if not _is_emptied_block(module, statement)]
    if len(body) == len(module.body):
        return module
    from libcst.codemod import CodemodContext
    from libcst.codemod.visitors import RemoveImportsVisitor

    context = CodemodContext()
    RemoveImportsVisitor.remove_unused_import(context, "typing", "TYPE_CHECKING")
    return RemoveImportsVisitor(context).transform_module(module.with_changes(body=body))


def _is_emptied_block(module: cst.Module, statement: cst.BaseStatement) -> bool:
    """``if TYPE_CHECKING:`` with an empty body (only an import removal makes one) and no comment."""
    return (
        isinstance(statement, cst.If)
        and _is_type_checking(statement.test)
        and isinstance(statement.body, cst.IndentedBlock)
        and not statement.body.body
        and statement.orelse is None
        and "#" not in module.code_for_node(statement)
    )


def _add_definitions(module: cst.Module, rewrites: Sequence[UseRewrite]) -> cst.Module:
    """Define the helpers the rewritten code calls, once each, at the end of the import block
    the imports from openai they need were just added to."""
    wanted = dict.fromkeys(code for rewrite in rewrites for code in rewrite.add_definitions)
    if not wanted:
        return module
    present = {module.code_for_node(statement).strip() for statement in module.body}
    missing = [code for code in wanted if code.strip() not in present]
    if not missing:
        return module
    blank_lines = [cst.EmptyLine(), cst.EmptyLine()]
    helpers = [
        cst.parse_statement(code, config=module.config_for_parsing).with_changes(leading_lines=blank_lines)
        for code in missing
    ]
    body = list(module.body)
    _, index = import_block(body, "openai")
    if index < len(body):
        body[index] = _with_blank_lines_before(body[index], len(blank_lines))
    return module.with_changes(body=[*body[:index], *helpers, *body[index:]])


def _only_statement(statement: cst.BaseStatement) -> Optional[cst.BaseSmallStatement]:
    """The small statement ``statement`` is a line of, if it is a line of one."""
    if isinstance(statement, cst.SimpleStatementLine) and len(statement.body) == 1:
        return statement.body[0]
    return None


def _is_type_checking(test: cst.BaseExpression) -> bool:
    """``TYPE_CHECKING`` or ``typing.TYPE_CHECKING``."""
    if isinstance(test, cst.Attribute):
        return is_name(test.value, "typing") and test.attr.value == "TYPE_CHECKING"
    return is_name(test, "TYPE_CHECKING")


def _with_blank_lines_before(statement: cst.BaseStatement, count: int) -> cst.BaseStatement:
    blank = 0
    while blank < len(statement.leading_lines) and statement.leading_lines[blank].comment is None:
        blank += 1
    missing = [cst.EmptyLine()] * max(0, count - blank)
    return statement.with_changes(leading_lines=[*missing, *statement.leading_lines])


class _Replacer(cst.CSTTransformer):
    """Replaces the planned nodes. The comment lines above a statement that goes (an alias of
    part of the result, say) stay where they were: above the statement that now follows, or at
    the end of the block when none does."""

    def __init__(self, builds: Dict[cst.CSTNode, Build], notes: Dict[cst.CSTNode, List[str]], kept: Dict[cst.CSTNode, List[cst.Comment]]) -> None:
        self.builds = builds
        self.notes = notes
        self.kept = kept
        self.ancestors: List[cst.CSTNode] = []
        self.carried: Dict[cst.CSTNode, List[cst.EmptyLine]] = {}  # by the block they were in

    def on_visit(self, node: cst.CSTNode) -> bool:
        self.ancestors.append(node)
        return True

    def on_leave(self, original_node, updated_node):
        self.ancestors.pop()
        block = self.ancestors[-1] if self.ancestors else None
        build = self.builds.get(original_node)
        if build is not None:
            updated_node = _keeping_parentheses(updated_node, build(updated_node))
        if isinstance(updated_node, cst.RemovalSentinel):
            if isinstance(original_node, cst.BaseStatement):
                comments = _comments_of(original_node)
                if comments:
                    self.carried.setdefault(block, []).extend(comments)
            return updated_node
        if isinstance(original_node, cst.BaseStatement) and block in self.carried:
            updated_node = _with_lines_above(updated_node, self.carried.pop(block))
        if original_node in self.carried:  # the block's last statements went
            updated_node = updated_node.with_changes(footer=[*self.carried.pop(original_node), *updated_node.footer])
        comments = [*self.kept.get(original_node, ()), *(cst.Comment(f"# migrator: {note}") for note in self.notes.get(original_node, ()))]
        if comments:
            lines = [cst.EmptyLine(comment=comment) for comment in comments]
            updated_node = updated_node.with_changes(leading_lines=[*updated_node.leading_lines, *lines])
        return updated_node


def _has_comment(lines: Sequence[cst.EmptyLine]) -> bool:
    return any(line.comment is not None for line in lines)


def _comments_of(statement: cst.BaseStatement) -> List[cst.EmptyLine]:
    """What of a removed statement stays: its lines above, when they hold a comment, and the
    comment after it on its line (``x = ...  # may be None``), as a line of its own."""
    lines = list(statement.leading_lines) if _has_comment(statement.leading_lines) else []
    trailing = getattr(statement, "trailing_whitespace", None)
    if trailing is not None and trailing.comment is not None:
        lines.append(cst.EmptyLine(comment=trailing.comment))
    return lines


def _with_lines_above(statement: Union[cst.BaseStatement, cst.FlattenSentinel], lines: List[cst.EmptyLine]):
    """``statement`` (or the first of the statements it became) with ``lines`` above its own."""
    if isinstance(statement, cst.FlattenSentinel):
        first, *rest = statement.nodes
        return cst.FlattenSentinel([_with_lines_above(first, lines), *rest])
    return statement.with_changes(leading_lines=[*lines, *statement.leading_lines])


def _keeping_parentheses(before: cst.CSTNode, built: cst.CSTNode) -> cst.CSTNode:
    """``built`` in the parentheses that wrapped the node it replaces, if it brings none: they may
    hold comments and line breaks (``(resp.choices[0]  # first\n .message.content)``)."""
    if getattr(before, "lpar", None) and isinstance(built, cst.BaseExpression) and not built.lpar:
        return built.with_changes(lpar=before.lpar, rpar=before.rpar)
    return built


def _notes(plan: SitePlan, options: Options) -> List[str]:
    notes = []
    for blocker in plan.blockers:
        if blocker.unsafe is not None and blocker.unsafe.note and options.unsafe_fixes and blocker.unsafe.note not in notes:
            notes.append(blocker.unsafe.note)  # once, however many reads it covers
    return notes


def _call_builder(plan: SitePlan, options: Options, kept: List[cst.Comment]) -> Build:
    """Builds the migrated call; the comments of its arguments that the new ones do not hold (a
    message commented out in a list that became ``input="..."``, the comment after an argument
    the Responses API does without) go to ``kept``, to be written above the call's statement."""
    site = plan.site

    def build(call: cst.Call) -> cst.Call:
        func = _retarget(call.func, plan)
        produced: List[Tuple[int, cst.Arg]] = []
        for index, (arg, argument_plan) in enumerate(zip(call.args, plan.arguments)):
            if argument_plan.hook is None:
                produced.append((index, arg))
                continue
            for new in _rewrite_of(argument_plan, arg, site).arguments:
                produced.append((index, _keyword_arg(new, arg)))
        added = list(plan.target.added)
        if options.store_false and not site.has_argument("store"):
            added.append(NewArgument("store", cst.Name("False")))
        for new in added:
            produced.append((ADDED, _keyword_arg(new, call.args[0])))
        args = _layout(_merge_dicts(produced), call.args)
        kept.extend(_lost_comments(call.args, args))
        return call.with_changes(func=func, args=args)

    return build


def _lost_comments(before: Sequence[cst.CSTNode], after: Sequence[cst.CSTNode]) -> List[cst.Comment]:
    """The comments of ``before`` that none of ``after`` holds, in order."""
    left = Counter(node.value for value in after for node in walk(value) if isinstance(node, cst.Comment))
    lost = []
    for node in (inner for value in before for inner in walk(value)):
        if isinstance(node, cst.Comment):
            if left[node.value]:
                left[node.value] -= 1
            else:
                lost.append(node)
    return lost


def _rewrite_of(argument_plan: ArgumentPlan, arg: cst.Arg, site) -> Rewrite:
    outcome = argument_plan.hook(arg.keyword.value, arg.value, site)
    if isinstance(outcome, Block):
        assert outcome.unsafe is not None, "a blocked plan is never applied"
        return outcome.unsafe
    return outcome


def _keyword_arg(new: NewArgument, style: cst.Arg) -> cst.Arg:
    equal = style.equal if style.keyword is not None else cst.AssignEqual(
        whitespace_before=cst.SimpleWhitespace(""), whitespace_after=cst.SimpleWhitespace("")
    )
    return cst.Arg(keyword=cst.Name(new.keyword), value=new.value, equal=equal)


def _retarget(func: cst.BaseExpression, plan: SitePlan) -> cst.BaseExpression:
    """``client.chat.completions[.wrapper].create`` -> ``client.responses[.wrapper].create``."""
    depth = len(plan.site.resource) + 1 + (1 if plan.site.wrapper else 0)
    receiver = func
    for _ in range(depth):
        receiver = receiver.value
    resource, _, method = plan.target.method.rpartition(".")
    wrapper = f".{plan.site.wrapper}" if plan.site.wrapper else ""
    return parse_template_expression(f"{{receiver}}.{resource}{wrapper}.{method}", receiver=receiver)


def _merge_dicts(produced: List[Tuple[int, cst.Arg]]) -> List[Tuple[int, cst.Arg]]:
    """Two rules may both write ``text={...}``: keep one argument holding both dicts' entries."""
    merged: List[Tuple[int, cst.Arg]] = []
    seen: Dict[str, int] = {}
    for index, arg in produced:
        keyword = arg.keyword.value if arg.keyword else None
        if keyword in seen and isinstance(arg.value, cst.Dict):
            position = seen[keyword]
            first_index, first = merged[position]
            if isinstance(first.value, cst.Dict):
                elements = [*_with_commas(first.value.elements), *arg.value.elements]
                merged[position] = (first_index, first.with_changes(value=first.value.with_changes(elements=elements)))
                continue
        if keyword is not None:
            seen[keyword] = len(merged)
        merged.append((index, arg))
    return merged


def _with_commas(elements: Sequence[cst.BaseDictElement]) -> List[cst.BaseDictElement]:
    return [
        e.with_changes(comma=cst.Comma(whitespace_after=cst.SimpleWhitespace(" ")))
        if e.comma is cst.MaybeSentinel.DEFAULT
        else e
        for e in elements
    ]


def _layout(produced: List[Tuple[int, cst.Arg]], original: Sequence[cst.Arg]) -> List[cst.Arg]:
    """Give the new argument list the commas and line breaks of the original one.

    What follows an original argument's comma (a comment, comment lines before the next
    argument) comes once, after the last argument made from it: never repeated when the argument
    became several, never carried by an added argument.
    """
    last = original[-1]
    separator = _bare(
        next(
            (a.comma for a in original[:-1] if isinstance(a.comma, cst.Comma)),
            cst.Comma(whitespace_after=cst.SimpleWhitespace(" ")),
        )
    )
    last_made_from = {index: position for position, (index, _) in enumerate(produced) if index != ADDED}
    args = []
    for position, (index, arg) in enumerate(produced):
        source = original[index]
        if position == len(produced) - 1:
            comma, after = last.comma, last.whitespace_after_arg
        elif source is not last and index != ADDED and isinstance(source.comma, cst.Comma):
            comma, after = source.comma, source.whitespace_after_arg
        else:
            comma, after = separator, cst.SimpleWhitespace("")
        if last_made_from.get(index) == position:
            comma = _with_comments_of(comma, source.comma)
        else:
            comma = _bare(comma)
        args.append(arg.with_changes(comma=comma, whitespace_after_arg=after))
    return args


def _bare(comma: Union[cst.Comma, cst.MaybeSentinel]) -> Union[cst.Comma, cst.MaybeSentinel]:
    """``comma`` with no comment on the rest of its line and no comment lines after it."""
    whitespace = getattr(comma, "whitespace_after", None)
    if not isinstance(whitespace, cst.ParenthesizedWhitespace):
        return comma
    first_line = cst.TrailingWhitespace(newline=whitespace.first_line.newline)
    return comma.with_changes(whitespace_after=whitespace.with_changes(first_line=first_line, empty_lines=()))


def _with_comments_of(
    comma: Union[cst.Comma, cst.MaybeSentinel], source: Union[cst.Comma, cst.MaybeSentinel]
) -> Union[cst.Comma, cst.MaybeSentinel]:
    """``comma`` followed by the comments that follow the comma ``source``."""
    whitespace = getattr(comma, "whitespace_after", None)
    comments = getattr(source, "whitespace_after", None)
    if not isinstance(whitespace, cst.ParenthesizedWhitespace):
        return comma
    if not isinstance(comments, cst.ParenthesizedWhitespace):
        return _bare(comma)
    return comma.with_changes(
        whitespace_after=whitespace.with_changes(first_line=comments.first_line, empty_lines=comments.empty_lines)
    )
