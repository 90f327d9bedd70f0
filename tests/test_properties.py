"""Properties of the engine on generated programs (hypothesis).

Programs are drawn from a grammar of realistic pieces: a client built one of several ways,
Chat Completions calls with parameter sets the tool maps and ones it refuses, reads of the
result it maps and ones it does not, at module level, in functions, async functions and
methods, mixed with code that has nothing to do with OpenAI (functions, classes, comments,
strings that mention `chat.completions`), written with `\\n` or `\\r\\n` and spaces or tabs.
Whatever comes out must:

- parse (LibCST and Python's `ast`);
- be a fixed point: migrating the output again changes nothing;
- bring no new kind of line ending (a CRLF file gets no bare LF);
- keep untouched regions byte-identical: every top-level piece that holds no call to migrate
  and no read of a call's result (unrelated code, including a `.chat.completions.create` on an
  object that is no OpenAI client) appears in the output byte for byte and in the same order;
  the imports and definitions at the top may change (migrated code needs other names);
- read no migrated call's result through `choices`: no name bound to a `responses.*` call is
  read as `name.choices` (checked with `ast`).

Idempotence on every fixture is tests/test_fixtures.py::test_fixture_is_idempotent.
"""

from __future__ import annotations

import ast
import re
from collections import Counter
from dataclasses import dataclass
from typing import Dict, List, Set, Tuple

import libcst as cst
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from migrator.engine import transform_source
from migrator.model import Options
from migrator.shapes import walk

# --- the grammar --------------------------------------------------------------------------

CLIENTS = [
    "client = OpenAI()",
    'client = OpenAI(api_key="sk-test", timeout=30)',
    "client = openai.OpenAI()",
    "client = OpenAI().with_options(max_retries=2)",
    "client: OpenAI = OpenAI()",
    "client = make_client()",  # cannot be traced: reported, never rewritten
    'client = AzureOpenAI(api_version="2025-03-01-preview", azure_endpoint="https://x.openai.azure.com")',
]

MESSAGES = [
    '[{"role": "user", "content": "Hello"}]',
    '[{"role": "system", "content": "Be brief."}, {"role": "user", "content": question}]',
    "[{'role': 'user', 'content': f'Say {question!r}'}]",
    '[{"role": "user", "content": "Hi"}, {"role": "assistant", "content": "Hello!"}, {"role": "user", "content": "Bye"}]',
    "history",
    '[{"role": "user", "name": "ann", "content": "Hi"}]',
    '[\n    # {"role": "system", "content": "An old prompt."},\n    {"role": "user", "content": "Hello"},  # the question\n]',
]

PARAMETERS = [
    "temperature=0.2",
    "max_tokens=256",
    "max_tokens=8",  # below the Responses minimum: blocks
    "top_p=0.9",
    "n=1",
    "n=3",  # several choices: blocks
    'stop=["\\n"]',
    "seed=7",
    'user="u-1"',
    "store=True",
    'metadata={"k": "v"}',
    "logprobs=True",
    "frequency_penalty=0.5",
    "presence_penalty=0  # the default\n",
    'response_format={"type": "json_object"}',
    "parallel_tool_calls=False",
    "tools=TOOLS",
    'tool_choice="auto"',
    "**extra",  # unknown keys: blocks
    "unknown_option=1",
]

# Reads of the result, as lines using `{r}` (the result's name); `return` lines are only used
# in functions.
READS = [
    "print({r}.choices[0].message.content)",
    "text = {r}.choices[0].message.content\nprint(text)",
    "message = {r}.choices[0].message\nprint(message.content)",
    "print({r}.usage.total_tokens, {r}.usage.prompt_tokens, {r}.usage.completion_tokens)",
    "print({r}.id, {r}.model)",
    'if {r}.choices[0].finish_reason == "length":\n    print("cut")',
    "print({r}.choices[1].message.content)",
    "print(len({r}.choices))",
    "for choice in {r}.choices:\n    print(choice.message.content)",
    "print({r}.choices[0].logprobs)",
    "print({r}.system_fingerprint)",
    "print({r}.model_dump())",
    "handle({r})",
    "if {r}.choices[0].message.content is None:\n    pass",
    "print({r}.choices[0].message.tool_calls)",
    "print(({r}.choices[0]\n      .message.content))",
    "for call in {r}.choices[0].message.tool_calls or []:\n    print(call.function.name, call.function.arguments)",
]

# Other legacy calls, whole, with `{r}` the result's name and `{a}` the arguments.
OTHER_CALLS = [
    "{r} = client.chat.completions.create({a}, stream=True)\n"
    "for chunk in {r}:\n    if chunk.choices and chunk.choices[0].delta.content:\n"
    "        print(chunk.choices[0].delta.content, end=\"\")",
    "{r} = client.chat.completions.create({a}, stream=True)\n"
    "for chunk in {r}:\n    print(chunk.choices[0].delta.content or \"\", end=\"\")",
    "{r} = client.chat.completions.parse({a}, response_format=Answer)\nprint({r}.choices[0].message.parsed)",
    "raw_{r} = client.chat.completions.with_raw_response.create({a})\n"
    "print(raw_{r}.headers)\n{r} = raw_{r}.parse()\nprint({r}.choices[0].message.content)",
    "{r} = client.completions.create(model=\"gpt-3.5-turbo-instruct\", prompt=question)\nprint({r}.choices[0].text)",
]

