from __future__ import annotations

import errno
import os
import signal
import stat
import tempfile
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from migrator import source
from migrator.source import SourceError, decode_source, read_source, source_encoding, write_atomic

BOM = b"\xef\xbb\xbf"


def make(path: Path, data: bytes, mode: int = 0o644) -> Path:
    path.write_bytes(data)
    path.chmod(mode)
    return path


# --- reading ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    "data",
    [
        b"x = 1\r\ny = 2\r\n",  # CRLF kept
        b"x = 1\ry = 2",  # old Mac endings, no final newline
        BOM + b"x = '\xc3\xa9'\n",  # the BOM is kept
        b"# -*- coding: latin-1 -*-\nx = '\xe9'\n",
        b"",
    ],
)
def test_read_source_returns_the_bytes_unchanged(tmp_path, data):
    assert read_source(make(tmp_path / "a.py", data)) == data


def test_read_missing_file(tmp_path):
    with pytest.raises(SourceError, match="^no such file or directory$"):
        read_source(tmp_path / "nope.py")


def test_read_directory(tmp_path):
    with pytest.raises(SourceError, match="^is a directory$"):
        read_source(tmp_path)


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs FIFOs and SIGALRM")
def test_read_fifo_is_refused_without_blocking(tmp_path):
    os.mkfifo(tmp_path / "pipe.py")

    def timed_out(*args):
        raise AssertionError("read_source blocked on a FIFO")

    previous = signal.signal(signal.SIGALRM, timed_out)
    signal.alarm(5)  # opening a FIFO blocks until a writer comes: fail rather than hang
    try:
        with pytest.raises(SourceError, match="^not a regular file$"):
            read_source(tmp_path / "pipe.py")
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)


def test_read_unreadable_file(tmp_path, monkeypatch):
    # Tests may run as root, which chmod cannot lock out: make open() fail instead.
    path = make(tmp_path / "a.py", b"x = 1\n")

    def open_denied(file, *args, **kwargs):
        raise PermissionError(errno.EACCES, "Permission denied", str(file))

    monkeypatch.setattr(source, "open", open_denied, raising=False)
    with pytest.raises(SourceError, match="^permission denied$"):
        read_source(path)


def test_read_rejects_null_bytes(tmp_path):
    with pytest.raises(SourceError, match="^source contains null bytes$"):
        read_source(make(tmp_path / "a.py", b"x = 1\0\n"))


def test_read_rejects_invalid_utf8_with_its_line(tmp_path):
    with pytest.raises(SourceError, match=r"^not valid utf-8 \(line 2\): invalid continuation byte$"):
        read_source(make(tmp_path / "a.py", b"x = 1\ny = '\xe9t\xe9'\n"))


def test_read_rejects_text_invalid_in_its_declared_encoding(tmp_path):
    with pytest.raises(SourceError, match=r"^not valid ascii \(line 2\)"):
        read_source(make(tmp_path / "a.py", b"# coding: ascii\nx = '\xe9'\n"))


# --- encodings -------------------------------------------------------------------------


def test_latin1_cookie_file_is_decoded_as_latin1():
    data = b"# -*- coding: latin-1 -*-\nx = '\xe9'\n"
    assert source_encoding(data) == "iso-8859-1"
    assert decode_source(data) == "# -*- coding: latin-1 -*-\nx = '\u00e9'\n"


def test_cookie_on_the_second_line_counts_and_on_the_third_does_not():
    assert decode_source(b"#!/usr/bin/env python\n# vim: set fileencoding=cp1252 :\nx = '\x80'\n").endswith(
        "'\u20ac'\n"
    )
    with pytest.raises(SourceError, match="not valid utf-8"):
        decode_source(b"#!/usr/bin/env python\n\n# coding: cp1252\nx = '\x80'\n")


def test_bom_is_utf8_and_is_dropped_from_the_text():
    assert source_encoding(BOM + b"x = 1\n") == "utf-8-sig"
    assert decode_source(BOM + b"x = '\xc3\xa9'\n") == "x = '\u00e9'\n"


