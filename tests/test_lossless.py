"""Lossless rewrites: every byte outside the rewritten call and the reads of its result stays.

Each test migrates a file holding one migratable call and compares the output with the input
in which only the call and its reads were replaced (`swapped`): comments, quote styles,
parentheses, trailing commas, tabs, line endings, a byte order mark, a non-UTF-8 coding cookie
and a missing final newline all have to come through as they were. That files with nothing to
migrate are not written at all is checked on the command line (tests/test_cli_reliability.py);
reading and writing bytes is covered by tests/test_source.py, patches by tests/test_diffing.py.
"""

from __future__ import annotations

import sys
from typing import Dict

import pytest

from migrator.engine import transform_source
from migrator.model import Options

CALL = b'client.chat.completions.create(model="gpt-4o-mini", messages=[{"role": "user", "content": "hi"}])'
MIGRATED_CALL = b'client.responses.create(model="gpt-4o-mini", input="hi")'
READ = b"resp.choices[0].message.content"
MIGRATED_READ = b"resp.output_text"
REWRITES = {CALL: MIGRATED_CALL, READ: MIGRATED_READ}


def migrated(source: bytes, options: Options = Options()) -> bytes:
    result = transform_source(source, options)
    assert result.calls_migrated == 1, result.findings
    return result.output


def swapped(source: bytes, rewrites: Dict[bytes, bytes] = REWRITES) -> bytes:
    """`source` with only the given snippets replaced: what a lossless migration gives."""
    for old, new in rewrites.items():
        assert old in source
        source = source.replace(old, new)
    return source


def program(body: str) -> bytes:
    return ("from openai import OpenAI\n\nclient = OpenAI()\n" + body).encode()


def test_comments_everywhere_outside_the_call_stay():
    source = b"""#!/usr/bin/env python
# -*- coding: utf-8 -*-
\"\"\"Docstring that mentions client.chat.completions.create(...).\"\"\"
from openai import OpenAI  # the SDK

# a client
client = OpenAI()  # reads OPENAI_API_KEY
    # an oddly indented comment

resp = """ + CALL + b"""  # ask
#: the answer
print(""" + READ + b""")  # show it
# trailing comment, no code after it
"""
    assert migrated(source) == swapped(source)


@pytest.mark.parametrize(
    "quoted",
    [
        "'single'",
        '"double"',
        "'''triple single'''",
        '"""triple\ndouble"""',
        "r'raw\\d'",
        "b'bytes'",
        "f'{1!r:>3}'",
        "u'unicode'",
        "'implicit' \"concatenation\"",
        "'\\N{BULLET} \\x41 \\u00e9'",
    ],
)
def test_string_quote_styles_outside_the_call_stay(quoted):
    source = program(f"before = {quoted}\nresp = {CALL.decode()}\nafter = {quoted}\nprint({READ.decode()})\n")
    assert migrated(source) == swapped(source)


def test_quote_style_of_kept_arguments_stays():
    source = program(
        "resp = client.chat.completions.create(model='gpt-4o-mini', messages=[{'role': 'user', 'content': 'hi'}],"
        " temperature=0.5)\nprint(resp.choices[0].message.content)\n"
    )
    assert migrated(source) == swapped(
        source,
        {
            b"chat.completions.create": b"responses.create",
            b"messages=[{'role': 'user', 'content': 'hi'}]": b"input='hi'",
            READ: MIGRATED_READ,
        },
    )


def test_parentheses_outside_and_around_the_rewritten_code_stay():
    source = program(
        "x = ((1 + 2) * (3))\n"
        f"resp = ({CALL.decode()})\n"
        f"print(({READ.decode()}))\n"
        f"text = (\n    {READ.decode()}  # why\n)\n"
        "if (x):\n    pass\n"
    )
    assert migrated(source) == swapped(source)


def test_a_read_wrapped_in_parentheses_keeps_them():
    source = program(f"resp = {CALL.decode()}\nreturned = (resp.choices[0].message.content)\nprint(returned)\n")
    assert b"(resp.output_text)" in migrated(source)