UNRELATED = [
    "def helper_{i}(value):\n    return value + 1",
    'class Thing_{i}:\n    """A class."""\n\n    def method(self):\n        return {{"a": (1, 2,), \'b\': [3]}}',
    "# Note: chat.completions is the old API ({i}).",
    'DOC_{i} = "call client.chat.completions.create(model=..., messages=...)"',
    "PATTERN_{i} = r'choices\\[0\\]\\.message'",
    "value_{i} = (1 +\n    2)  # a comment",
    'if __name__ == "__main__":\n    print("main", {i})',
    "try:\n    import json\nexcept ImportError:  # never\n    json = None",
    "other_{i} = SomethingElse()\nother_{i}.chat.completions.create(model=\"x\")",
]


@dataclass
class Piece:
    code: str
    untouched: bool  # holds no legacy call and no read of a call's result


@st.composite
def call_pieces(draw, index: int) -> Piece:
    """A Chat Completions call and reads of its result, at module level or in a function."""
    result = draw(st.sampled_from([f"resp_{index}", "resp"]))  # a name several calls may share
    parameters = draw(st.lists(st.sampled_from(PARAMETERS), max_size=3, unique=True))
    arguments = ['model="gpt-4o-mini"', f"messages={draw(st.sampled_from(MESSAGES))}", *parameters]
    multi_line = draw(st.booleans())
    if multi_line:
        joined = "".join(f"\n    {argument}," for argument in arguments) + "\n"
    else:
        joined = ", ".join(arguments)
    reads = [draw(st.sampled_from(READS)).format(r=result) for _ in range(draw(st.integers(1, 3)))]
    place = draw(st.sampled_from(["module", "function", "async function", "method", "other call"]))
    if place == "other call":
        return Piece(draw(st.sampled_from(OTHER_CALLS)).format(r=result, a=", ".join(arguments[:2])), untouched=False)
    if place == "module":
        call = f"{result} = client.chat.completions.create({joined})"
        return Piece("\n".join([call, *reads]), untouched=False)
    if place == "method":
        call = f"{result} = self.client.chat.completions.create({joined})"
        body = "\n".join([call, *reads, f"return {result}.choices[0].message.content"])
        code = (
            f"class Bot_{index}:\n    def __init__(self):\n        self.client = OpenAI()\n\n"
            f"    def ask(self, question, history, extra):\n" + indent(body, 8)
        )
        return Piece(code, untouched=False)
    awaited = "await " if place == "async function" else ""
    receiver = "aclient" if awaited else "client"
    call = f"{result} = {awaited}{receiver}.chat.completions.create({joined})"
    ending = draw(st.sampled_from([f"return {result}.choices[0].message.content", "return None", f"return {result}"]))
    header = f"{'async ' if awaited else ''}def ask_{index}(question, history, extra):\n"
    return Piece(header + indent("\n".join([call, *reads, ending]), 4), untouched=False)


def indent(code: str, width: int) -> str:
    return "\n".join(" " * width + line if line else line for line in code.split("\n"))


@st.composite
def programs(draw) -> List[Piece]:
    header = "\n".join(
        [
            "import openai",
            "from openai import AsyncOpenAI, AzureOpenAI, OpenAI",
            "from pydantic import BaseModel",
            "",
            "class Answer(BaseModel):",
            "    text: str",
            "",
            'TOOLS = [{"type": "function", "function": {"name": "get_time", "parameters": {"type": "object", "properties": {}}}}]',
            draw(st.sampled_from(CLIENTS)),
            "aclient = AsyncOpenAI()",
            'question = "What is 2 + 2?"',
            'history = [{"role": "user", "content": question}]',
            "extra = {}",
        ]
    )
    pieces = [Piece(header, untouched=False)]
    kinds = draw(st.lists(st.sampled_from(["call", "unrelated"]), min_size=1, max_size=5))
    for index, kind in enumerate(kinds):
        if kind == "call":
            pieces.append(draw(call_pieces(index)))
        else:
            pieces.append(Piece(draw(st.sampled_from(UNRELATED)).format(i=index), untouched=True))
    return pieces


