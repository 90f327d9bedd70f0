"""Adds imports where the project's import sorter would put them, so a migrated file still
passes `ruff check --select I` (and isort's ordering) when the original did.

A name is merged into the module's ``from <module> import ...`` when it has one, in the order
of the names, keeping that import's layout (on one line, or one name per line). Otherwise a new
``from <module> import ...`` joins the first import block in its section (future, standard
library, third party, first party, relative), in sorted order, with a blank line between
sections. The order is isort's default profile and ruff's ``I`` defaults: within a section
``import x`` lines before ``from x import`` lines, modules compared case-insensitively with
numbers in them compared as numbers, and imported names constants first, then classes, then
the rest.

Which absolute imports are the project's own cannot be told from a file (the sorters look at
the folders): the file's layout says it instead. The blank-line group holding an ``openai``
import is third party and any group of absolute imports after it first party; without one,
the first group of absolute imports outside the standard library is third party.
"""

from __future__ import annotations

import re
import sys
from typing import Dict, List, Optional, Sequence, Tuple

import libcst as cst

from migrator.rule import Import

# ruff's default `line-length`, beyond which its sorter wraps an import one name per line.
LINE_LENGTH = 88
FUTURE, STANDARD_LIBRARY, THIRD_PARTY, FIRST_PARTY, RELATIVE = range(5)


def add_imports(module: cst.Module, needed: Sequence[Import]) -> cst.Module:
    """``module`` importing each of ``needed`` (those it already imports are left as they are)."""
    wanted: Dict[str, List[Import]] = {}
    for an_import in needed:
        if not _imports(module, an_import):
            wanted.setdefault(an_import.module, []).append(an_import)
    for imports in wanted.values():
        module = _merged(module, imports) or _inserted(module, imports)
    return module


def _imports(module: cst.Module, an_import: Import) -> bool:
    for statement in _top_level_from_imports(module, an_import.module):
        if isinstance(statement.names, cst.ImportStar):
            return True
        for alias in statement.names:
            if alias.evaluated_name == an_import.name and alias.evaluated_alias == an_import.alias:
                return True
    return False


def _top_level_from_imports(module: cst.Module, name: str) -> List[cst.ImportFrom]:
    return [
        statement
        for line in module.body
        if isinstance(line, cst.SimpleStatementLine)
        for statement in line.body
        if isinstance(statement, cst.ImportFrom)
        and not statement.relative
        and statement.module is not None
        and _dotted(statement.module) == name
    ]


def _merged(module: cst.Module, imports: Sequence[Import]) -> Optional[cst.Module]:
    """``module`` with the names added to its ``from <module> import`` names, if it has one."""
    existing = [s for s in _top_level_from_imports(module, imports[0].module) if not isinstance(s.names, cst.ImportStar)]
    if not existing:
        return None
    statement = existing[0]
    names = list(statement.names)
    vertical = statement.lpar is not None and _one_per_line(names)
    for an_import in sorted(imports, key=_member_key):
        position = next((i for i, alias in enumerate(names) if _member_key(_as_import(alias)) > _member_key(an_import)), len(names))
        names = _with_alias(names, position, _alias(an_import), module, vertical)
    updated = statement.with_changes(names=names)
    if not vertical and len(module.code_for_node(updated)) > LINE_LENGTH:
        updated = _wrapped(updated, module)
    return module.deep_replace(statement, updated)


def _one_per_line(names: Sequence[cst.ImportAlias]) -> bool:
    return all(
        isinstance(alias.comma, cst.Comma) and isinstance(alias.comma.whitespace_after, cst.ParenthesizedWhitespace)
        for alias in names[:-1]
    ) and len(names) > 1


def _with_alias(
    names: List[cst.ImportAlias], position: int, alias: cst.ImportAlias, module: cst.Module, vertical: bool
) -> List[cst.ImportAlias]:
    """``names`` with ``alias`` at ``position``: separated as the other names are, the last name
    keeping what followed it (a trailing comma, the line break before the parenthesis)."""
    if vertical:
        separator = names[0].comma.with_changes(
            whitespace_after=names[0].comma.whitespace_after.with_changes(
                first_line=cst.TrailingWhitespace(newline=cst.Newline()), empty_lines=()
            )
        )
    else:
        separator = cst.Comma(whitespace_after=cst.SimpleWhitespace(" "))
    if position < len(names):
        return [*names[:position], alias.with_changes(comma=separator), *names[position:]]
    last = names[-1]
    return [*names[:-1], last.with_changes(comma=separator), alias.with_changes(comma=last.comma)]