def test_trailing_commas_stay_in_the_call_and_elsewhere():
    source = program(
        "values = [\n    1,\n    2,\n]\n"
        "resp = client.chat.completions.create(\n"
        '    model="gpt-4o-mini",\n'
        '    messages=[{"role": "user", "content": "hi"}],\n'
        "    temperature=0.5,\n"
        ")\n"
        "print(resp.choices[0].message.content,)\n"
        "point = (1,)\n"
    )
    assert migrated(source) == swapped(
        source,
        {
            b"chat.completions.create": b"responses.create",
            b'messages=[{"role": "user", "content": "hi"}]': b'input="hi"',
            READ: MIGRATED_READ,
        },
    )


def test_tab_indentation_stays():
    source = program(
        "class Bot:\n"
        "\tdef ask(self):\n"
        "\t\tif True:\n"
        "\t\t\tresp = client.chat.completions.create(\n"
        '\t\t\t\tmodel="gpt-4o-mini",\n'
        '\t\t\t\tmessages=[{"role": "user", "content": "hi"}],\n'
        "\t\t\t)\n"
        "\t\t\treturn resp.choices[0].message.content\n"
        "\t\treturn None  \t \n"  # trailing blanks stay too
    )
    assert migrated(source) == swapped(
        source,
        {
            b"chat.completions.create": b"responses.create",
            b'messages=[{"role": "user", "content": "hi"}]': b'input="hi"',
            READ: MIGRATED_READ,
        },
    )


MULTI_LINE_CALL = (
    "resp = client.chat.completions.create(\n"
    '    model="gpt-4o-mini",\n'
    '    messages=[{"role": "system", "content": "Be brief."}, {"role": "user", "content": "hi"}],\n'
    "    max_tokens=100,\n"
    ")\n"
)
MULTI_LINE_REWRITES = {
    b"chat.completions.create": b"responses.create",
    b'messages=[{"role": "system", "content": "Be brief."}, {"role": "user", "content": "hi"}],':
    b'instructions="Be brief.",\n    input="hi",',
    b"max_tokens": b"max_output_tokens",
    READ: MIGRATED_READ,
}


def with_newlines(source: bytes, newline: bytes) -> bytes:
    return source.replace(b"\n", newline)


@pytest.mark.parametrize("newline", [b"\r\n", b"\r"], ids=["crlf", "lone-cr"])
def test_crlf_and_lone_cr_files_keep_their_line_endings(newline):
    source = with_newlines(program("x = 1\n\n" + MULTI_LINE_CALL + "print(resp.choices[0].message.content)\n"), newline)
    expected = {with_newlines(old, newline): with_newlines(new, newline) for old, new in MULTI_LINE_REWRITES.items()}
    assert migrated(source) == swapped(source, expected)


def test_a_file_ending_in_a_lone_cr_keeps_it():
    # LibCST prints such a module without its last carriage return; the engine puts it back.
    source = program(f"resp = {CALL.decode()}\nprint({READ.decode()})\n").replace(b"\n", b"\r")
    assert migrated(source).endswith(b"print(resp.output_text)\r")


@pytest.mark.parametrize(
    "newline, end", [(b"\n", b"\n\n   \n"), (b"\n", b"\n\n   "), (b"\r\n", b"\r\n\r\n  \t\r\n")], ids=["spaces-line", "spaces-unended", "crlf"]
)
def test_blank_lines_libcst_prints_with_a_line_less_stay(newline, end):
    # After an indented block, LibCST prints some runs of blank lines ending a file with a line
    # less: the engine parses the code without them and puts them back.
    source = program(f"for _ in range(2):\n    resp = {CALL.decode()}\n    print({READ.decode()})").replace(b"\n", newline) + end
    assert migrated(source) == swapped(source)


@pytest.mark.parametrize(
    "end",
    [b"\n\n    # an indented comment\n    # ends the file\n", b"\n# a comment\n\n  # and another, unended", b"\r\n\r\n    # crlf\r\n"],
    ids=["indented-comments", "unended", "crlf"],
)
def test_comment_lines_libcst_prints_only_the_last_of_stay(end):
    # Of indented comment lines ending a file (after blank lines), LibCST prints only the last:
    # the engine parses the code without them and puts them back.
    source = program(f"resp = {CALL.decode()}\nprint({READ.decode()})")
    if end.startswith(b"\r\n"):
        source = source.replace(b"\n", b"\r\n")
    source += end
    assert migrated(source) == swapped(source)