def test_bom_with_a_utf8_cookie_is_fine():
    assert decode_source(BOM + b"# coding: utf-8\nx = 1\n") == "# coding: utf-8\nx = 1\n"


def test_bom_with_a_non_utf8_cookie_is_an_error():
    with pytest.raises(SourceError, match="^a UTF-8 byte order mark conflicts with the coding declaration$"):
        decode_source(BOM + b"# coding: latin-1\nx = 1\n")


def test_unknown_encoding_cookie_is_an_error():
    with pytest.raises(SourceError, match="^bad encoding declaration: unknown encoding: klingon$"):
        decode_source(b"# coding: klingon\nx = 1\n")


def test_ascii_incompatible_cookie_is_an_error():
    # CPython refuses these too: the cookie itself could not be read in them.
    with pytest.raises(SourceError, match="^bad encoding declaration: utf-16 is not ASCII-compatible$"):
        decode_source(b"# coding: utf-16\nx = 1\n")


# Lines that make tokenize's reading of a header differ: cookies, blank and comment lines, a BOM,
# bytes that are not UTF-8, and code.
HEADER_PIECES = st.sampled_from(
    [b"# coding: latin-1", b"# -*- coding: utf-8 -*-", b"#coding=klingon", b"# vim: fileencoding=cp1252",
     b"# encoding", b"coding", b"", b"   ", b"#!/usr/bin/env python", b"x = 1", b"\xe9", b"\xc3\xa9",
     b"\xef\xbb\xbf", b"\r", b"\n", b"\f"]
)


@given(pieces=st.lists(st.tuples(HEADER_PIECES, st.sampled_from([b"\n", b"\r\n", b"\r", b""])), max_size=5))
def test_the_encoding_is_what_tokenize_says_whether_or_not_it_is_asked(pieces):
    data = b"".join(piece + end for piece, end in pieces)

    def answer(function):
        try:
            return function(data)
        except SourceError as error:
            return f"error: {error}"

    assert answer(source_encoding) == answer(source._declared_encoding)


def test_a_source_declaring_no_encoding_is_read_without_tokenize():
    assert source._declares_no_encoding(b"#!/usr/bin/env python\nimport os\n")
    assert not source._declares_no_encoding(b"#!/usr/bin/env python\n# -*- coding: latin-1 -*-\n")


# --- writing ---------------------------------------------------------------------------


def leftovers(directory: Path, *expected: str) -> list:
    """Files in `directory` besides `expected`: a temporary file left behind shows up here."""
    return sorted(set(os.listdir(directory)) - set(expected))


@pytest.mark.parametrize("mode", [0o644, 0o600, 0o755, 0o664])
def test_write_replaces_content_and_keeps_permission_bits(tmp_path, mode):
    path = make(tmp_path / "a.py", b"old\n", mode)
    write_atomic(path, b"new\r\ncontent")
    assert path.read_bytes() == b"new\r\ncontent"
    assert stat.S_IMODE(path.stat().st_mode) == mode
    assert leftovers(tmp_path, "a.py") == []


@pytest.mark.skipif(not hasattr(os, "geteuid") or os.geteuid() != 0, reason="only root can give files away")
def test_write_keeps_the_owner(tmp_path):
    path = make(tmp_path / "a.py", b"old\n")
    os.chown(path, 12345, 23456)
    write_atomic(path, b"new\n")
    assert (path.stat().st_uid, path.stat().st_gid) == (12345, 23456)


def test_write_replaces_the_file_rather_than_writing_into_it(tmp_path):
    path = make(tmp_path / "a.py", b"old\n")
    before = path.stat().st_ino
    write_atomic(path, b"new\n")
    assert path.stat().st_ino != before


@pytest.mark.parametrize("mode", [0o444, 0o400, 0o555])
def test_write_refuses_a_file_with_no_write_bits(tmp_path, mode):
    path = make(tmp_path / "a.py", b"old\n", mode)
    with pytest.raises(SourceError, match="^file is read-only$"):
        write_atomic(path, b"new\n")
    assert path.read_bytes() == b"old\n"
    assert leftovers(tmp_path, "a.py") == []