def _wrapped(statement: cst.ImportFrom, module: cst.Module) -> cst.ImportFrom:
    """``from m import (`` with one name per line and a trailing comma, as ruff wraps a long import."""

    def line_break(indent: bool) -> cst.ParenthesizedWhitespace:
        return cst.ParenthesizedWhitespace(
            first_line=cst.TrailingWhitespace(newline=cst.Newline()),
            indent=indent,
            last_line=cst.SimpleWhitespace(module.default_indent if indent else ""),
        )

    names = [alias.with_changes(comma=cst.Comma(whitespace_after=line_break(True))) for alias in statement.names]
    names[-1] = names[-1].with_changes(comma=cst.Comma(whitespace_after=line_break(False)))
    return statement.with_changes(
        names=names,
        lpar=cst.LeftParen(whitespace_after=line_break(True)),
        rpar=cst.RightParen(),
    )


def _inserted(module: cst.Module, imports: Sequence[Import]) -> cst.Module:
    """``module`` with a new ``from <module> import ...`` in its first import block."""
    names = [_alias(an_import) for an_import in sorted(imports, key=_member_key)]
    names = [alias.with_changes(comma=cst.Comma(whitespace_after=cst.SimpleWhitespace(" "))) for alias in names[:-1]] + names[-1:]
    statement = cst.ImportFrom(module=cst.parse_expression(imports[0].module), names=names)
    if len(module.code_for_node(statement)) > LINE_LENGTH:
        statement = _wrapped(statement, module)
    line = cst.SimpleStatementLine(body=[statement])
    body = list(module.body)
    start, end = import_block(body, _top(imports[0].module))
    sections = _sections(body[start:end])
    new_section = _section(imports[0].module)
    new_key = (new_section, _statement_key(statement))
    index = next(
        (start + i for i, line_in_block in enumerate(body[start:end]) if (sections[i], _statement_key(_only(line_in_block))) > new_key),
        end,
    )
    previous = sections[index - start - 1] if index > start else None
    following = sections[index - start] if index < end else None
    if index < end:
        after = body[index]
        if previous is None:  # first of the block: it takes the lines above the block
            line = line.with_changes(leading_lines=after.leading_lines)
            after = after.with_changes(leading_lines=_comments(after.leading_lines))
        body[index] = _separated(after, following != new_section)
    elif start == end and index < len(body):  # no imports: before the first statement, two blank lines after
        line = line.with_changes(leading_lines=body[index].leading_lines)
        body[index] = _separated(body[index].with_changes(leading_lines=_comments(body[index].leading_lines)), True, 2)
    if previous is not None:
        line = _separated(line, previous != new_section)
    return module.with_changes(body=[*body[:index], line, *body[index:]])


def _separated(line: cst.BaseStatement, blank: bool, count: int = 1) -> cst.BaseStatement:
    """``line`` with ``count`` blank lines above its comments when ``blank``, with none otherwise."""
    comments = _comments(line.leading_lines)
    return line.with_changes(leading_lines=[*[cst.EmptyLine()] * (count if blank else 0), *comments])


def _comments(lines: Sequence[cst.EmptyLine]) -> List[cst.EmptyLine]:
    """``lines`` without the blank ones at their start."""
    lines = list(lines)
    while lines and lines[0].comment is None:
        lines.pop(0)
    return lines


def import_block(body: Sequence[cst.BaseStatement], package: str) -> Tuple[int, int]:
    """Where the import lines an import of ``package`` joins start and end (``end`` is past the
    last): the first block, after the docstring, unless the module first imports the package
    in a later block, after code (``load_dotenv()``) it may run to set what the package reads
    when it loads (``openai`` reads ``OPENAI_LOG`` and ``OPENAI_API_TYPE``): that block."""
    start, end = _first_import_block(body)
    if any(_imports_package(line, package) for line in body[start:end]):
        return start, end
    later = next((index for index in range(end, len(body)) if _imports_package(body[index], package)), None)
    if later is None:
        return start, end
    start = end = later
    while start > 0 and isinstance(_only(body[start - 1]), (cst.Import, cst.ImportFrom)):
        start -= 1
    while end < len(body) and isinstance(_only(body[end]), (cst.Import, cst.ImportFrom)):
        end += 1
    return start, end


def _imports_package(line: cst.BaseStatement, package: str) -> bool:
    """Is ``line`` an import of ``package`` or of a module of it?"""
    statement = _only(line)
    if isinstance(statement, cst.Import):
        return any(_top(_dotted(alias.name)) == package for alias in statement.names)
    return isinstance(statement, cst.ImportFrom) and not statement.relative and statement.module is not None and _top(_dotted(statement.module)) == package


