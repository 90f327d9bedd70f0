"""
## What it does
Reports test code that stands in for Chat Completions, at the mock or the fake:

- a mock of the SDK's method, by the path of its class
  (`mock.patch("openai.resources.chat.Completions.create")`, `mocker.patch(...)`,
  `monkeypatch.setattr("openai.resources.chat.completions.AsyncCompletions.create", fake)`),
  or by the class or the resource object itself (`patch.object(Completions, "create")`,
  `monkeypatch.setattr(client.chat.completions, "create", fake)`);
- HTTP routes faked for the endpoint (`respx.post(".../chat/completions")`,
  `responses.add(responses.POST, ".../chat/completions")`,
  `httpx_mock.add_response(url=".../chat/completions")`, `requests_mock.post(...)`), and
  `httpx.MockTransport(handler)` whose handler (a function of the module, or a lambda) spells
  `chat/completions`, in test code like the other mocks (every module of an HTTP library or an
  SDK imports `httpx`: reading each of those would cost far more than the transports found);
- fakes shaped like a Chat response: the SDK's Chat types built (`ChatCompletion(...)`,
  `ChatCompletion.model_validate(...)` or `.construct(...)`, `ChatCompletionChunk`,
  `ChatCompletionMessage`, `Choice`, any class of `openai.types.chat` but the request's
  `...Param`s), mocks and namespaces given `choices` or a Chat spec (`MagicMock(choices=[...])`,
  `Mock(spec=ChatCompletion)`, `create_autospec(ChatCompletion)`,
  `SimpleNamespace(choices=...)`), `choices` set on a mock (`create.return_value.choices = [...]`,
  `response.choices[0].message.content = "Hi"` where `response` holds a `MagicMock()`), and
  JSON bodies (`{"choices": [{"message": {...}}]}`, a chunk's `delta`, a text completion's
  `text`). A fake inside a reported mock (`respx.post(URL).respond(json={...})`) or fake is
  reported with it. Fakes count only in test code: a module importing a test library
  (`unittest.mock`, `pytest`, `respx`, ...), so that production code building Chat types (a
  proxy answering in that format) is not reported. A fake known only by its `choices` (not by a
  Chat type) is reported at low confidence: other things have choices too. Only modules that
  say `completion` somewhere (a call, a type, a name, a comment) are read for fakes: test modules
  full of forms' and model fields' `choices` are many, and reading each would cost far more.

The finding names the calls that make the mock stale: the Chat Completions calls of the project
modules the test module imports, directly or through others (`app/llm.py:12`, the nearest
first, at most three and how many more), as a text search of those modules finds them. The
legacy text completions (`openai.resources.completions`) count too.

## Why
Once the code under test is migrated to `responses.create`, these stand-ins intercept nothing
and these fakes no longer match what it reads (`output_text`, `output`, not `choices`): the
tests then reach the network, fail, or pass without testing the call at all. The tool migrates
the calls, not the tests that fake them, so a migration that leaves them would be silent.

## Example
```python
from unittest import mock

from openai.types.chat import ChatCompletion

@mock.patch("openai.resources.chat.Completions.create")
def test_answer(create):
    create.return_value = ChatCompletion.model_validate(COMPLETION)
    assert answer("Hello") == "Hi"
```

## Use instead
Mock the Responses method (`openai.resources.responses.Responses.create`, or `AsyncResponses`
for the async client) and return a `Response` (`openai.types.responses.Response`, whose
`output_text` the SDK computes from its `output` items), or route `/v1/responses`, when the
code under test is migrated; until then, keep the mock as it is.

## Fix safety
Safe, for the simple stand-ins of a test module whose code under test migrates in the same run;
the others are only reported. A mock can only move with the code under test, and whether that
code migrates is decided in other modules (a call keeps a parameter with no equivalent, or its
client talks to another server): a patch moved to `Responses.create` while a call it
intercepted stays on Chat Completions sends that test to the network. So the module's
stand-ins move together, and only when all of these hold:

- every Chat Completions call of the project modules the test module imports (directly or
  through others, and through the `conftest.py` files above it) migrates in this run, and the
  test module makes none itself;
- each stand-in is one of these, which the tool moves:
  - a patch of `create` by its class's path (`"openai.resources.chat.Completions.create"` →
    `"openai.resources.responses.Responses.create"`, `AsyncCompletions` → `AsyncResponses`)
    or by a client's path (`"app.llm.client.chat.completions.create"` →
    `"app.llm.client.responses.create"`);
  - `patch.object(client.chat.completions, "create", ...)` and
    `monkeypatch.setattr(client.chat.completions, "create", fake)` (→ `client.responses`), and
    the same of the SDK's class (`monkeypatch.setattr(AsyncCompletions, "create", fake)` →
    `AsyncResponses`, imported from `openai.resources.responses` in its place);
  - a mock's method, `mock_client.chat.completions.create.return_value` or
    `.assert_called_once()` (→ `mock_client.responses.create`);
  - a fake answering with one message's text, `MagicMock(choices=[MagicMock(message=MagicMock(content=X))])`
    (or `Mock`, `SimpleNamespace`; the message may say its `role`) → `MagicMock(output_text=X)`,
    and `create.return_value.choices[0].message.content = X` → `create.return_value.output_text = X`;
    the fake must be only what a mock answers with (`return_value`, `side_effect`, what a fake
    function returns), not read by the test;
- every answer a mock of the module is given is one of those fakes, a mock without a Chat
  shape, a constant, an exception (`side_effect=RateLimitError(...)`), or a function (a lambda)
  of the module that takes no notice of its arguments and returns one;
- the module does not read what a mock was called with (`call_args`, `assert_called_with`, ...):
  the migration changes the arguments (`input` for `messages`, ...).

The migrated code reads a fake's text as `output_text`, which the fake then holds. A fake built
from the SDK's types, a JSON body, an HTTP route or transport, a fake returned by a helper of
another module or a fixture, is left to a person, who builds its `Response` (its `output`
items, their ids and statuses, have no Chat counterpart). Only what the tool can read is
reported: a target written as a string literal, a class imported from `openai.resources`, an
attribute chain ending in `.completions`, a URL literal passed to a mocking library's call, a
fake built in the module; not a fake a helper of another module returns (`fake_completion("Hi")`),
a dict built key by key, or a transport handler that matches the URL without spelling it.
"""