def test_write_renames_a_temporary_file_from_the_same_directory_and_removes_nothing(tmp_path, monkeypatch):
    # Same directory: a rename within one file system is atomic, across them it fails.
    path = make(tmp_path / "a.py", b"old\n")
    renames, removals = [], []
    real_replace = os.replace
    monkeypatch.setattr(os, "replace", lambda src, dst: (renames.append((src, dst)), real_replace(src, dst)))
    monkeypatch.setattr(os, "unlink", removals.append)
    write_atomic(path, b"new\n")
    assert [(Path(src).parent, Path(dst)) for src, dst in renames] == [(tmp_path, path)]
    assert removals == []


def test_write_refuses_a_file_the_user_may_not_write(tmp_path, monkeypatch):
    path = make(tmp_path / "a.py", b"old\n")
    monkeypatch.setattr(source.os, "access", lambda *args, **kwargs: False)
    with pytest.raises(SourceError, match="^file is read-only$"):
        write_atomic(path, b"new\n")
    assert path.read_bytes() == b"old\n"


def test_write_missing_file(tmp_path):
    with pytest.raises(SourceError, match="^no such file or directory$"):
        write_atomic(tmp_path / "nope.py", b"new\n")
    assert leftovers(tmp_path) == []


def fail_with(error):
    def fail(*args, **kwargs):
        raise error

    return fail


@pytest.mark.parametrize(
    "module, function",
    [(tempfile, "mkstemp"), (os, "fsync"), (os, "chmod"), (os, "replace")],
)
def test_a_failure_mid_write_leaves_the_original_intact_and_no_temporary_file(tmp_path, monkeypatch, module, function):
    path = make(tmp_path / "a.py", b"old\n")
    monkeypatch.setattr(module, function, fail_with(OSError(errno.ENOSPC, "No space left on device")))
    with pytest.raises(SourceError, match="^cannot write file: no space left on device$"):
        write_atomic(path, b"new\n")
    monkeypatch.undo()
    assert path.read_bytes() == b"old\n"
    assert leftovers(tmp_path, "a.py") == []


def test_an_interrupted_write_leaves_no_temporary_file(tmp_path, monkeypatch):
    path = make(tmp_path / "a.py", b"old\n")
    monkeypatch.setattr(os, "replace", fail_with(KeyboardInterrupt()))
    with pytest.raises(KeyboardInterrupt):
        write_atomic(path, b"new\n")
    monkeypatch.undo()
    assert path.read_bytes() == b"old\n"
    assert leftovers(tmp_path, "a.py") == []


def test_write_through_a_symlink_inside_the_root_writes_the_target(tmp_path):
    (tmp_path / "pkg").mkdir()
    target = make(tmp_path / "pkg" / "real.py", b"old\n", 0o640)
    link = tmp_path / "link.py"
    link.symlink_to("pkg/real.py")
    write_atomic(link, b"new\n", root=tmp_path)
    assert link.is_symlink()
    assert target.read_bytes() == b"new\n"
    assert stat.S_IMODE(target.stat().st_mode) == 0o640
    assert leftovers(tmp_path / "pkg", "real.py") == []


def test_write_through_a_symlink_outside_the_root_is_refused(tmp_path):
    (tmp_path / "root").mkdir()
    outside = make(tmp_path / "outside.py", b"old\n")
    link = tmp_path / "root" / "link.py"
    link.symlink_to(outside)
    with pytest.raises(SourceError, match="^symlink points outside the tree: .*outside.py$"):
        write_atomic(link, b"new\n", root=tmp_path / "root")
    assert outside.read_bytes() == b"old\n"
    assert link.is_symlink()


def test_write_through_a_symlink_without_a_root_is_refused(tmp_path):
    target = make(tmp_path / "real.py", b"old\n")
    link = tmp_path / "link.py"
    link.symlink_to(target)
    with pytest.raises(SourceError, match="^refusing to write through a symlink$"):
        write_atomic(link, b"new\n")
    assert target.read_bytes() == b"old\n"