def test_comments_of_arguments_the_migrated_call_drops_go_above_its_statement():
    # A comment written with an argument the Responses API does without (a penalty of 0), or
    # inside one it writes otherwise, has no place left in the call: it keeps a line of its own.
    source = program(
        "def ask(q):\n"
        "    resp = client.chat.completions.create(\n"
        '        model="gpt-4o-mini",\n'
        "        messages=[\n"
        '            # {"role": "system", "content": "Be brief."},\n'
        '            {"role": "user", "content": q},\n'
        "        ],\n"
        "        frequency_penalty=0,  # keep it plain\n"
        "        # the default, said out loud\n"
        "        presence_penalty=0,\n"
        "    )\n"
        "    return resp.choices[0].message.content\n"
    )
    assert migrated(source).endswith(
        b"def ask(q):\n"
        b'    # {"role": "system", "content": "Be brief."},\n'
        b"    # keep it plain\n"
        b"    # the default, said out loud\n"
        b"    resp = client.responses.create(\n"
        b'        model="gpt-4o-mini",\n'
        b"        input=q,\n"
        b"    )\n"
        b"    return resp.output_text\n"
    )


def test_a_file_without_blank_lines_at_its_end_is_not_printed_to_be_read():
    # Printing a module costs a quarter of parsing it: a file LibCST cannot print back short
    # is not printed unless something in it is rewritten.
    import libcst

    printed = []
    watched = {libcst.Module.bytes.fget.__code__, libcst.Module.code.fget.__code__}

    def profile(frame, event, _):
        if event == "call" and frame.f_code in watched:
            printed.append(frame.f_code.co_name)

    source = program(f"resp = {CALL.decode()}\nprint(resp)\nresp = 1")
    sys.setprofile(profile)
    try:
        result = transform_source(source)
    finally:
        sys.setprofile(None)
    assert result.output == source and result.findings
    assert printed == []


def test_mixed_line_endings_stay_line_by_line():
    source = (
        b"from openai import OpenAI\r\n"
        b"\n"
        b"client = OpenAI()\r"
        b"x = 1\n"
        b"resp = client.chat.completions.create(\r\n"
        b'    model="gpt-4o-mini",\n'
        b'    messages=[{"role": "system", "content": "Be brief."}, {"role": "user", "content": "hi"}],\r\n'
        b"    max_tokens=100,\r"
        b")\n"
        b"print(resp.choices[0].message.content)\r\n"
        b"y = 2\r"
    )
    rewrites = dict(MULTI_LINE_REWRITES)
    del rewrites[next(old for old in rewrites if old.startswith(b"messages"))]
    rewrites[b'messages=[{"role": "system", "content": "Be brief."}, {"role": "user", "content": "hi"}],\r\n'] = (
        b'instructions="Be brief.",\r\n    input="hi",\r\n'
    )
    assert migrated(source) == swapped(source, rewrites)


def test_utf8_byte_order_mark_stays():
    source = b"\xef\xbb\xbf" + program(f"# caf\xc3\xa9\nresp = {CALL.decode()}\nprint({READ.decode()})\n")
    output = migrated(source)
    assert output.startswith(b"\xef\xbb\xbffrom openai")
    assert output == swapped(source)


def test_latin1_coding_cookie_keeps_the_file_in_latin1():
    body = (
        "# -*- coding: latin-1 -*-\n"
        "from openai import OpenAI\n\n"
        "client = OpenAI()\n"
        "greeting = 'Grüße, café'  # ½\n"
        'resp = client.chat.completions.create(model="gpt-4o-mini", messages=[{"role": "user", "content": "Ça va?"}])\n'
        "print(resp.choices[0].message.content)\n"
    )
    source = body.encode("latin-1")
    output = migrated(source)
    assert output == swapped(
        source,
        {
            b"chat.completions.create": b"responses.create",
            'messages=[{"role": "user", "content": "Ça va?"}]'.encode("latin-1"): 'input="Ça va?"'.encode("latin-1"),
            READ: MIGRATED_READ,
        },
    )
    assert "Grüße, café".encode("latin-1") in output and "Grüße".encode("utf-8") not in output


def test_no_final_newline_stays_missing():
    source = program(f"resp = {CALL.decode()}\nprint({READ.decode()})")
    output = migrated(source)
    assert output == swapped(source)
    assert output.endswith(b"print(resp.output_text)")


def test_backslash_continuations_semicolons_and_form_feeds_stay():
    source = program(
        "total = 1 + \\\n    2\n"
        "a = 1; b = 2\n"
        "\x0c\n"
        f"resp = {CALL.decode()}\n"
        "def later():\n    \x0c\n    return 1\n"
        f"print({READ.decode()})\n"
    )
    assert migrated(source) == swapped(source)


