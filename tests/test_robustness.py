"""Any input: a file the tool cannot handle is reported with a reason, never fatal to the run.

Each kind of input goes through `transform_source` (what it raises, or what it returns) and
through `engine.run` next to a good file (the bad one is an error result, the good one is
still migrated). That one file's internal error does not stop a run is
tests/test_engine.py::test_internal_errors_are_isolated.
"""

from __future__ import annotations

import subprocess
import sys
import textwrap
import time
from pathlib import Path
from typing import Dict

import libcst as cst
import pytest

from migrator.engine import MAX_BRACKET_DEPTH, RewriteError, run, transform_source
from migrator.model import FileResult
from migrator.source import SourceError

ROOT = Path(__file__).resolve().parent.parent
HEAD = "from openai import OpenAI\n\nclient = OpenAI()\n"
CALL = 'resp = client.chat.completions.create(model="gpt-4o-mini", messages=[{"role": "user", "content": "hi"}])\n'
READ = "print(resp.choices[0].message.content)\n"
MIGRATED_CALL = 'resp = client.responses.create(model="gpt-4o-mini", input="hi")\n'
MIGRATED_READ = "print(resp.output_text)\n"
GOOD = (HEAD + CALL + READ).encode()


def run_next_to_a_good_file(tmp_path: Path, source: bytes) -> Dict[str, FileResult]:
    (tmp_path / "bad.py").write_bytes(source)
    (tmp_path / "good.py").write_bytes(GOOD)
    results = {result.path.name: result for result in run([tmp_path], jobs=1)}
    assert results["good.py"].error is None and results["good.py"].changed
    return results


def assert_migrated(source: bytes) -> bytes:
    result = transform_source(source)
    assert result.calls_migrated == 1, result.findings
    cst.parse_module(result.output)
    assert b"client.responses.create(" in result.output and b"resp.output_text" in result.output
    assert transform_source(result.output).output == result.output
    return result.output


# --- code that does not parse -----------------------------------------------------------


@pytest.mark.parametrize(
    "source",
    [
        HEAD + "def broken(:\n" + CALL,
        HEAD + CALL + "print 'python 2'\n",
        HEAD + CALL + "exec 'code'\n",
        HEAD + CALL + "x = `repr`\n",
        HEAD + CALL + "if x <> 1:\n    pass\n",
        HEAD + CALL + "    unexpected = 'indent'\n",
        HEAD + CALL + "x = 'unterminated\n",
    ],
    ids=["syntax-error", "py2-print", "py2-exec", "py2-backticks", "py2-not-equal", "bad-indent", "open-string"],
)
def test_code_that_does_not_parse_is_a_reported_syntax_error(tmp_path, source):
    with pytest.raises(cst.ParserSyntaxError):
        transform_source(source.encode())
    results = run_next_to_a_good_file(tmp_path, source.encode())
    assert results["bad.py"].error.startswith("syntax error at line ")
    assert results["bad.py"].result is None


@pytest.mark.parametrize(
    "source, reason",
    [
        (GOOD.replace(b"hi", b"h\0i"), "source contains null bytes"),
        (GOOD + b"\0", "source contains null bytes"),
        (b"x = '\xff'\n" + GOOD, "encoding"),
        (b"# -*- coding: klingon -*-\n" + GOOD, "encoding"),
        (b"\xef\xbb\xbf# -*- coding: latin-1 -*-\n" + GOOD, "byte order mark"),
    ],
    ids=["null-byte-in-a-string", "null-byte-at-the-end", "invalid-utf8", "unknown-cookie", "bom-and-latin1-cookie"],
)
def test_bytes_python_would_not_read_are_refused_before_parsing(tmp_path, source, reason):
    with pytest.raises(SourceError, match=reason):
        transform_source(source)
    results = run_next_to_a_good_file(tmp_path, source)
    assert reason in results["bad.py"].error


# --- nesting ------------------------------------------------------------------------------


def test_brackets_nested_as_deep_as_python_allows_still_migrate():
    deep = "(" * MAX_BRACKET_DEPTH + "1" + ")" * MAX_BRACKET_DEPTH
    assert_migrated((HEAD + f"x = {deep}\n" + CALL + READ).encode())