import dataclasses
import re
from typing import Iterator, List, Optional, Tuple

import libcst as cst

from migrator.model import Confidence, FixSafety
from migrator.rule import Example, Import, Report, Rule, UseRewrite
from migrator.screen import CALL_SITE
from migrator.shapes import code_of, dict_entries, is_name, keyword_argument, literal_string, one_line, parameters, string_like, walk

RESOURCES = "openai.resources."
MOCKED_METHODS = frozenset({"create", "parse", "stream"})
ENDPOINT = "chat/completions"
# The names a test binds the HTTP mocking libraries (and their pytest fixtures) to.
HTTP_MOCKS = frozenset({"respx", "respx_mock", "responses", "rsps", "requests_mock", "httpx_mock", "aioresponses"})
# The response types of Chat Completions live here (beside the request's `...Param` types).
CHAT_TYPES = "openai.types.chat."
# Class methods of the SDK's (pydantic) models that build one.
BUILDERS = frozenset({"model_validate", "model_validate_json", "model_construct", "construct", "parse_obj", "parse_raw"})
MOCK_MODULES = frozenset({"unittest.mock", "mock"})
MOCK_CLASSES = frozenset({"Mock", "MagicMock", "AsyncMock", "NonCallableMock", "NonCallableMagicMock", "create_autospec"})
# What a choice of a Chat response (or chunk, or text completion) holds, one of which a fake
# dict's choice must spell (not a text completion's `text`, which a quiz's choices spell too).
CHOICE_KEYS = frozenset({"message", "delta", "finish_reason"})

RULE = Rule(
    title="Tests that mock Chat Completions",
    safety=FixSafety.SAFE,
    # `Completions`, `completions` and `ChatCompletion` alike. Not `choices` alone: test modules
    # full of form and model-field `choices` (Django's) would all be parsed with LibCST, more
    # than doubling what a tree's check parses, for fakes that name no completion anywhere.
    needs=("ompletion",),
    # Test code: what mocks is imported from these (pytest for its fixtures: `monkeypatch`,
    # `mocker`, `httpx_mock`, `requests_mock`); and the SDK's classes patched.
    needs_imports=("unittest.mock", "mock", "pytest", "pytest_mock", "respx", "responses", "requests_mock", "pytest_httpx", "aioresponses", "openai.resources"),
    examples=[
        Example(
            before=(
                "from unittest import mock\n"
                '@mock.patch("openai.resources.chat.Completions.create")\n'
                "def test_answer(create):\n"
                "    assert answer('Hello')\n"
            ),
            finding="stands in for Chat Completions",
        ),
        Example(
            before=(
                "import respx\n"
                "def test_route():\n"
                '    respx.post("https://api.openai.com/v1/chat/completions").respond(json=BODY)\n'
            ),
            finding="route `/v1/responses`",
        ),
        Example(
            before=(
                "import pytest\n"
                "def test_limits(monkeypatch):\n"
                '    monkeypatch.setattr(settings, "max_completions", 3)\n'
            ),
        ),
        Example(
            before=(
                "from unittest.mock import MagicMock\n"
                "def test_answer():\n"
                "    fake_completion = MagicMock(choices=[MagicMock(message=MagicMock(content='Hi'))])\n"
                "    assert answer('Hello', fake_completion) == 'Hi'\n"
            ),
            finding="fake a `Response` (`openai.types.responses.Response`) instead",
        ),
        Example(
            before=(
                "from openai.types.chat import ChatCompletion\n"
                "def to_chat(text):\n"
                "    return ChatCompletion.model_validate({'choices': [{'message': {'content': text}}]})\n"
            ),
        ),
    ],
)


