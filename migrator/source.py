"""Reading and writing one source file, losslessly and safely.

Sources are handled as bytes so that encodings, byte order marks and line endings
survive a round trip untouched; `decode_source` checks that the bytes are a text
Python would accept. Nothing here prints: every problem is a `SourceError` whose
message is the reason, ready to be shown next to the path.
"""

from __future__ import annotations

import codecs
import errno
import io
import os
import stat
from pathlib import Path

TYPE_CHECKING = False  # see migrator/quick.py: a check without candidates does not import typing
if TYPE_CHECKING:
    from typing import Dict, Optional, Union

    PathLike = Union[str, "os.PathLike[str]"]

# Python source encodings must spell ASCII as ASCII (CPython rejects a utf-16 cookie);
# the diffs and the engine rely on it.
_ASCII_PROBE = "\t\n\r #'\"()=:.,_-abcXYZ0189"

_OS_ERROR_REASONS: Dict[Optional[int], str] = {
    errno.ENOENT: "no such file or directory",
    errno.EACCES: "permission denied",
    errno.EPERM: "permission denied",
    errno.EISDIR: "is a directory",
    errno.ENOTDIR: "not a directory",
    errno.EROFS: "read-only file system",
    errno.ENOSPC: "no space left on device",
}


class SourceError(Exception):
    """A source file that cannot be read or written; `str(error)` is the reason."""


def read_source(path: PathLike) -> bytes:
    """The bytes of the source file at `path`, checked to be decodable Python source.

    Raises SourceError: "no such file or directory", "permission denied",
    "is a directory", "not a regular file", or any reason from `decode_source`.
    """
    try:
        mode = os.stat(path).st_mode
        if stat.S_ISDIR(mode):
            raise SourceError("is a directory")
        if not stat.S_ISREG(mode):  # a FIFO or device would block or never end
            raise SourceError("not a regular file")
        with open(path, "rb") as file:
            data = file.read()
    except OSError as exc:
        raise SourceError(describe_os_error(exc)) from exc
    decode_source(data)
    return data


def decode_source(data: bytes) -> str:
    """The text of a Python source, decoded as Python would decode it.

    Raises SourceError: "source contains null bytes", a bad encoding declaration,
    or "not valid <encoding> (line N): <why>".
    """
    if b"\0" in data:
        raise SourceError("source contains null bytes")
    encoding = source_encoding(data)
    try:
        return data.decode(encoding)
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        raise SourceError(f"not valid {encoding} (line {line}): {exc.reason}") from exc


def source_encoding(data: bytes) -> str:
    """The encoding of a Python source: its PEP 263 coding cookie, else UTF-8.

    "utf-8-sig" means the source starts with a UTF-8 byte order mark.
    Raises SourceError for a cookie Python would reject.
    """
    if _declares_no_encoding(data):
        return "utf-8-sig" if data.startswith(codecs.BOM_UTF8) else "utf-8"
    return _declared_encoding(data)


def _declares_no_encoding(data: bytes) -> bool:
    """Whether `tokenize.detect_encoding`, which reads the first two lines, certainly finds no
    cookie there and raises nothing: neither mentions `coding`, and both are UTF-8. Most sources
    are such, and then tokenize need not be imported (a tenth of a run over files without
    candidates); tests/test_source.py compares the two on generated sources."""
    first = data.find(b"\n")
    second = data.find(b"\n", first + 1) if first >= 0 else -1
    head = data if second < 0 else data[: second + 1]
    if b"coding" in head:
        return False
    try:
        head.decode("utf-8")
    except UnicodeDecodeError:
        return False
    return True


def _declared_encoding(data: bytes) -> str:
    import tokenize

    try:
        encoding, _ = tokenize.detect_encoding(io.BytesIO(data).readline)
    except SyntaxError as exc:
        if data.startswith(codecs.BOM_UTF8):
            raise SourceError("a UTF-8 byte order mark conflicts with the coding declaration") from exc
        raise SourceError(f"bad encoding declaration: {exc.msg}") from exc
    if _ASCII_PROBE.encode("ascii").decode(encoding, "replace") != _ASCII_PROBE:
        raise SourceError(f"bad encoding declaration: {encoding} is not ASCII-compatible")
    return encoding


def write_atomic(path: PathLike, data: bytes, *, root: Optional[PathLike] = None) -> None:
    """Replace the existing file at `path` with `data`, all at once.

    The data goes to a temporary file in the same directory, is flushed to disk,
    given the original's permission bits (and owner where allowed), and renamed
    over the original, so a reader sees either the old or the new file, never a
    half-written one. On failure the original is untouched and the temporary
    file removed.

    A symlink is never replaced: the write goes to its target, and only if that
    lies inside `root` (with no `root`, symlinks are refused).

    Raises SourceError: "file is read-only", "symlink points outside the tree: T",
    "refusing to write through a symlink", or "cannot write file: <why>".
    """
    import tempfile  # here: `check` reads files and should not pay for loading it

    target = _write_target(path, root)
    try:
        original = os.stat(target)
    except OSError as exc:
        raise SourceError(describe_os_error(exc)) from exc
    if _is_read_only(target, original.st_mode):
        raise SourceError("file is read-only")
    temporary = None
    try:
        descriptor, temporary = tempfile.mkstemp(dir=target.parent, prefix=f".{target.name}.", suffix=".tmp")
        with os.fdopen(descriptor, "wb") as file:
            file.write(data)
            file.flush()
            os.fsync(file.fileno())
        _copy_owner_and_mode(temporary, original)
        os.replace(temporary, target)
        temporary = None
    except OSError as exc:
        raise SourceError(f"cannot write file: {describe_os_error(exc)}") from exc
    finally:
        if temporary is not None:
            _remove_quietly(temporary)


def describe_os_error(exc: OSError) -> str:
    """A short, platform-independent reason for an OS error."""
    return _OS_ERROR_REASONS.get(exc.errno) or (exc.strerror or str(exc)).lower()


def _write_target(path: PathLike, root: Optional[PathLike]) -> Path:
    """The file to replace: `path` itself, or the target of the symlink `path` if it is inside `root`."""
    if not os.path.islink(path):
        return Path(path)
    if root is None:
        raise SourceError("refusing to write through a symlink")
    target = Path(os.path.realpath(path))
    tree = Path(os.path.realpath(root))
    if target != tree and tree not in target.parents:
        raise SourceError(f"symlink points outside the tree: {target}")
    return target


def _is_read_only(path: Path, mode: int) -> bool:
    # Root may write anything, so os.access says yes even for mode 0o444; a file
    # with no write bit at all was made read-only on purpose, so respect that too.
    no_write_bits = not mode & (stat.S_IWUSR | stat.S_IWGRP | stat.S_IWOTH)
    return no_write_bits or not os.access(path, os.W_OK)


def _copy_owner_and_mode(path: str, original: os.stat_result) -> None:
    if hasattr(os, "chown"):
        try:
            os.chown(path, original.st_uid, original.st_gid)
        except PermissionError:  # only root may give a file away; keep our ownership
            pass
    # After chown, which may clear setuid/setgid bits.
    os.chmod(path, stat.S_IMODE(original.st_mode))


def _remove_quietly(path: str) -> None:
    try:
        os.unlink(path)
    except OSError:
        pass  # already gone, or the directory became unwritable: nothing more to do
