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
Manual: the tool only reports, and rewrites no mock, not even with `--unsafe-fixes`. A mock can
only move with the code under test, and whether that code migrates is decided in other modules
(a call keeps a parameter with no equivalent, or its client talks to another server): a patch
moved to `Responses.create` while a call it intercepted stays on Chat Completions sends that
test to the network. Even a mock whose answer does not matter (a `side_effect` error, call
counts) moves only when every call it intercepts does, which a test module cannot see. So a
person moves each mock with the code, and builds each fake's `Response` by hand (its `output`
items, their ids and statuses, have no Chat counterpart). Only what the tool can read is
reported: a target written as a string literal, a class imported from `openai.resources`, an
attribute chain ending in `.completions`, a URL literal passed to a mocking library's call, a
fake built in the module; not a fake a helper of another module returns (`fake_completion("Hi")`),
a dict built key by key, or a transport handler that matches the URL without spelling it.
"""

from typing import Iterator, List, Optional, Tuple

import libcst as cst

from migrator.model import Confidence, FixSafety
from migrator.rule import Example, Report, Rule
from migrator.shapes import dict_entries, is_name, literal_string, one_line, walk

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
    safety=FixSafety.MANUAL,
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
    for call in analysis.nodes.nodes_of(cst.Call):
        replacement = _mocked_method(call, analysis) or _mocked_route(call) or _faked_transport(call, analysis)
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
    return reports


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
    name = func.attr.value if isinstance(func, cst.Attribute) else func.value if isinstance(func, cst.Name) else None
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
    ``openai.resources.chat.completions.completions...``, the legacy ``openai.resources.completions``)."""
    if not target.startswith(RESOURCES):
        return False
    parts = target.split(".")
    return parts[-1] in MOCKED_METHODS and parts[-2] in ("Completions", "AsyncCompletions")


def _is_completions_resource(owner: cst.BaseExpression, analysis) -> bool:
    """A class ``Completions`` / ``AsyncCompletions`` imported from ``openai.resources``, or a
    resource reached through a client (``client.chat.completions``)."""
    if isinstance(owner, cst.Attribute) and owner.attr.value == "completions":
        return True
    qualified = analysis.imports.qualified(owner) if isinstance(owner, (cst.Name, cst.Attribute)) else set()
    return any(q.startswith(RESOURCES) and q.rsplit(".", 1)[-1] in ("Completions", "AsyncCompletions") for q in qualified)


def _responses_method(mocked: str) -> str:
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