# The test libraries among them: the fakes of a module importing none are not taken for fakes
# (production code may build Chat types for other reasons: a proxy, a converter).
TEST_LIBRARIES = tuple(module for module in RULE.needs_imports if module != "openai.resources")


@RULE.module
def mocks(analysis) -> List[Report]:
    reports = []
    # Every spelling of the class holds its name: the text is tested once, not each call's name resolved.
    transports = b"MockTransport" in analysis.source
    for call in analysis.nodes.nodes_of(cst.Call):
        replacement = _mocked_method(call, analysis) or _mocked_route(call) or (_faked_transport(call, analysis) if transports else None)
        if replacement is not None:
            reports.append(Report(
                call,
                f"`{_code(call, analysis)}` stands in for Chat Completions in tests: once {_stale_making(analysis)} move "
                f"to `responses.create`, it intercepts nothing (the tests then reach the network, or pass without "
                f"testing the call); {replacement} instead",
            ))
    if not analysis.imports.imports_reach(TEST_LIBRARIES):
        return reports
    fakes = dict(_fakes(analysis))
    reported = {report.node for report in reports} | set(fakes)
    for fake, confidence in fakes.items():
        if not _inside_reported(fake, reported, analysis):
            reports.append(Report(
                fake,
                f"`{_code(fake, analysis)}` fakes a Chat Completions response in tests: once "
                f"{_stale_making(analysis)} move to `responses.create`, they return a `Response` (read through "
                f"`output_text` and `output`, with no `choices`): the tests then fail, or pass without testing the call; "
                f"fake a `Response` (`openai.types.responses.Response`) instead",
                confidence,
            ))
    for method in _mocks_chat_methods(analysis):
        if not _inside_reported(method, reported, analysis):
            reports.append(Report(
                method,
                f"`{_code(method, analysis)}` is a mock's Chat Completions method: once {_stale_making(analysis)} move to "
                f"`responses.create`, nothing calls it (the tests then fail, or pass without testing the call); "
                f"configure the mock's `responses.create` instead",
            ))
    return _moved_with_the_code(reports, analysis)


def _code(node: cst.CSTNode, analysis) -> str:
    return one_line(analysis.module.code_for_node(node))


def _stale_making(analysis) -> str:
    """The calls whose migration makes the module's mocks stale: those the project modules it
    imports make, where the project says which."""
    places = analysis.project.where_chat_calls_imported()
    if places is None:
        return "the Chat Completions calls of the code under test"
    return f"the Chat Completions calls of the modules it imports ({places})"


def _mocked_method(call: cst.Call, analysis) -> Optional[str]:
    """What to mock instead, when ``call`` mocks a Chat (or text) Completions method: ``patch``
    or ``setattr`` of a dotted path, ``patch.object`` or ``setattr`` of a class or a resource."""
    func = call.func
    name = _called_name(call)
    positional = [arg.value for arg in call.args if arg.keyword is None and not arg.star]
    if name in ("patch", "setattr") and positional:
        target = literal_string(positional[0])
        if target is not None and _is_completions_path(target):
            return _responses_method(target)
    if (name == "setattr" or (name == "object" and _is_patch(func))) and len(positional) >= 2:
        method = literal_string(positional[1])
        owner = positional[0]
        if method in MOCKED_METHODS and _is_completions_resource(owner, analysis):
            return _responses_method(analysis.module.code_for_node(owner))
    return None


def _is_patch(func: cst.BaseExpression) -> bool:
    """``patch.object``, ``mock.patch.object``, ``mocker.patch.object``."""
    return isinstance(func, cst.Attribute) and (
        (isinstance(func.value, cst.Attribute) and func.value.attr.value == "patch")
        or (isinstance(func.value, cst.Name) and func.value.value == "patch")
    )


def _is_completions_path(target: str) -> bool:
    """``openai.resources.chat.Completions.create`` and the like (``AsyncCompletions``,
    ``openai.resources.chat.completions.completions...``, the legacy ``openai.resources.completions``),
    or a client's method by the path of the client (``app.llm.client.chat.completions.create``)."""
    parts = target.split(".")
    if not target.startswith(RESOURCES):
        return len(parts) > 3 and parts[-3:-1] == ["chat", "completions"] and parts[-1] in MOCKED_METHODS
    return parts[-1] in MOCKED_METHODS and parts[-2] in ("Completions", "AsyncCompletions")


