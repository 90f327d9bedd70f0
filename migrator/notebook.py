"""Jupyter notebooks (``.ipynb``): their code cells are migrated and checked as one module.

A notebook's code cells run in one namespace, in order, so they are analysed together: the
cells are joined into one module, with a marker statement between two cells; the engine
transforms it like any other module; its output is cut back into cells at the markers, and
each finding is moved to the cell it is in (``Finding.cell``: the cell's 1-based position
among all the notebook's cells, as a reader counts them; ``line`` is then the line in it).

IPython syntax is not Python. Line magics, shell escapes and help (``%pip install openai``,
``!ls``, ``files = !ls``, ``obj?``, and a magic written without its ``%`` where the line is
not Python: ``pip install openai``) are masked by placeholders before parsing and put back
afterwards, exactly as they were (see ``Masker``). A cell that starts with a cell magic
(``%%bash``) is left out, unless the magic runs its body as Python (``%%time``), when only its
first line is masked.

The file is edited surgically: only the JSON text of a changed cell's ``source`` is replaced,
written as it was (a list of lines or one string, the same indentation, non-ASCII escaped or
not), so outputs, metadata and all other bytes stay as they were.

Nothing here reads files, imports the rules or prints: ``transform`` is handed the engine's
function that transforms a module.
"""

from __future__ import annotations

import ast
import io
import json
import keyword
import re
import tokenize
from bisect import bisect_right
from dataclasses import dataclass, replace
from typing import Callable, Dict, Iterator, List, Optional, Sequence, Tuple

from migrator.model import Confidence, Finding, Options, Position, SourceResult
from migrator.screen import CALL_SITE, written_call
from migrator.source import SourceError

# Cell magics whose body IPython runs as Python in the notebook's namespace.
PYTHON_CELL_MAGICS = frozenset({"time", "timeit", "capture", "prun"})

_DECODER = json.JSONDecoder()
_SPACE = re.compile(r"[ \t\n\r]*")
_CELL_MAGIC = re.compile(r"\s*%%(\w*)")
# `%magic`, `!shell`, `?help`, `obj.attr?`, `obj[0]??` taking a whole statement.
_ESCAPED_LINE = re.compile(r"[%!?]|%{0,2}[\w*]+(?:\.[\w*]+|\[-?\d+\])*\?\??\s*$")
# `pip install openai`: with automagic on (IPython's default), a line magic or shell alias
# without its `%`, where the line is not Python.
_AUTOMAGIC_LINE = re.compile(
    r"(?:pip|conda|mamba|cd|pwd|ls|env|set_env|load_ext|reload_ext|unload_ext|autoreload|matplotlib|pylab"
    r"|time|timeit|run|who|whos|store|mkdir|rmdir|rm|cp|mv|cat)[ \t]+\S"
)
# `files = !ls`, `t = %time f()`: IPython assigns the output of the magic or command.
_ESCAPED_VALUE = re.compile(r"[\w.\[\](), \t*]+?=[ \t]*([%!].*)")
_NAME = re.compile(r"(?<![\w.])[A-Za-z_]\w*")
_LINE = re.compile(r"[^\r\n]*(?:\r\n|\r|\n)|[^\r\n]+\Z")

TransformSource = Callable[[bytes, Options], SourceResult]


class NotebookError(SourceError):
    """A notebook that cannot be processed; ``str(error)`` is the reason, shown next to its path."""


@dataclass(frozen=True)
class Layout:
    """How a cell's ``source`` is written in the file, to write a changed one the same way."""

    as_list: bool  # a list of lines (as Jupyter writes it), else one string
    opening: str = ""  # the whitespace between "[" and the first line
    separator: str = ", "  # between two lines, comma included
    closing: str = ""  # the whitespace between the last line and "]"


@dataclass(frozen=True)
class CodeCell:
    number: int  # 1-based position among all the cells
    source: str
    span: Tuple[int, int]  # where the JSON value of its "source" is in the notebook's text
    layout: Layout