def test_brackets_nested_deeper_than_python_allows_are_refused_not_a_crash(tmp_path):
    # Without the limit LibCST's native parser overflows its stack a few thousand levels down
    # and kills the process, so this runs in a child process.
    deep = "[" * 5000 + "]" * 5000
    (tmp_path / "deep.py").write_text(HEAD + CALL + f"x = {deep}\n" + READ)
    (tmp_path / "good.py").write_bytes(GOOD)
    script = textwrap.dedent(
        f"""
        from pathlib import Path
        from migrator.engine import run
        for result in run([Path({str(tmp_path)!r})], jobs=1):
            print(result.path.name, result.changed, result.error)
        """
    )
    child = subprocess.run([sys.executable, "-c", script], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert child.returncode == 0, child.stderr[-2000:]
    assert child.stdout.splitlines() == [
        f"deep.py False brackets nested more than {MAX_BRACKET_DEPTH} deep at line 5, which Python refuses",
        "good.py True None",
    ]


def test_brackets_in_strings_and_comments_do_not_count():
    many = "(" * (MAX_BRACKET_DEPTH + 50)
    assert_migrated((HEAD + f"# {many}\nx = '{many}'\ny = '''\n{many}\n'''\n" + CALL + READ).encode())


@pytest.mark.parametrize(
    "expression",
    ["not " * 1200 + "x", "-" * 1200 + "1"],
    ids=["not-chain", "unary-minus-chain"],
)
def test_expressions_past_libcst_recursion_limit_are_a_reported_error(tmp_path, expression):
    source = (HEAD + CALL + f"x = {expression}\n" + READ).encode()
    with pytest.raises(RecursionError):
        transform_source(source)
    results = run_next_to_a_good_file(tmp_path, source)
    assert results["bad.py"].error.startswith("internal error: RecursionError: maximum recursion depth exceeded")


# --- size ---------------------------------------------------------------------------------


def test_a_50k_line_file_with_a_call_is_migrated_losslessly():
    # LibCST's cost grows with the nodes, not the lines: the lines here are one docstring's, so
    # that the test stays fast. The 50k lines of code below are marked slow.
    docstring = "".join(f"Line {i} of a long docstring that mentions chat.completions.\n" for i in range(50_000))
    source = (f'"""{docstring}"""\n' + HEAD + CALL + READ).encode()
    started = time.perf_counter()
    output = assert_migrated(source)
    assert time.perf_counter() - started < 30
    assert output == source.replace(CALL.encode(), MIGRATED_CALL.encode()).replace(READ.encode(), MIGRATED_READ.encode())


@pytest.mark.slow
def test_a_50k_line_module_of_code_with_a_call_is_migrated():
    filler = "".join(f"def function_{i}(value, factor=2):\n    return value * factor + {i}  # note\n\n" for i in range(16_700))
    source = (HEAD + filler + CALL + READ).encode()
    assert source.count(b"\n") >= 50_000
    started = time.perf_counter()
    assert_migrated(source)
    print(f"50k-line module migrated in {time.perf_counter() - started:.1f} s")


# --- syntax LibCST knows ------------------------------------------------------------------

NEWEST_SYNTAX = {
    "match": (
        (3, 10),
        """
        def handle(command):
            match command:
                case {"role": "user", **rest} if rest:
                    CALL_AND_READ
                case [first, *others] | (first, *others):
                    pass
                case Point(x=0, y=_) as point:
                    pass
        """,
    ),
    "pep695-type-parameters": (
        (3, 12),
        """
        type Pair[T] = tuple[T, T]
        class Box[T: (int, str), *Ts, **P]:
            def get[U](self, other: U) -> U: ...
        def ask[T](value: T) -> T:
            CALL_AND_READ
            return value
        """,
    ),
    "pep701-f-strings": (
        (3, 12),
        r"""
        CALL_AND_READ
        quoted = f"{"nested " + f"{'deep'!r:>{10}}"}"
        multi = f"{
            1 + 1  # a comment inside a replacement field
        }"
        joined = f"{'\\n'.join(['a', 'b'])}"
        """,
    ),
    "except-star": (
        (3, 11),
        """
        try:
            CALL_AND_READ
        except* ValueError as group:
            pass
        """,
    ),
    "walrus-and-positional-only": (
        (3, 8),
        """
        def ask(prompt, /, *, model="m"):
            if (answer := prompt):
                CALL_AND_READ
        """,
    ),
}


@pytest.mark.parametrize("name", NEWEST_SYNTAX)
def test_new_syntax_parses_and_its_call_still_migrates(name):
    minimum, body = NEWEST_SYNTAX[name]
    body = textwrap.dedent(body)
    indent = body[: body.index("CALL_AND_READ")].rsplit("\n", 1)[-1]
    body = body.replace("CALL_AND_READ", (CALL + indent + READ).rstrip("\n"))
    output = assert_migrated((HEAD + body).encode())
    if sys.version_info >= minimum:  # the running Python knows this syntax too
        compile(output, name, "exec")


# --- nothing to do ------------------------------------------------------------------------


@pytest.mark.parametrize(
    "source",
    [b"", b"\n", b"\r\n", b"\xef\xbb\xbf", b"# only a comment", b"   \n\t\n", b"\x0c"],
    ids=["empty", "newline", "crlf", "bom", "comment", "blank-lines", "form-feed"],
)
def test_empty_files_come_out_unchanged(tmp_path, source):
    result = transform_source(source)
    assert result.output == source and not result.findings
    (tmp_path / "empty.py").write_bytes(source)
    [file_result] = run([tmp_path / "empty.py"])
    assert file_result.error is None and not file_result.changed


def test_a_file_mentioning_openai_only_in_strings_and_comments_is_left_alone_and_the_calls_reported():
    source = b'''"""Calls client.chat.completions.create(model=..., messages=...) and reads choices[0]."""
# openai: client.chat.completions.create(messages=[...])
EXAMPLE = "resp = client.chat.completions.create(model='gpt-4o', messages=[])"
TEMPLATE = f"{EXAMPLE}.choices[0].message.content"
PATTERN = rb"chat\\.completions\\.create"
'''
    result = transform_source(source)
    assert result.output == source
    assert [(f.rule, f.line) for f in result.findings] == [("calls_in_text", 1), ("calls_in_text", 2), ("calls_in_text", 3)]


def test_a_rewrite_that_would_not_parse_is_an_internal_error_and_nothing_changes(tmp_path, monkeypatch):
    from migrator import rewrite

    def unparseable(module, plans, options, fixes=()):
        # `if` is an identifier to LibCST's node checks, so this prints, but does not parse back.
        return module.with_changes(body=[*module.body, cst.SimpleStatementLine([cst.Expr(cst.Name("if"))])])

    monkeypatch.setattr(rewrite, "apply_plans", unparseable)
    with pytest.raises(RewriteError, match="would not parse"):
        transform_source(GOOD)
    (tmp_path / "a.py").write_bytes(GOOD)
    [result] = run([tmp_path], jobs=1)
    assert result.error.startswith("internal error: RewriteError: the migrated code would not parse")
    assert result.result is None