def _is_completions_resource(owner: cst.BaseExpression, analysis) -> bool:
    """A class ``Completions`` / ``AsyncCompletions`` imported from ``openai.resources``, or a
    resource reached through a client (``client.chat.completions``)."""
    if isinstance(owner, cst.Attribute) and owner.attr.value == "completions":
        return True
    qualified = analysis.imports.qualified(owner) if isinstance(owner, (cst.Name, cst.Attribute)) else set()
    return any(q.startswith(RESOURCES) and q.rsplit(".", 1)[-1] in ("Completions", "AsyncCompletions") for q in qualified)


def _responses_method(mocked: str) -> str:
    if _is_completions_path(mocked) and not mocked.startswith(RESOURCES):  # a client's, by its path
        return f"mock `{mocked.rsplit('.', 3)[0]}.responses.create` (returning a `Response`)"
    cls = "AsyncResponses" if "Async" in mocked else "Responses"
    return f"mock `openai.resources.responses.{cls}.create` (returning a `Response`)"


def _mocked_route(call: cst.Call) -> Optional[str]:
    """What to route instead, when ``call`` fakes the HTTP endpoint with a mocking library."""
    root = call.func
    while isinstance(root, (cst.Attribute, cst.Call)):
        root = root.value if isinstance(root, cst.Attribute) else root.func
    if not (isinstance(root, cst.Name) and root.value in HTTP_MOCKS):
        return None
    for arg in call.args:
        url = literal_string(arg.value)
        if url is not None and ENDPOINT in url:
            return "route `/v1/responses`"
    return None


def _faked_transport(call: cst.Call, analysis) -> Optional[str]:
    """What to answer instead, when ``call`` is ``httpx.MockTransport(handler)`` and the handler
    (a function of the module, or a lambda) spells the endpoint: it answers Chat Completions."""
    if "httpx.MockTransport" not in analysis.imports.qualified(call.func) or not call.args:
        return None
    handler = call.args[0].value
    bodies = [handler] if isinstance(handler, cst.Lambda) else analysis.bindings.bound_values(handler)
    for body in bodies:
        if isinstance(body, (cst.Lambda, cst.FunctionDef)) and any(
            ENDPOINT in (literal_string(node) or "") for node in walk(body) if isinstance(node, cst.SimpleString)
        ):
            return "answer `/v1/responses` with a `Response`"
    return None


def _fakes(analysis) -> Iterator[Tuple[cst.CSTNode, Confidence]]:
    """What the module builds to stand for a Chat response, and how surely: an SDK Chat type (or
    a mock with its spec); a mock or a namespace with ``choices``, a dict shaped like the JSON
    body, a ``choices`` set on a mock, which other things with choices may look like too."""
    for call in analysis.nodes.nodes_of(cst.Call):
        if _builds_chat_type(call, analysis) or _is_mock_of_chat_type(call, analysis):
            yield call, Confidence.HIGH
        elif _is_mock_with_choices(call, analysis):
            yield call, Confidence.LOW
    for node in analysis.nodes.nodes_of(cst.Dict):
        if _is_chat_body(node):
            yield node, Confidence.LOW
    for assign in analysis.nodes.nodes_of(cst.Assign):
        if any(_sets_choices_of_a_mock(target.target, analysis) for target in assign.targets):
            yield assign, Confidence.LOW


def _builds_chat_type(call: cst.Call, analysis) -> bool:
    """``ChatCompletion(...)``, ``ChatCompletion.model_validate(...)`` (``construct``, ...), and
    the like of the other response types of ``openai.types.chat`` (not the request ``...Param``s)."""
    cls = call.func.value if isinstance(call.func, cst.Attribute) and call.func.attr.value in BUILDERS else call.func
    return _is_chat_type(cls, analysis)


def _is_chat_type(node: cst.BaseExpression, analysis) -> bool:
    if not isinstance(node, (cst.Name, cst.Attribute)):
        return False
    for qualified in analysis.imports.qualified(node):
        name = qualified.rsplit(".", 1)[-1]
        if qualified.startswith(CHAT_TYPES) and name[:1].isupper() and not name.endswith(("Param", "Params")):
            return True
    return False


def _is_mock_with_choices(call: cst.Call, analysis) -> bool:
    """``MagicMock(choices=[...])``, ``SimpleNamespace(choices=...)``."""
    return _is_mock_class(call.func, analysis) and any(arg.keyword is not None and arg.keyword.value == "choices" for arg in call.args)


