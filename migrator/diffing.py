"""Unified diffs that `git apply` and `patch -p1` accept, byte for byte.

The diff is computed on bytes, not on decoded text: lines are split on b"\\n"
only, so CRLF, lone CR and mixed line endings come out exactly as they are in
the file, and the content keeps the file's own encoding. That makes
`unified_diff_bytes` the API for anything that must be applied later (write it
to a binary stdout): a latin-1 file's diff has latin-1 bytes in it, as
`git diff` would produce. `unified_diff` decodes that for display.
"""

from __future__ import annotations

import io
import os
import re
from pathlib import PurePath
from typing import TYPE_CHECKING, Callable, Iterable, List, Optional, Tuple, Union

if TYPE_CHECKING:
    from unidiff import PatchSet


NO_NEWLINE_MARKER = b"\\ No newline at end of file\n"
CONTEXT_LINES = 3  # as git diff

# Latin-1 maps every byte to one character and back, so difflib (which wants str)
# can work on any bytes without changing them.
_BYTES_AS_TEXT = "latin-1"
_HUNK_HEADER = re.compile(r"@@ -(\d+)")


class DiffError(RuntimeError):
    """Internal error: a produced diff did not survive its own validation."""


def unified_diff_bytes(
    relpath: Union[str, PurePath], before: bytes, after: bytes, heading: Optional[Callable[[int], str]] = None
) -> bytes:
    """The unified diff turning `before` into `after`, headed `--- a/<relpath>` / `+++ b/<relpath>`.

    `relpath` should be relative to the directory the patch is applied from
    (see `diff_path`). Empty when nothing changed. Raises DiffError if the diff
    does not parse back as a one-file patch with the same line counts.
    `heading`, given the 1-based line of `before` where a hunk's first change is, says
    what to write after the hunk's `@@ ... @@` (as git writes a function's name there);
    patch tools ignore it.
    """
    if before == after:
        return b""
    import difflib  # here: `check` loads this module for `diff_path` alone

    name = os.fsencode(PurePath(relpath).as_posix()).decode(_BYTES_AS_TEXT)
    # As git does: a tab after a name with a space in it tells `patch` where the name ends.
    name_end = "\t" if " " in name else ""
    out = io.BytesIO()
    counts = {"+": 0, "-": 0}
    lines: Iterable[str] = difflib.unified_diff(
        _split_lines(before),
        _split_lines(after),
        f"a/{name}{name_end}",
        f"b/{name}{name_end}",
        n=CONTEXT_LINES,
        lineterm="\n",
    )
    if heading is not None:
        lines = _with_headings(list(lines), heading)
    for index, line in enumerate(lines):
        data = line.encode(_BYTES_AS_TEXT)
        if index >= 2 and line[:1] in counts:  # a body line, not the ---/+++ header
            counts[line[:1]] += 1
        out.write(data)
        if not data.endswith(b"\n"):  # the last line of a side with no final newline
            out.write(b"\n" + NO_NEWLINE_MARKER)
    diff = out.getvalue()
    _validate(diff, added=counts["+"], removed=counts["-"])
    return diff


def unified_diff(relpath: Union[str, PurePath], before: bytes, after: bytes, encoding: str = "utf-8") -> str:
    """`unified_diff_bytes` decoded with the file's `encoding`, for display only.

    Undecodable bytes become U+FFFD. Do not write this to a file meant for
    `git apply` when the file is not UTF-8: use `unified_diff_bytes`.
    """
    return unified_diff_bytes(relpath, before, after).decode(encoding, "replace")


def _with_headings(lines: List[str], heading: Callable[[int], str]) -> List[str]:
    """The diff's lines with each hunk header followed by the heading of the hunk's first change."""
    headed = list(lines)
    for index, line in enumerate(lines):
        match = _HUNK_HEADER.match(line) if index >= 2 else None
        if match:
            context = 0
            while lines[index + 1 + context].startswith(" "):
                context += 1
            text = heading(int(match.group(1)) + context)
            if text:
                headed[index] = f"{line.rstrip()} {text}\n"
    return headed


def diff_path(path: Union[str, os.PathLike[str]]) -> str:
    """`path` relative to the current directory with forward slashes, for diff headers."""
    return PurePath(os.path.relpath(path)).as_posix()


def _split_lines(data: bytes) -> List[str]:
    """The lines of `data` with their b"\\n", as latin-1 text; only b"\\n" ends a line, as in git."""
    text = data.decode(_BYTES_AS_TEXT)
    lines = [line + "\n" for line in text.split("\n")]
    lines[-1] = lines[-1][:-1]  # the text after the last newline has none
    if not lines[-1]:
        lines.pop()
    return lines


def _validate(diff: bytes, added: int, removed: int) -> None:
    """Parse `diff` back; raise DiffError unless it is one file with the expected line counts."""
    from unidiff import PatchSet, UnidiffParseError  # only runs that print a patch pay for loading it

    try:
        patch = PatchSet(diff, encoding=_BYTES_AS_TEXT)  # lines split on "\n" only
    except UnidiffParseError as exc:
        raise DiffError(f"internal error: produced a diff that does not parse: {exc}") from exc
    found = _counts(patch)
    if found != (1, added, removed):
        raise DiffError(
            f"internal error: produced a diff with (files, added, removed) = {found}, expected {(1, added, removed)}"
        )


def _counts(patch: PatchSet) -> Tuple[int, int, int]:
    return len(patch), sum(file.added for file in patch), sum(file.removed for file in patch)