def test_a_comment_after_a_split_argument_stays_once():
    source = program(
        "resp = client.chat.completions.create(\n"
        '    model="gpt-4o-mini",  # the model\n'
        "    # the conversation\n"
        '    messages=[{"role": "system", "content": "Be brief."}, {"role": "user", "content": "hi"}],  # prompt\n'
        "    temperature=0,  # deterministic\n"
        ")\n"
        "print(resp.choices[0].message.content)\n"
    )
    assert migrated(source) == program(
        "resp = client.responses.create(\n"
        '    model="gpt-4o-mini",  # the model\n'
        "    # the conversation\n"
        '    instructions="Be brief.",\n'
        '    input="hi",  # prompt\n'
        "    temperature=0,  # deterministic\n"
        ")\n"
        "print(resp.output_text)\n"
    )


def test_an_added_argument_does_not_take_the_comment_of_the_last_one():
    source = program(
        "resp = client.chat.completions.create(\n"
        '    model="gpt-4o-mini",  # the model\n'
        '    messages=[{"role": "user", "content": "hi"}],\n'
        "    temperature=0,  # deterministic\n"
        ")\n"
        "print(resp.choices[0].message.content)\n"
    )
    assert migrated(source, Options(store_false=True)) == program(
        "resp = client.responses.create(\n"
        '    model="gpt-4o-mini",  # the model\n'
        '    input="hi",\n'
        "    temperature=0,  # deterministic\n"
        "    store=False,\n"
        ")\n"
        "print(resp.output_text)\n"
    )


def test_a_line_holding_part_of_the_result_is_not_removed_with_a_comment_inside():
    source = program(
        f"resp = {CALL.decode()}\n"
        "message = (resp.choices[0]  # the first choice\n"
        "           .message)\n"
        "print(message.content)\n"
    )
    output = transform_source(source).output
    assert b"# the first choice" in output


def test_comment_lines_above_a_removed_line_stay_above_the_next_one():
    source = program(
        f"resp = {CALL.decode()}\n"
        "\n"
        "# the first answer\n"
        "message = resp.choices[0].message\n"
        "# show it\n"
        "print(message.content)\n"
    )
    assert migrated(source) == program(
        f"resp = {MIGRATED_CALL.decode()}\n"
        "\n"
        "# the first answer\n"
        "# show it\n"
        f"print({MIGRATED_READ.decode()})\n"
    )


def test_comment_lines_above_a_removed_last_line_stay_at_the_end_of_its_block():
    source = program(
        "def answer():\n"
        f"    resp = {CALL.decode()}\n"
        "    print(resp.choices[0].message.content)\n"
        "    # kept for later\n"
        "    message = resp.choices[0].message\n"
        "\n"
        "\n"
        "answer()\n"
    )
    assert migrated(source) == program(
        "def answer():\n"
        f"    resp = {MIGRATED_CALL.decode()}\n"
        f"    print({MIGRATED_READ.decode()})\n"
        "    # kept for later\n"
        "\n"
        "\n"
        "answer()\n"
    )


def test_a_line_holding_part_of_the_result_is_not_removed_with_a_comment_after_it():
    source = program(
        f"resp = {CALL.decode()}\n"
        "message = resp.choices[0].message  # the first choice\n"
        "print(message.content)\n"
    )
    assert b"# the first choice" in transform_source(source).output


def test_comment_lines_above_a_removed_line_stay_above_a_line_that_became_several():
    source = program(
        f"first = {CALL.decode()}\n"
        'request: dict = {"model": "gpt-4o-mini"}\n'
        "# the first answer\n"
        "answer = first.choices[0].message\n"
        'request["messages"] = [{"role": "system", "content": "Be brief."}, {"role": "user", "content": answer.content}]\n'
        "second = client.chat.completions.create(**request)\n"
        "print(second.choices[0].message.content)\n"
    )
    result = transform_source(source)
    assert result.calls_migrated == 2, result.findings
    assert result.output == program(
        f"first = {MIGRATED_CALL.decode()}\n"
        'request: dict = {"model": "gpt-4o-mini"}\n'
        "# the first answer\n"
        'request["instructions"] = "Be brief."\n'
        'request["input"] = first.output_text\n'
        "second = client.responses.create(**request)\n"
        "print(second.output_text)\n"
    )