def _is_mock_of_chat_type(call: cst.Call, analysis) -> bool:
    """``Mock(spec=ChatCompletion)``, ``MagicMock(ChatCompletion)``, ``create_autospec(ChatCompletion)``."""
    if not _is_mock_class(call.func, analysis):
        return False
    positional = [arg.value for arg in call.args if arg.keyword is None and not arg.star]
    specs = positional[:1] + [arg.value for arg in call.args if arg.keyword is not None and arg.keyword.value in ("spec", "spec_set")]
    return any(_is_chat_type(spec, analysis) for spec in specs)


def _is_mock_class(func: cst.BaseExpression, analysis) -> bool:
    """A mock class of ``unittest.mock`` (or the ``mock`` backport, or pytest-mock's
    ``mocker``), or ``types.SimpleNamespace``."""
    if isinstance(func, cst.Attribute) and is_name(func.value, "mocker"):
        return func.attr.value in MOCK_CLASSES
    return any(
        qualified.rsplit(".", 1)[0] in MOCK_MODULES and qualified.rsplit(".", 1)[-1] in MOCK_CLASSES
        or qualified == "types.SimpleNamespace"
        for qualified in analysis.imports.qualified(func)
    )


def _is_chat_body(node: cst.Dict) -> bool:
    """``{"choices": [{"message": {...}}, ...]}``: a Chat Completions response as JSON (a chunk
    with ``delta``, a text completion with ``text``)."""
    entries = dict_entries(node)
    choices = entries.get("choices") if entries else None
    if choices is None or not isinstance(choices.value, (cst.List, cst.Tuple)):
        return False
    for element in choices.value.elements:
        choice = dict_entries(element.value)
        if choice is not None and CHOICE_KEYS & set(choice):
            return True
    return False


def _sets_choices_of_a_mock(target: cst.BaseExpression, analysis) -> bool:
    """``create.return_value.choices = [...]``, ``response.choices[0].message.content = "Hi"``
    where ``response`` holds a mock: the mock is given the shape of a Chat response."""
    chain = []
    node = target
    while isinstance(node, (cst.Attribute, cst.Subscript)):
        if isinstance(node, cst.Attribute):
            chain.append(node.attr.value)
        node = node.value
    if "choices" not in chain:
        return False
    below = chain[chain.index("choices") + 1 :]  # what ``choices`` is read from, innermost last
    if "return_value" in below:
        return True
    return isinstance(node, cst.Name) and any(
        isinstance(value, cst.Call) and _is_mock_class(value.func, analysis) for value in analysis.bindings.bound_values(node)
    )


def _inside_reported(node: cst.CSTNode, reported: set, analysis) -> bool:
    """Is ``node`` part of something reported already: a fake inside a fake, or the answer a
    reported mock gives (``respx.post(URL).respond(json={...})``, ``patch(..., return_value=...)``)?"""
    current = analysis.nodes.parents.get(node)
    while current is not None:
        if current in reported:
            return True
        if isinstance(current, cst.Call):
            func = current.func
            while isinstance(func, (cst.Attribute, cst.Call)):
                func = func.value if isinstance(func, cst.Attribute) else func.func
                if func in reported:
                    return True
        current = analysis.nodes.parents.get(current)
    return False


# -- moving the stand-ins with the code they stand in for -------------------------------------

# What a mock is configured to answer with, as a keyword of the call making or patching it.
ANSWER_KEYWORDS = frozenset({"return_value", "side_effect", "new"})
ANSWER_ATTRIBUTES = frozenset({"return_value", "side_effect"})
# What the SDK's resource classes become, by the path they are patched through.
RESPONSES_CLASSES = {"Completions": "Responses", "AsyncCompletions": "AsyncResponses"}
RESPONSES_MODULES = {("chat",): "responses", ("chat", "completions"): "responses", ("chat", "completions", "completions"): "responses.responses"}
# A mock's own attributes and methods (read of it, not of what it stands in for).
MOCK_ATTRIBUTES = frozenset({
    "return_value", "side_effect", "called", "call_count", "await_count", "reset_mock",
    "assert_called", "assert_called_once", "assert_not_called", "assert_awaited", "assert_awaited_once", "assert_not_awaited",
})
# How a test reads the arguments a mock was called with, which the migration changes (`input`
# for `messages`, ...): a module that does is left to a person.
CALL_INSPECTION = re.compile(r"call_args|_called_with|_awaited_with|assert_any_call|assert_any_await|assert_has_calls|assert_has_awaits|mock_calls|method_calls|await_args")
EXCEPTION_NAME = re.compile(r"(Error|Exception|Timeout|Exit|Interrupt)$")