@dataclass(frozen=True)
class Notebook:
    text: str  # the file, decoded
    cells: Tuple[CodeCell, ...]  # the code cells, in order
    cell_spans: Tuple[Tuple[int, int], ...]  # where each cell (of any type) is in `text`

    @property
    def code(self) -> str:
        """All the code, for the prefilter."""
        return "\n".join(cell.source for cell in self.cells)


# --- reading ----------------------------------------------------------------------------------


def parse(data: bytes) -> Notebook:
    """The notebook in ``data``. Raises NotebookError when it is not a notebook in format 4."""
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as error:
        raise NotebookError(f"not a valid notebook: not UTF-8 (byte {error.start})") from error
    try:
        document = json.loads(text)
    except json.JSONDecodeError as error:
        raise NotebookError(f"not a valid notebook: invalid JSON at line {error.lineno}: {error.msg}") from error
    if not isinstance(document, dict) or not isinstance(document.get("cells"), list):
        raise NotebookError("not a valid notebook: no list of cells (only nbformat 4 is supported)")
    spans = list(_cell_spans(text))
    cells = []
    for index, (cell, span) in enumerate(zip(document["cells"], spans)):
        if not isinstance(cell, dict) or not isinstance(cell.get("cell_type"), str):
            raise NotebookError(f"not a valid notebook: cell {index + 1} has no cell_type")
        if cell["cell_type"] == "code":
            cells.append(_code_cell(text, index + 1, cell, span))
    return Notebook(text=text, cells=tuple(cells), cell_spans=tuple(spans))


def code_of(data: bytes) -> bytes:
    """The code of a notebook's cells, for the prefilter. Raises NotebookError."""
    return parse(data).code.encode("utf-8")


def _code_cell(text: str, number: int, cell: dict, span: Tuple[int, int]) -> CodeCell:
    source = cell.get("source")
    if isinstance(source, list) and all(isinstance(line, str) for line in source):
        source = "".join(source)
    if not isinstance(source, str):
        raise NotebookError(f"not a valid notebook: the source of cell {number} is not text")
    value_span = _last_value_of(text, span[0], "source")
    return CodeCell(number, source, value_span, _layout(text, value_span))


def _cell_spans(text: str) -> Iterator[Tuple[int, int]]:
    """Where each element of the top-level "cells" list is in ``text`` (valid JSON)."""
    start, _ = _last_value_of(text, 0, "cells")
    yield from _elements(text, start)


def _last_value_of(text: str, start: int, key: str) -> Tuple[int, int]:
    """Where the value of ``key`` is in the object at ``text[start]`` (the last, as json.loads reads it)."""
    found = [(value_start, value_end) for name, value_start, value_end in _members(text, start) if name == key]
    return found[-1]


def _members(text: str, start: int) -> Iterator[Tuple[str, int, int]]:
    """(key, value start, value end) of each member of the JSON object at ``text[start]``."""
    index = _skip_space(text, start + 1)
    while text[index] != "}":
        key, index = json.decoder.scanstring(text, index + 1)  # type: ignore[attr-defined]
        value_start = _skip_space(text, _skip_space(text, index) + 1)  # past the colon
        _, value_end = _DECODER.raw_decode(text, value_start)
        yield key, value_start, value_end
        index = _after_separator(text, value_end)


def _elements(text: str, start: int) -> Iterator[Tuple[int, int]]:
    """(start, end) of each element of the JSON array at ``text[start]``."""
    index = _skip_space(text, start + 1)
    while text[index] != "]":
        _, end = _DECODER.raw_decode(text, index)
        yield index, end
        index = _after_separator(text, end)


def _skip_space(text: str, index: int) -> int:
    match = _SPACE.match(text, index)
    assert match is not None  # the pattern matches the empty string
    return match.end()


def _after_separator(text: str, index: int) -> int:
    """Past the whitespace and the comma (if any) after a value: at the next value or the bracket."""
    index = _skip_space(text, index)
    return _skip_space(text, index + 1) if text[index] == "," else index