@st.composite
def sources(draw) -> Tuple[bytes, List[bytes], Options]:
    """A program's bytes, the bytes of its untouched pieces, and the options to migrate it with."""
    pieces = draw(programs())
    tabs = draw(st.booleans())
    newline = draw(st.sampled_from(["\n", "\r\n"]))

    def render(code: str) -> bytes:
        code = code.replace("    ", "\t") if tabs else code
        return code.replace("\n", newline).encode()

    blank_lines = render("\n" * draw(st.integers(0, 2)))
    source = blank_lines.join(render(piece.code + "\n") for piece in pieces)
    untouched = [render(piece.code + "\n") for piece in pieces if piece.untouched]
    options = draw(st.sampled_from([Options(), Options(unsafe_fixes=True), Options(store_false=True)]))
    return source, untouched, options


# --- the properties -----------------------------------------------------------------------


FUNCTIONS = (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)


def choices_read_on_responses(tree: ast.Module) -> List[str]:
    """Reads `name.choices` where `name` last held what a Responses call returned.

    Each function is its own scope, read in source order: a name holds a Responses result
    when assigned `<...>.responses.<...>(...)`, `.parse()` of such a name (a raw response),
    or when it is the variable of a loop over such a name (a stream's events).
    """
    problems = []
    for scope in [tree, *(node for node in ast.walk(tree) if isinstance(node, FUNCTIONS))]:
        holds_response: Dict[str, bool] = {}
        for node in sorted(own_nodes(scope), key=lambda n: (n.lineno, n.col_offset)):
            if isinstance(node, (ast.Assign, ast.AnnAssign)) and node.value is not None:
                targets = node.targets if isinstance(node, ast.Assign) else [node.target]
                for target in targets:
                    if isinstance(target, ast.Name):
                        holds_response[target.id] = is_response(node.value, holds_response)
            elif isinstance(node, (ast.For, ast.AsyncFor)):
                stream = isinstance(node.iter, ast.Name) and holds_response.get(node.iter.id, False)
                for target in ast.walk(node.target):
                    if isinstance(target, ast.Name):
                        holds_response[target.id] = stream
            elif isinstance(node, ast.Attribute) and node.attr == "choices" and isinstance(node.value, ast.Name):
                if holds_response.get(node.value.id):
                    problems.append(ast.unparse(node))
    return problems


def own_nodes(scope: ast.AST) -> List[ast.AST]:
    """The nodes of `scope` with a position, but those of the functions inside it."""
    nodes, pending = [], list(ast.iter_child_nodes(scope))
    while pending:
        node = pending.pop()
        if hasattr(node, "lineno"):
            nodes.append(node)
        if not isinstance(node, FUNCTIONS):
            pending.extend(ast.iter_child_nodes(node))
    return nodes


def is_response(value: ast.expr, holds_response: Dict[str, bool]) -> bool:
    value = value.value if isinstance(value, ast.Await) else value
    if not isinstance(value, ast.Call):
        return False
    func = value.func
    if isinstance(func, ast.Attribute) and func.attr == "parse" and isinstance(func.value, ast.Name):
        return holds_response.get(func.value.id, False)
    chain = []
    while isinstance(func, ast.Attribute):
        chain.append(func.attr)
        func = func.value
    return "responses" in chain


def comments(data: bytes) -> "Counter[str]":
    """The comments of a module, by their text."""
    return Counter(node.value for node in walk(cst.parse_module(data)) if isinstance(node, cst.Comment))


def line_endings(data: bytes) -> Set[bytes]:
    return set(re.findall(rb"\r\n|\r|\n", data))


def assert_in_order(output: bytes, pieces: List[bytes]) -> None:
    position = 0
    for piece in pieces:
        found = output.find(piece, position)
        assert found >= 0, f"untouched piece changed or moved:\n{piece.decode()}\n--- output ---\n{output.decode()}"
        position = found + len(piece)


# Found by this test: migrating the second loop over `chunk` made the first one migratable on
# the next run (its `chunk` looked read after the loop, in the second loop's body).
TWO_LOOPS_OVER_ONE_NAME = (
    b"""from openai import OpenAI

client = OpenAI()
first = client.chat.completions.create(model="m", messages=[{"role": "user", "content": "Hi"}], stream=True)
for chunk in first:
    if chunk.choices and chunk.choices[0].delta.content:
        print(chunk.choices[0].delta.content, end="")
second = client.chat.completions.create(model="m", messages=[{"role": "user", "content": "Hi"}], stream=True)
for chunk in second:
    print(chunk.choices[0].delta.content or "", end="")
""",
    [],
    Options(),
)


@settings(max_examples=12, deadline=5000, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(sources())
@example(TWO_LOOPS_OVER_ONE_NAME)
def test_generated_programs_migrate_to_parseable_idempotent_lossless_code(generated):
    source, untouched, options = generated
    ast.parse(source)  # the generator itself must produce valid programs
    output = transform_source(source, options).output

    cst.parse_module(output)
    tree = ast.parse(output)
    assert transform_source(output, options).output == output
    assert_in_order(output, untouched)
    assert line_endings(output) <= line_endings(source)
    assert not choices_read_on_responses(tree), output.decode()
    assert not comments(source) - comments(output), output.decode()  # moved at most, never lost