def _mocks_chat_methods(analysis) -> Iterator[cst.Attribute]:
    """``client.chat.completions.create`` read as a mock's (``.return_value``, ``.assert_called_once()``, ...)."""
    for node in analysis.nodes.nodes_of(cst.Attribute):
        if node.attr.value in MOCK_ATTRIBUTES and _is_chat_method(node.value):
            yield node.value


def _is_chat_method(node: cst.BaseExpression) -> bool:
    """``<something>.chat.completions.create``."""
    return (
        isinstance(node, cst.Attribute) and node.attr.value == "create"
        and isinstance(node.value, cst.Attribute) and node.value.attr.value == "completions"
        and isinstance(node.value.value, cst.Attribute) and node.value.value.attr.value == "chat"
    )


def _moved_with_the_code(reports: List[Report], analysis) -> List[Report]:
    """The reports, each with the fix that moves its stand-in to the Responses API, when they
    all have one and the calls they stand in for all move in this run: the stand-ins are
    simple (a mock of `create` answering with a message's text, or with nothing in particular),
    the module does not read what its mocks were called with (the migration changes it), and
    every answer a mock is given is one the tool reads. Else the reports as they are."""
    text = analysis.source.decode("latin-1")
    if not reports or CALL_INSPECTION.search(text) or CALL_SITE.search(text):
        return reports
    moves = [_moves(report.node, analysis) for report in reports]
    if any(move is None for move in moves) or not _answers_are_known(analysis):
        return reports
    if not analysis.project.chat_calls_all_migrate():
        return reports
    return [dataclasses.replace(report, fix=tuple(move)) for report, move in zip(reports, moves)]


def _moves(node: cst.CSTNode, analysis) -> Optional[List[UseRewrite]]:
    """The rewrites moving one stand-in, and the fakes it answers with, to the Responses API;
    None when one of them does not move."""
    if isinstance(node, cst.Call) and _is_mock_with_choices(node, analysis):
        fake = _moved_fake(node, analysis)
        return [fake] if fake is not None else None
    if isinstance(node, cst.Assign):
        moved = _moved_choices_assignment(node)
        methods = [_moved_resource(method.value) for method in walk(node.targets[0]) if _is_chat_method(method)]
        return [moved, *methods] if moved is not None else None
    if isinstance(node, cst.Attribute):  # a mock's Chat method
        return [_moved_resource(node.value)]
    if not isinstance(node, cst.Call):
        return None
    mocked = _moved_mock(node, analysis)
    if mocked is None:
        return None
    fakes = [_moved_fake(inner, analysis) for inner in walk(node) if isinstance(inner, cst.Call) and _is_mock_with_choices(inner, analysis)]
    if any(fake is None for fake in fakes):
        return None
    return [mocked, *fakes]


def _moved_mock(call: cst.Call, analysis) -> Optional[UseRewrite]:
    """``patch("...Completions.create")`` → ``patch("...Responses.create")``, and the client's
    ``.chat.completions`` → ``.responses`` of ``patch.object`` and ``setattr``: only ``create``."""
    positional = [arg.value for arg in call.args if arg.keyword is None and not arg.star]
    target = positional[0] if positional else None
    if isinstance(target, cst.SimpleString):
        moved = _responses_path(literal_string(target) or "")
        if moved is None or target.prefix or target.quote not in ("'", '"'):
            return None
        return UseRewrite(target, lambda updated: string_like(updated, moved))
    if len(positional) >= 2 and literal_string(positional[1]) == "create" and isinstance(target, (cst.Name, cst.Attribute)):
        if isinstance(target, cst.Attribute) and target.attr.value == "completions" and isinstance(target.value, cst.Attribute) and target.value.attr.value == "chat":
            return _moved_resource(target)
        return _moved_class(target, analysis)
    return None


def _moved_class(owner: cst.BaseExpression, analysis) -> Optional[UseRewrite]:
    """The SDK's class patched: ``Completions`` imported from ``openai.resources`` → ``Responses``,
    imported in its place; ``openai.resources.chat.Completions`` spelled out → its Responses path."""
    for qualified in sorted(analysis.imports.qualified(owner)):
        moved = _responses_path(f"{qualified}.create")
        if moved is None or not qualified.startswith(RESOURCES):
            continue
        module, cls = moved[: -len(".create")].rsplit(".", 1)
        old_module, old_cls = qualified.rsplit(".", 1)
        if isinstance(owner, cst.Name) and owner.value == old_cls:
            return UseRewrite(
                owner,
                lambda updated: cst.Name(cls),
                add_imports=(Import(module, cls),),
                remove_unused_imports=(Import(old_module, old_cls),),
            )
        if isinstance(owner, cst.Attribute) and code_of(owner) == qualified:
            return UseRewrite(owner, lambda updated: cst.parse_expression(f"{module}.{cls}"))
    return None