def _layout(text: str, span: Tuple[int, int]) -> Layout:
    start, end = span
    if text[start] != "[":
        return Layout(as_list=False)
    elements = list(_elements(text, start))
    if not elements:
        return Layout(as_list=True, opening=text[start + 1 : end - 1])
    opening = text[start + 1 : elements[0][0]]
    separator = text[elements[0][1] : elements[1][0]] if len(elements) > 1 else "," + opening
    return Layout(as_list=True, opening=opening, separator=separator, closing=text[elements[-1][1] : end - 1])


# --- masking IPython syntax -------------------------------------------------------------------


@dataclass(frozen=True)
class Mask:
    """One line of IPython syntax, or the value of one, replaced by a placeholder for the parser."""

    placeholder: str  # a name found nowhere else in the masked text
    masked: str  # the Python that replaced `original`, holding the placeholder
    original: str
    whole_line: bool  # `masked` must still be a line of its own


@dataclass(frozen=True)
class MaskedCell:
    cell: CodeCell
    text: str  # the cell's code with IPython syntax masked, ending with a newline
    masks: Tuple[Mask, ...]
    masked_lines: Dict[int, int]  # 1-based line of the cell -> column where its IPython syntax starts


class Masker:
    """Masks the IPython syntax of the cells, in order, with numbered placeholders.

    Before any Python, a masked line is ``import <placeholder>``: imports a rewrite adds then go
    below a leading ``%pip install``. After it, a masked line is ``<placeholder>(names...)``,
    passing every name the line mentions: IPython expands ``{expr}`` in shell escapes and runs
    the code given to ``%time``, so a call whose result is used there is seen to escape, and is
    left alone and reported rather than migrated under the magic's feet.
    """

    def __init__(self, prefix: str) -> None:
        self.prefix = prefix
        self.count = 0
        self.seen_python = False

    def cell(self, cell: CodeCell) -> Optional[MaskedCell]:
        """The cell as Python, or None when it is not Python at all (``%%bash``)."""
        magic = _CELL_MAGIC.match(cell.source)
        if magic and magic.group(1) not in PYTHON_CELL_MAGICS:
            return None
        masks: List[Mask] = []
        masked_lines: Dict[int, int] = {}
        masked: List[str] = []
        continued_at: Optional[str] = None  # the indentation of a masked line continued by a backslash
        for line in _lines(cell.source):
            body = line.rstrip("\r\n")
            code = body.lstrip()
            indent = body[: len(body) - len(code)]
            if continued_at is not None:
                indent = continued_at
                masked.append(self._mask_line(line, indent, masks))
            elif magic and not any(text.strip() for text in masked) and code:
                masked.append(self._mask_line(line, indent, masks))  # the cell magic itself
            elif _ESCAPED_LINE.match(code) and _starts_statement(masked):
                masked.append(self._mask_line(line, indent, masks))
            elif _ESCAPED_VALUE.fullmatch(code) and _starts_statement(masked):
                masked.append(self._mask_value(line, masks))
            elif _AUTOMAGIC_LINE.match(code) and _starts_statement(masked) and not _is_python(code):
                masked.append(self._mask_line(line, indent, masks))
            else:
                masked.append(line)
                self.seen_python = self.seen_python or bool(code and not code.startswith("#"))
                continue
            masked_lines[len(masked)] = len(indent) + 1
            continued_at = indent if body.endswith("\\") else None
        text = "".join(masked)
        text = text if text.endswith("\n") or not text else text + "\n"
        return MaskedCell(cell, text, tuple(masks), masked_lines)

    def _placeholder(self) -> str:
        self.count += 1
        return f"{self.prefix}magic_{self.count}__"

    def _mask_line(self, line: str, indent: str, masks: List[Mask]) -> str:
        """A whole line of IPython syntax as one statement, at ``indent``."""
        placeholder = self._placeholder()
        body = line.rstrip("\r\n")
        if self.seen_python:
            masked = f"{indent}{placeholder}({', '.join(_names_in(body))})"
        else:
            masked = f"{indent}import {placeholder}"
        masks.append(Mask(placeholder, masked, body, whole_line=True))
        return masked + line[len(body) :]

    def _mask_value(self, line: str, masks: List[Mask]) -> str:
        """``x = !ls {y}`` as ``x = <placeholder>(ls, y)``: ``x`` stays assigned for the analysis."""
        body = line.rstrip("\r\n")
        match = _ESCAPED_VALUE.fullmatch(body.lstrip())
        assert match is not None
        value = match.group(1)
        masked = f"{self._placeholder()}({', '.join(_names_in(value))})"
        masks.append(Mask(masked[: masked.index("(")], masked, value, whole_line=False))
        return body[: len(body) - len(value)] + masked + line[len(body) :]


