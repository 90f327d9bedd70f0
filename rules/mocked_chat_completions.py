"""
## What it does
Reports test code that stands in for Chat Completions: a mock of the SDK's method, by the path
of its class (`mock.patch("openai.resources.chat.Completions.create")`, `mocker.patch(...)`,
`monkeypatch.setattr("openai.resources.chat.completions.AsyncCompletions.create", fake)`), by
the class or the resource object itself (`patch.object(Completions, "create")`,
`monkeypatch.setattr(client.chat.completions, "create", fake)`), and HTTP routes faked for the
endpoint (`respx.post(".../chat/completions")`, `responses.add(responses.POST,
".../chat/completions")`, `httpx_mock.add_response(url=".../chat/completions")`,
`requests_mock.post(...)`). The legacy text completions (`openai.resources.completions`) count
too.

## Why
Once the code under test is migrated to `responses.create`, these stand-ins intercept nothing:
the tests then reach the network, or pass without testing the call at all. The tool migrates
the calls, not the tests that fake them, so a migration that leaves them would be silent.

## Example
```python
from unittest import mock

@mock.patch("openai.resources.chat.Completions.create")
def test_answer(create):
    create.return_value = fake_completion("Hi")
    assert answer("Hello") == "Hi"
```

## Use instead
Mock the Responses method (`openai.resources.responses.Responses.create`, or `AsyncResponses`
for the async client) and return a `Response`, or route `/v1/responses`, when the code under
test is migrated; until then, keep the mock as it is.

## Fix safety
Manual: the tool only reports. Only mocks it can read are reported: a target written as a
string literal, a class imported from `openai.resources`, an attribute chain ending in
`.completions`, a URL literal passed to a mocking library's call.
"""

from typing import List, Optional

import libcst as cst

from migrator.model import FixSafety
from migrator.rule import Example, Report, Rule
from migrator.shapes import literal_string, one_line

RESOURCES = "openai.resources."
MOCKED_METHODS = frozenset({"create", "parse", "stream"})
ENDPOINT = "chat/completions"
# The names a test binds the HTTP mocking libraries (and their pytest fixtures) to.
HTTP_MOCKS = frozenset({"respx", "respx_mock", "responses", "rsps", "requests_mock", "httpx_mock", "aioresponses"})

RULE = Rule(
    title="Tests that mock Chat Completions",
    safety=FixSafety.MANUAL,
    # `Completions` and `completions` alike.
    needs=("ompletions",),
    # Test code: what mocks is imported from these (pytest for its fixtures: `monkeypatch`,
    # `mocker`, `httpx_mock`, `requests_mock`).
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
    ],
)


@RULE.module
def mocks(analysis) -> List[Report]:
    reports = []
    for call in analysis.nodes.nodes_of(cst.Call):
        replacement = _mocked_method(call, analysis) or _mocked_route(call)
        if replacement is not None:
            code = one_line(analysis.module.code_for_node(call))
            reports.append(Report(
                call,
                f"`{code}` stands in for Chat Completions in tests: once the calls it replaces move to "
                f"`responses.create`, it intercepts nothing (the tests then reach the network, or pass "
                f"without testing the call); {replacement} instead",
            ))
    return reports


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
