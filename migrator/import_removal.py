"""Removes imports a migration left unused, keeping the blank lines that separate the import
sections: a removed line's blank lines go to the line after it, so the import after a removed
first import of a section stays apart from the section before (as the project's sorter wants).

It loads LibCST's codemod package, whose matchers cost more than LibCST itself: only the
rewrites that remove imports import this module.
"""

from __future__ import annotations

from typing import List, Sequence, Set

import libcst as cst
from libcst.codemod import CodemodContext
from libcst.codemod.visitors import RemoveImportsVisitor

from migrator.rule import Import


def remove_unused_imports(module: cst.Module, unused: Sequence[Import]) -> cst.Module:
    """``module`` without those of ``unused`` that nothing reads any more."""
    context = CodemodContext()
    for an_import in unused:
        RemoveImportsVisitor.remove_unused_import(context, an_import.module, an_import.name, an_import.alias)
    return _KeepingSeparators(context).transform_module(module)


class _KeepingSeparators(RemoveImportsVisitor):
    def __init__(self, context: CodemodContext) -> None:
        super().__init__(context)
        self.emptied: Set[cst.SimpleStatementLine] = set()

    def leave_SimpleStatementLine(
        self, original_node: cst.SimpleStatementLine, updated_node: cst.SimpleStatementLine
    ) -> cst.SimpleStatementLine:
        if not updated_node.body:  # LibCST drops the line once it is left
            self.emptied.add(original_node)
        return updated_node

    def leave_Module(self, original_node: cst.Module, updated_node: cst.Module) -> cst.Module:
        kept = iter(updated_node.body)  # the original lines but the emptied ones, in order
        body: List[cst.BaseStatement] = []
        carried: Sequence[cst.EmptyLine] = ()
        for line in original_node.body:
            if line in self.emptied:
                carried = carried or line.leading_lines
                continue
            statement = next(kept)
            if carried and not _starts_blank(statement.leading_lines):
                statement = statement.with_changes(leading_lines=[*_blank_start(carried), *statement.leading_lines])
            carried = ()
            body.append(statement)
        return updated_node.with_changes(body=body)


def _starts_blank(lines: Sequence[cst.EmptyLine]) -> bool:
    return bool(lines) and lines[0].comment is None


def _blank_start(lines: Sequence[cst.EmptyLine]) -> List[cst.EmptyLine]:
    """The blank lines ``lines`` start with (the comments after them were about the removed import)."""
    blank: List[cst.EmptyLine] = []
    for line in lines:
        if line.comment is not None:
            break
        blank.append(line)
    return blank