def _is_python(line: str) -> bool:
    try:
        compile(line, "<cell line>", "exec")
    except SyntaxError:
        return False
    return True


def _names_in(text: str) -> List[str]:
    """The names ``text`` mentions (not attributes, not keywords), once each, in order."""
    names = (name for name in _NAME.findall(text) if not keyword.iskeyword(name))
    return list(dict.fromkeys(names))


def _lines(text: str) -> List[str]:
    """The lines of ``text`` with their endings, split where Python ends a line (not at a form feed)."""
    return _LINE.findall(text)


def _starts_statement(lines: Sequence[str]) -> bool:
    """Does a statement start after ``lines`` (not inside a string, brackets or a continued line)?"""
    try:
        for _ in tokenize.generate_tokens(io.StringIO("".join(lines)).readline):
            pass
    except tokenize.TokenError:  # EOF inside a multi-line string or statement
        return False
    except SyntaxError:  # bad indentation and the like: the parser will say so
        return True
    return True


def unmask(text: str, masks: Sequence[Mask]) -> str:
    """``text`` with each masked stretch as it was. Raises NotebookError if one was changed or moved."""
    for mask in masks:
        start = text.find(mask.masked)
        end = start + len(mask.masked)
        on_its_line = text[start - 1 : start] in ("", "\n") and text[end : end + 1] in ("", "\r", "\n")
        if text.count(mask.placeholder) != 1 or start < 0 or (mask.whole_line and not on_its_line):
            raise NotebookError(f"internal error: IPython syntax {mask.original.strip()!r} was changed")
        text = text[:start] + mask.original + text[end:]
    return text


# --- transforming -----------------------------------------------------------------------------


@dataclass(frozen=True)
class JoinedModule:
    """The notebook's Python cells as one module, and where each cell starts in it."""

    text: str
    cells: Tuple[MaskedCell, ...]
    first_lines: Tuple[int, ...]  # the 1-based line of the module where each cell starts
    prefix: str  # of the marker and placeholder names, not found in the notebook

    def marker(self, position: int) -> str:
        return f"{self.prefix}cell_{self.cells[position].cell.number}__"

    def cell_at(self, line: int) -> Tuple[MaskedCell, int]:
        """The cell holding the module's 1-based ``line``, and the line in that cell."""
        position = bisect_right(self.first_lines, line) - 1
        return self.cells[position], line - self.first_lines[position] + 1


def join(notebook: Notebook) -> JoinedModule:
    """The notebook's Python cells as one module, with a marker statement before every cell but the first."""
    prefix = "__migrator_"
    while prefix in notebook.text:
        prefix += "_"
    masker = Masker(prefix)
    cells: List[MaskedCell] = []
    imports_only: List[bool] = []  # has no cell before each held Python but its imports?
    for cell in notebook.cells:
        before = not masker.seen_python
        masked = masker.cell(cell)
        if masked is not None:
            cells.append(masked)
            imports_only.append(before)
    parts: List[str] = []
    first_lines: List[int] = []
    line = 1
    for position, masked in enumerate(cells):
        if position:
            # After cells of `%pip install` alone, the marker is an import too: the imports and
            # helpers a rewrite adds then go below the first cell's imports, not into the
            # installing cell, which a notebook is often run without.
            spelled = f"import {prefix}cell_{masked.cell.number}__" if imports_only[position] else f"{prefix}cell_{masked.cell.number}__"
            parts.append(spelled + "\n")
            line += 1
        first_lines.append(line)
        parts.append(masked.text)
        line += len(_lines(masked.text))
    return JoinedModule("".join(parts), tuple(cells), tuple(first_lines), prefix)