def _responses_path(target: str) -> Optional[str]:
    """The path of the Responses method a patch of the Chat method at ``target`` becomes."""
    parts = target.split(".")
    if parts[-1] != "create":
        return None
    if not target.startswith(RESOURCES):
        return ".".join([*parts[:-3], "responses", "create"]) if _is_completions_path(target) else None
    module = RESPONSES_MODULES.get(tuple(parts[2:-2]))
    cls = RESPONSES_CLASSES.get(parts[-2])
    return f"{RESOURCES}{module}.{cls}.create" if module and cls else None


def _moved_resource(resource: cst.Attribute) -> UseRewrite:
    """``<client>.chat.completions`` → ``<client>.responses``."""

    def build(updated: cst.Attribute) -> cst.Attribute:
        return updated.with_changes(value=updated.value.value, attr=cst.Name("responses"))

    return UseRewrite(resource, build)


def _fake_content(call: cst.Call, analysis) -> Optional[cst.BaseExpression]:
    """The text a fake answers with: ``MagicMock(choices=[MagicMock(message=MagicMock(content=X))])``
    (or ``SimpleNamespace``, ...; the message may say its ``role``), X; else None."""
    if [arg.keyword.value if arg.keyword else None for arg in call.args] != ["choices"]:
        return None
    choices = call.args[0].value
    if not isinstance(choices, (cst.List, cst.Tuple)) or len(choices.elements) != 1:
        return None
    choice = choices.elements[0].value
    message = _only_keyword(choice, "message", (), analysis)
    return _only_keyword(message, "content", ("role",), analysis) if message is not None else None


def _only_keyword(node: cst.BaseExpression, keyword: str, others: Tuple[str, ...], analysis) -> Optional[cst.BaseExpression]:
    """What a mock class call ``node`` passes as ``keyword``, when it passes nothing else (but ``others``)."""
    if not (isinstance(node, cst.Call) and _is_mock_class(node.func, analysis)):
        return None
    keywords = [arg.keyword.value if arg.keyword else None for arg in node.args]
    if keywords.count(keyword) != 1 or any(k != keyword and k not in others for k in keywords):
        return None
    return next(arg.value for arg in node.args if arg.keyword is not None and arg.keyword.value == keyword)


def _moved_fake(call: cst.Call, analysis) -> Optional[UseRewrite]:
    """``MagicMock(choices=[MagicMock(message=MagicMock(content=X))])`` → ``MagicMock(output_text=X)``,
    where it is what a mock answers with, and nothing else reads it."""
    if _fake_content(call, analysis) is None or not _is_answer(call, analysis):
        return None

    def build(updated: cst.Call) -> cst.Call:
        message = keyword_argument(updated.args[0].value.elements[0].value, "message")
        content = keyword_argument(message, "content")
        return updated.with_changes(args=[updated.args[0].with_changes(keyword=cst.Name("output_text"), value=content)])

    return UseRewrite(call, build)


def _moved_choices_assignment(assign: cst.Assign) -> Optional[UseRewrite]:
    """``create.return_value.choices[0].message.content = X`` → ``create.return_value.output_text = X``."""
    if len(assign.targets) != 1:
        return None
    content = assign.targets[0].target
    message = content.value if isinstance(content, cst.Attribute) and content.attr.value == "content" else None
    choice = message.value if isinstance(message, cst.Attribute) and message.attr.value == "message" else None
    if not (isinstance(choice, cst.Subscript) and len(choice.slice) == 1 and isinstance(choice.slice[0].slice, cst.Index)):
        return None
    index = choice.slice[0].slice.value
    choices = choice.value
    if not (isinstance(index, cst.Integer) and index.evaluated_value == 0 and isinstance(choices, cst.Attribute) and choices.attr.value == "choices"):
        return None
    if not (isinstance(choices.value, cst.Attribute) and choices.value.attr.value == "return_value"):
        return None

    def build(updated: cst.Assign) -> cst.Assign:
        mock = updated.targets[0].target.value.value.value.value  # content → message → [0] → choices → its mock
        return updated.with_changes(targets=[updated.targets[0].with_changes(target=cst.Attribute(mock, cst.Name("output_text")))])

    return UseRewrite(assign, build)


def _answers_are_known(analysis) -> bool:
    """Is every answer a mock of the module is given (``return_value``, ``side_effect``, the
    ``new`` of a patch) one that means the same once the code under test reads a Response?"""
    for call in analysis.nodes.nodes_of(cst.Call):
        for arg in call.args:
            if arg.keyword is not None and arg.keyword.value in ANSWER_KEYWORDS and not _is_known_answer(arg.value, analysis):
                return False
        if _patch_name(call) is not None:
            news = [arg.value for arg in call.args if arg.keyword is None and not arg.star][1:]
            if any(not _is_known_answer(new, analysis) for new in news if literal_string(new) is None):
                return False
    for assign in analysis.nodes.nodes_of(cst.Assign):
        if any(isinstance(t.target, cst.Attribute) and t.target.attr.value in ANSWER_ATTRIBUTES for t in assign.targets):
            if not _is_known_answer(assign.value, analysis):
                return False
    return True