def _first_import_block(body: Sequence[cst.BaseStatement]) -> Tuple[int, int]:
    """Where the import lines after the docstring start and end (``end`` is past the last)."""
    start = 1 if body and isinstance(_only(body[0]), cst.Expr) and isinstance(_only(body[0]).value, cst.SimpleString) else 0
    end = start
    while end < len(body) and isinstance(_only(body[end]), (cst.Import, cst.ImportFrom)):
        end += 1
    return start, end


def _only(line: cst.BaseStatement) -> Optional[cst.BaseSmallStatement]:
    if isinstance(line, cst.SimpleStatementLine) and len(line.body) == 1:
        return line.body[0]
    return None


def _sections(block: Sequence[cst.BaseStatement]) -> List[int]:
    """The section of each import line of ``block``, the project's own told from third party by
    the file's blank-line groups (see the module's docstring)."""
    sections = [_section(_statement_module(_only(line))) for line in block]
    groups: List[List[int]] = []
    for position, line in enumerate(block):
        if not groups or any(empty.comment is None for empty in line.leading_lines):
            groups.append([])
        groups[-1].append(position)
    absolute = [group for group in groups if any(sections[i] == THIRD_PARTY for i in group)]
    third_party = next(
        (g for g in absolute if any(_top(_statement_module(_only(block[i]))) == "openai" for i in g)),
        absolute[0] if absolute else None,
    )
    for group in absolute:
        if third_party is not None and groups.index(group) > groups.index(third_party):
            for i in group:
                if sections[i] == THIRD_PARTY:
                    sections[i] = FIRST_PARTY
    return sections


def _section(module_name: str) -> int:
    if module_name.startswith("."):
        return RELATIVE
    top = _top(module_name)
    # `__future__` must come first; so must `%pip install`, which a notebook gives as the import
    # of a dunder placeholder (see migrator.notebook.Masker).
    if top.startswith("__") and top.endswith("__"):
        return FUTURE
    if top in _standard_library():
        return STANDARD_LIBRARY
    return THIRD_PARTY


def _statement_module(statement: cst.BaseSmallStatement) -> str:
    if isinstance(statement, cst.Import):
        return _dotted(statement.names[0].name)
    dots = "." * len(statement.relative)
    return dots + (_dotted(statement.module) if statement.module is not None else "")


def _statement_key(statement: cst.BaseSmallStatement) -> tuple:
    """isort's and ruff's order: ``import x`` before ``from x import``, then by module, then by
    the first name imported."""
    if isinstance(statement, cst.Import):
        return (0, _module_key(_dotted(statement.names[0].name)), ())
    first = _as_import(statement.names[0]) if not isinstance(statement.names, cst.ImportStar) else None
    member = _member_key(first) if first is not None else ()
    return (1, _module_key(_statement_module(statement)), member)


def _module_key(name: str) -> tuple:
    return (_natural(name.lower()), _natural(name))


def _member_key(an_import: Import) -> tuple:
    """Constants (``ALL_CAPS``), then classes (``Capitalised``), then the rest, each case-insensitively."""
    name = an_import.name
    kind = 0 if len(name) > 1 and name.isupper() else 1 if name[:1].isupper() else 2
    return (kind, _natural(name.lower()), _natural(name), an_import.alias or "")


def _natural(text: str) -> list:
    """``text`` compared with its runs of digits as numbers (``v2`` before ``v10``)."""
    return [int(chunk) if position % 2 else chunk for position, chunk in enumerate(re.split(r"(\d+)", text))]


def _standard_library() -> frozenset:
    names = getattr(sys, "stdlib_module_names", None)
    if names is None:  # Python 3.9
        import pkgutil
        import sysconfig

        names = {module.name for module in pkgutil.iter_modules([sysconfig.get_paths()["stdlib"]])}
        names |= set(sys.builtin_module_names)
    return frozenset(names)


def _top(module_name: str) -> str:
    return module_name.lstrip(".").split(".")[0]


def _dotted(node: cst.BaseExpression) -> str:
    if isinstance(node, cst.Attribute):
        return f"{_dotted(node.value)}.{node.attr.value}"
    return node.value


def _alias(an_import: Import) -> cst.ImportAlias:
    asname = cst.AsName(name=cst.Name(an_import.alias)) if an_import.alias else None
    return cst.ImportAlias(name=cst.Name(an_import.name), asname=asname)


def _as_import(alias: cst.ImportAlias) -> Import:
    return Import("", alias.evaluated_name, alias.evaluated_alias)