def split(joined: JoinedModule, output: str) -> List[str]:
    """The module's output cut back into the cells' sources, with IPython syntax restored."""
    lines = _lines(output)
    sources: List[str] = []
    current: List[str] = []
    expected = 1
    for line in lines:
        if expected < len(joined.cells) and line.rstrip("\r\n") in (joined.marker(expected), f"import {joined.marker(expected)}"):
            sources.append("".join(current))
            current = []
            expected += 1
        else:
            current.append(line)
    if expected != len(joined.cells):
        raise NotebookError("internal error: the boundaries between cells were lost")
    sources.append("".join(current))
    return [_as_before(masked.cell.source, unmask(text, masked.masks)) for masked, text in zip(joined.cells, sources)]


def _as_before(original: str, new: str) -> str:
    """``new`` starting and ending as ``original`` did (Jupyter stores cells without their
    last newline; imports added at the top of a cell come after the blank line that
    separated them from the cell before)."""
    if new == original:
        return new
    ending = original[len(original.rstrip("\r\n")) :]
    start = len(original) - len(original.lstrip("\r\n"))
    return original[:start] + new.lstrip("\r\n").rstrip("\r\n") + ending


def transform(data: bytes, options: Options, transform_source: TransformSource) -> SourceResult:
    """Migrate a notebook's code cells. Raises NotebookError (a SourceError) for a bad notebook."""
    from libcst import ParserSyntaxError

    notebook = parse(data)
    joined = join(notebook)
    left_out = _calls_in_cells_left_out(notebook, joined, options)
    if not joined.cells:
        return SourceResult(source=data, output=data, findings=left_out)
    try:
        result = transform_source(joined.text.encode("utf-8"), options)
    except ParserSyntaxError as error:
        raise _syntax_error(joined, error) from error
    findings = sorted([_in_cell(joined, finding) for finding in result.findings] + left_out, key=lambda f: f.sort_key())
    output = data
    if result.changed:
        sources = split(joined, result.output.decode("utf-8"))
        changed = {masked.cell: new for masked, new in zip(joined.cells, sources) if new != masked.cell.source}
        output = _with_sources(notebook, changed).encode("utf-8")
    return SourceResult(source=data, output=output, findings=findings, calls_migrated=result.calls_migrated)


def _calls_in_cells_left_out(notebook: Notebook, joined: JoinedModule, options: Options) -> List[Finding]:
    """The legacy calls a text search finds in the cells left out as not Python (``%%writefile
    app.py``, ``%%script python``): code the tool does not read, reported as written there."""
    from migrator.planner import CALLS_IN_TEXT  # the planner loads LibCST, which reading a notebook needs not

    if not options.is_enabled(CALLS_IN_TEXT):
        return []
    read = {masked.cell.number for masked in joined.cells}
    findings = []
    for cell in notebook.cells:
        if cell.number in read:
            continue
        magic = _CELL_MAGIC.match(cell.source)
        for number, line in enumerate(_lines(cell.source), start=1):
            for match in CALL_SITE.finditer(line):
                start, code = written_call(line, match)
                findings.append(
                    Finding(
                        rule=CALLS_IN_TEXT,
                        line=number,
                        column=start + 1,
                        cell=cell.number,
                        message=f"`{code}` written in a `%%{magic.group(1) if magic else ''}` cell, which the tool does not read as"
                        " Python: a Chat Completions call the tool cannot migrate, to update by hand",
                        confidence=Confidence.LOW,
                    )
                )
    return findings