def _called_name(call: cst.Call) -> Optional[str]:
    """``patch`` for ``mock.patch(...)`` and ``patch(...)``: the name a call calls, last part."""
    func = call.func
    return func.attr.value if isinstance(func, cst.Attribute) else func.value if isinstance(func, cst.Name) else None


def _patch_name(call: cst.Call) -> Optional[str]:
    name = _called_name(call)
    return name if name in ("patch", "setattr", "object") else None


def _is_known_answer(value: cst.BaseExpression, analysis, seen: Optional[set] = None) -> bool:
    """A fake that moves, a mock with no Chat shape, a constant, an exception, a sequence of
    them, or a function of the module (a lambda) that takes no notice of its arguments and
    returns one; followed through the names bound to them."""
    seen = set() if seen is None else seen
    if id(value) in seen:
        return True
    seen.add(id(value))
    if isinstance(value, (cst.SimpleString, cst.ConcatenatedString, cst.Integer, cst.Float)) or is_name(value, "None", "True", "False"):
        return True
    if isinstance(value, (cst.List, cst.Tuple)):
        return all(_is_known_answer(element.value, analysis, seen) for element in value.elements)
    if isinstance(value, cst.Call):
        if _is_exception(value.func):
            return True
        if _is_mock_with_choices(value, analysis):
            return _fake_content(value, analysis) is not None
        return _is_mock_class(value.func, analysis) and not _is_mock_of_chat_type(value, analysis)
    if isinstance(value, cst.Lambda):
        return not _reads_parameters(value, analysis) and _is_known_answer(value.body, analysis, seen)
    if isinstance(value, (cst.FunctionDef)):
        returned = [node.value for node in walk(value.body) if isinstance(node, cst.Return) and node.value is not None]
        return not _reads_parameters(value, analysis) and all(_is_known_answer(r, analysis, seen) for r in returned)
    if _is_exception(value):
        return True
    if isinstance(value, cst.Name):
        values = analysis.bindings.bound_values(value)
        return bool(values) and all(v is not value and _is_known_answer(v, analysis, seen) for v in values)
    return False


def _is_exception(node: cst.BaseExpression) -> bool:
    name = node.attr.value if isinstance(node, cst.Attribute) else node.value if isinstance(node, cst.Name) else ""
    return bool(EXCEPTION_NAME.search(name))


def _reads_parameters(function: cst.CSTNode, analysis) -> bool:
    """Does ``function`` read one of its parameters (``messages`` in its ``**kwargs``, say)?"""
    for param in parameters(function):
        binding = analysis.bindings.binding(param.name)
        if binding is None or binding.references:
            return True
    return False


def _is_answer(node: cst.CSTNode, analysis) -> bool:
    """Is ``node`` only ever what a mock answers with: the ``return_value`` (``side_effect``,
    ``new``) it is given, what a fake function used as one returns, or a name bound to one and
    read only as one?"""
    parent = analysis.nodes.parents.get(node)
    if isinstance(parent, cst.Arg):
        call = analysis.nodes.parents.get(parent)
        if parent.keyword is not None:
            return parent.keyword.value in ANSWER_KEYWORDS
        return isinstance(call, cst.Call) and _patch_name(call) is not None and call.args.index(parent) >= 1
    if isinstance(parent, cst.Element):
        return _is_answer(analysis.nodes.parents[parent], analysis)
    if isinstance(parent, (cst.Return, cst.Lambda)):
        function = parent if isinstance(parent, cst.Lambda) else analysis.nodes.enclosing(parent, (cst.FunctionDef, cst.Lambda))
        if isinstance(function, cst.Lambda):
            return _is_answer(function, analysis)
        if function is None:
            return False
        binding = analysis.bindings.assignment_of(function, function.name.value)
        return binding is not None and _read_only_as_answers(binding, analysis)
    if isinstance(parent, cst.Assign) and parent.value is node:
        for target in parent.targets:
            if isinstance(target.target, cst.Attribute) and target.target.attr.value in ANSWER_ATTRIBUTES:
                continue
            binding = analysis.bindings.binding(target.target) if isinstance(target.target, cst.Name) else None
            if binding is None or not _read_only_as_answers(binding, analysis):
                return False
        return True
    return False


def _read_only_as_answers(binding, analysis) -> bool:
    reads = [reference.node for reference in binding.references]
    return bool(reads) and all(_is_answer(read, analysis) for read in reads)