def _syntax_error(joined: JoinedModule, error: Exception) -> NotebookError:
    """Which cell does not parse, and where: Python's parser places errors better than LibCST's."""
    import libcst as cst

    for masked in joined.cells:
        try:
            compile(masked.text, f"cell {masked.cell.number}", "exec", ast.PyCF_ONLY_AST | ast.PyCF_ALLOW_TOP_LEVEL_AWAIT)
        except SyntaxError as python_error:
            where = f"line {python_error.lineno}, column {python_error.offset}"
            return NotebookError(f"syntax error in cell {masked.cell.number} at {where}: {python_error.msg}")
    for masked in joined.cells:  # what this Python accepts and LibCST does not
        try:
            cst.parse_module(masked.text)
        except cst.ParserSyntaxError as cell_error:
            where = f"line {cell_error.raw_line}, column {cell_error.raw_column + 1}"
            return NotebookError(f"syntax error in cell {masked.cell.number} at {where}: {cell_error.message}")
    return NotebookError(f"syntax error: {error}")


def _in_cell(joined: JoinedModule, finding: Finding) -> Finding:
    """The finding, and the call it is about, placed in their cells."""
    where = _position_in_cell(joined, Position(finding.line, finding.column))
    call = _position_in_cell(joined, finding.call) if finding.call is not None else None
    return replace(finding, cell=where.cell, line=where.line, column=where.column, call=call)


def _position_in_cell(joined: JoinedModule, position: Position) -> Position:
    """A position of the joined module in its cell; one inside IPython syntax points at where that starts."""
    masked, line = joined.cell_at(position.line)
    return Position(line=line, column=masked.masked_lines.get(line, position.column), cell=masked.cell.number)


def _with_sources(notebook: Notebook, changed: Dict[CodeCell, str]) -> str:
    """The notebook's text with the ``source`` of the changed cells replaced, and nothing else."""
    ensure_ascii = notebook.text.isascii()  # a file with raw non-ASCII text was written without escapes
    text = notebook.text
    for cell in sorted(changed, key=lambda cell: cell.span[0], reverse=True):
        start, end = cell.span
        text = text[:start] + _source_json(changed[cell], cell.layout, ensure_ascii) + text[end:]
    return text


def _source_json(source: str, layout: Layout, ensure_ascii: bool) -> str:
    if not layout.as_list:
        return json.dumps(source, ensure_ascii=ensure_ascii)
    lines = [json.dumps(line, ensure_ascii=ensure_ascii) for line in source.splitlines(keepends=True)]
    if not lines:
        return "[]"
    return "[" + layout.opening + layout.separator.join(lines) + layout.closing + "]"


# --- lines of the file -----------------------------------------------------------------------


class FileLines:
    """Between lines of the notebook file (as a diff or a code-scanning tool counts them) and cells."""

    def __init__(self, data: bytes) -> None:
        try:
            self.notebook: Optional[Notebook] = parse(data)
        except NotebookError:
            self.notebook = None
        text = self.notebook.text if self.notebook else ""
        self._line_starts = [match.end() for match in re.finditer("\n", text)]

    def line_of(self, offset: int) -> int:
        """The 1-based line of the file holding the character at ``offset``."""
        return bisect_right(self._line_starts, offset) + 1

    def cell_at(self, line: int) -> Optional[int]:
        """The number of the cell the file's 1-based ``line`` is in, if any."""
        spans = self.notebook.cell_spans if self.notebook else ()
        for number, (start, end) in enumerate(spans, 1):
            if self.line_of(start) <= line <= self.line_of(end - 1):
                return number
        return None

    def file_line(self, cell: int, line: int) -> Optional[int]:
        """The line of the file that holds the 1-based ``line`` of code cell number ``cell``."""
        code_cell = next((c for c in self.notebook.cells if c.number == cell), None) if self.notebook else None
        if code_cell is None or self.notebook is None:
            return None
        start, _ = code_cell.span
        if code_cell.layout.as_list:  # one JSON string per line of code, as Jupyter writes them
            elements = list(_elements(self.notebook.text, start))
            if 1 <= line <= len(elements):
                return self.line_of(elements[line - 1][0])
        return self.line_of(start)
