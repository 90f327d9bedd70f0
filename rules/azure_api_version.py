"""
## What it does
Reports Azure OpenAI clients built with an `api_version` that does not serve the Responses API,
or with one the tool cannot read, and keeps `apply` from migrating the calls made on them. The
version is read where the client is built (`AzureOpenAI(...)`, `AsyncAzureOpenAI(...)`, or a
`with_options(api_version=...)` copy): a literal, a module constant, `os.getenv(NAME, "...")` or
`os.environ.get(NAME, "...")` (their default), or, without `api_version`, the
`OPENAI_API_VERSION` variable the module sets (`os.environ["OPENAI_API_VERSION"] = "..."`).

## Why
Azure serves the Responses API from API version `2025-03-01-preview` on, or on the v1 endpoint
(`/openai/v1/`). To an older version, a GA version such as `2024-10-21` included, it answers
`404 Resource not found`: the migrated calls would fail where the Chat Completions calls worked.
A version the tool cannot read (a parameter, a function's result, an environment variable
without a default, no `api_version` at all) is reported, not guessed.

Facts, as checked:
- Microsoft's "API version lifecycle" page lists the Responses API under "Changes between
  2025-03-01-preview and 2025-02-01-preview", names `2024-10-21` the latest GA API release, and
  shows the v1 endpoint as `OpenAI(base_url="https://YOUR-RESOURCE-NAME.openai.azure.com/openai/v1/")`,
  with `api-version=preview` as the only version it writes on that endpoint.
- openai/openai-python#2184 ("New responses API does not work with AzureOpenAI"): an
  `AzureOpenAI` client whose version predates `2025-03-01-preview` gets a 404 from
  `responses.create`.
- The SDK's `openai/lib/azure.py`: without `api_version`, `AzureOpenAI` reads the
  `OPENAI_API_VERSION` environment variable, and raises `ValueError` when neither is given; it
  sends the version as the `api-version` query parameter of every request, `/responses`
  included, which is not one of the paths it routes through `/deployments/`.

## Example
```python
from openai import AzureOpenAI
client = AzureOpenAI(api_version="2024-02-15-preview", azure_endpoint="https://my-resource.openai.azure.com")
resp = client.chat.completions.create(model="gpt-4o", messages=[{"role": "user", "content": "Hi"}])
```

## Use instead
Build the client on the v1 endpoint, which needs no `api_version` and is what Microsoft now
recommends:
```python
from openai import OpenAI
client = OpenAI(base_url="https://my-resource.openai.azure.com/openai/v1/", api_key=os.environ["AZURE_OPENAI_API_KEY"])
```
(a `base_url` the tool can read shows it an Azure host; one built at run time, such as
`f"{endpoint}/openai/v1/"`, is reported by `other_servers` until the host is declared), or give `AzureOpenAI` a version that serves the Responses API, `api_version="2025-03-01-preview"`
or later (as a literal, a module constant or the default of `os.getenv`, so that the tool can
read it). Then run the tool again.

## Fix safety
Manual: the tool only reports, and the calls on these clients stay as they are. Clients made in
another module of the project are reported when they are Azure's, since the tool does not read
their version there. A client passed in as a parameter (`client: AzureOpenAI`) is not checked:
where it was built is not in sight. `--allow-other-servers` does not lift this: Azure is not
another server, the version is what needs changing. Ignoring the rule hides its findings but
does not let `apply` migrate those calls.
"""

import re
from typing import List, Optional

import libcst as cst

from migrator.clients import AZURE_CLIENT_CLASSES, CLIENT_CLASSES, imported_client, is_client_copy, is_openai_client, possible_origins
from migrator.model import FixSafety
from migrator.rule import Block, Example, Report, Rule
from migrator.shapes import keyword_argument, literal_string, one_line

FIRST_RESPONSES_VERSION = "2025-03-01-preview"
ENVIRONMENT_VARIABLE = "OPENAI_API_VERSION"  # where the SDK takes the version when none is given
DATED_VERSION = re.compile(r"(\d{4}-\d{2}-\d{2})(-preview)?")
V1_PATH = "/openai/v1"
V1_VERSION = "preview"  # the version Microsoft writes for preview features on the v1 endpoint
ENVIRONMENT_READS = frozenset({"os.getenv", "os.environ.get"})
CONSEQUENCE = (
    f"Azure serves the Responses API to `api_version` `{FIRST_RESPONSES_VERSION}` and later, and to `{V1_VERSION}` on"
    ' the v1 endpoint (older versions get 404 "Resource not found")'
)
REMEDY = (
    f'build `OpenAI(base_url="https://<resource>.openai.azure.com{V1_PATH}/")` instead, or give'
    f' `api_version="{FIRST_RESPONSES_VERSION}"` or later'
)

RULE = Rule(
    title="Azure client on an API version without the Responses API",
    safety=FixSafety.MANUAL,
    needs=("AzureOpenAI",),
    needs_imports=("openai",),
    examples=[
        Example(
            before=(
                "from openai import AzureOpenAI\n"
                'client = AzureOpenAI(api_version="2024-02-15-preview", azure_endpoint="https://my-resource.openai.azure.com")\n'
                'resp = client.chat.completions.create(model="gpt-4o", messages=[{"role": "user", "content": "Hi"}])\n'
                "print(resp.choices[0].message.content)\n"
            ),
            finding="its Azure client is built with `api_version` `2024-02-15-preview`, which predates the Responses API",
        ),
        Example(
            before=(
                "import os\n"
                "from openai import AzureOpenAI\n"
                'client = AzureOpenAI(api_version=os.getenv("AZURE_OPENAI_API_VERSION", "2025-04-01-preview"))\n'
                'resp = client.chat.completions.create(model="gpt-4o", messages=[{"role": "user", "content": "Hi"}])\n'
                "print(resp.choices[0].message.content)\n"
            ),
            after=(
                "import os\n"
                "from openai import AzureOpenAI\n"
                'client = AzureOpenAI(api_version=os.getenv("AZURE_OPENAI_API_VERSION", "2025-04-01-preview"))\n'
                'resp = client.responses.create(model="gpt-4o", input="Hi")\n'
                "print(resp.output_text)\n"
            ),
        ),
        Example(
            before=(
                "import os\n"
                "from openai import AzureOpenAI\n"
                'client = AzureOpenAI(api_version=os.environ["AZURE_OPENAI_API_VERSION"])\n'
                'resp = client.chat.completions.create(model="gpt-4o", messages=[{"role": "user", "content": "Hi"}])\n'
                "print(resp.choices[0].message.content)\n"
            ),
            finding="the tool cannot read",
        ),
    ],
)


@RULE.guard
def calls_on_old_azure_versions(site) -> Optional[Block]:
    problem = _problem_of_client(site.receiver, site.analysis)
    if problem is None:
        return None
    return Block(f"its Azure client {problem}: {CONSEQUENCE} ({REMEDY})")


@RULE.module
def azure_clients_on_old_versions(analysis) -> List[Report]:
    reports = []
    for node in analysis.nodes.nodes_of(cst.Call):
        if _is_azure_class(node.func, analysis) or (
            is_client_copy(node) and keyword_argument(node, "api_version") is not None and is_openai_client(node.func.value, analysis)
        ):
            problem = _problem_of_origin(node, analysis)
            if problem is not None:
                code = one_line(analysis.module.code_for_node(node))
                message = f"`{code}` {problem}: {CONSEQUENCE}; `apply` leaves calls on this client as they are ({REMEDY})"
                reports.append(Report(node, message))
    return reports


def _problem_of_client(client: cst.BaseExpression, analysis) -> Optional[str]:
    """Why the Azure client ``client`` holds cannot serve the Responses API, in words; None when
    it can, or is not Azure's, or the module does not say (a client passed in)."""
    for origin in possible_origins(client, analysis):
        problem = _problem_of_origin(origin, analysis)
        if problem is not None:
            return problem
    return None


def _problem_of_origin(origin: cst.CSTNode, analysis) -> Optional[str]:
    if not isinstance(origin, cst.Call):
        return _imported_problem(origin, analysis)
    made_by = analysis.imports.imported_as(origin.func)
    if made_by & AZURE_CLIENT_CLASSES:
        return _version_problem(origin, analysis)
    if made_by & CLIENT_CLASSES:
        return None  # OpenAI's own client classes take no `api_version`
    if is_client_copy(origin):
        # A copy keeps its original's version unless given another, which only Azure's
        # ``with_options`` takes.
        if keyword_argument(origin, "api_version") is not None:
            return _version_problem(origin, analysis)
        return _problem_of_client(origin.func.value, analysis)
    return _imported_problem(origin, analysis)


def _imported_problem(origin: cst.CSTNode, analysis) -> Optional[str]:
    """Why a client another module of the project makes cannot be trusted with Responses: an
    Azure one, whose version is read only where it is built."""
    imported = imported_client(origin, analysis)
    if imported is None or not imported.azure:
        return None
    return "is made in another module of the project, with an `api_version` the tool does not read there"


def _version_problem(built: cst.Call, analysis) -> Optional[str]:
    """Why the client ``built`` makes (``AzureOpenAI(...)``, or a copy given an ``api_version``)
    cannot serve the Responses API; None when its version can."""
    if any(arg.star for arg in built.args):
        return "is built with arguments the tool cannot see (`**`), and so with an `api_version` it cannot read"
    value = keyword_argument(built, "api_version")
    if value is None:
        return _environment_version_problem(analysis)
    version = _literal(value, analysis)
    if version is None and isinstance(value, cst.Call) and analysis.imports.imported_as(value.func) & ENVIRONMENT_READS:
        default = value.args[1].value if len(value.args) > 1 else keyword_argument(value, "default")
        version = _literal(default, analysis) if default is not None else None
    if version is None:
        code = one_line(analysis.module.code_for_node(value))
        return f"is built with the `api_version` `{code}` holds at run time, which the tool cannot read"
    return _served_problem(version, _on_v1_endpoint(built, analysis))


def _environment_version_problem(analysis) -> Optional[str]:
    """Without ``api_version``, the SDK reads ``OPENAI_API_VERSION``: readable only when the
    module sets it, once, to a literal."""
    settings = [node for node in analysis.nodes.nodes_of(cst.Assign, cst.Call) if _sets_environment_version(node, analysis)]
    values = [setting.value if isinstance(setting, cst.Assign) else setting.args[1].value for setting in settings]
    versions = [_literal(value, analysis) for value in values]
    if len(versions) == 1 and versions[0] is not None:
        return _served_problem(versions[0], on_v1=False)
    return (
        f"is built without `api_version`, so with the version the `{ENVIRONMENT_VARIABLE}` environment variable holds,"
        " which the tool cannot read"
    )


def _sets_environment_version(node: cst.CSTNode, analysis) -> bool:
    """``os.environ["OPENAI_API_VERSION"] = ...`` or ``os.environ.setdefault("OPENAI_API_VERSION", ...)``."""
    if isinstance(node, cst.Assign):
        return any(
            isinstance(target.target, cst.Subscript)
            and "os.environ" in analysis.imports.imported_as(target.target.value)
            and len(target.target.slice) == 1
            and isinstance(target.target.slice[0].slice, cst.Index)
            and literal_string(target.target.slice[0].slice.value) == ENVIRONMENT_VARIABLE
            for target in node.targets
        )
    return (
        isinstance(node, cst.Call)
        and "os.environ.setdefault" in analysis.imports.imported_as(node.func)
        and len(node.args) == 2
        and literal_string(node.args[0].value) == ENVIRONMENT_VARIABLE
    )


def _served_problem(version: str, on_v1: bool) -> Optional[str]:
    """Why Azure does not serve the Responses API to ``version``; None when it does."""
    dated = DATED_VERSION.fullmatch(version)
    if on_v1:
        if version == V1_VERSION:
            return None
        return f"is built on the v1 endpoint with `api_version` `{version}`, where Microsoft documents only `{V1_VERSION}`"
    if version == V1_VERSION:
        return f"is built with `api_version` `{V1_VERSION}`, a version of the v1 endpoint, away from that endpoint"
    if dated is None:
        return f"is built with `api_version` `{version}`, which is not a version Microsoft documents for the Responses API"
    if dated.group(2) is None:
        return f"is built with `api_version` `{version}`, a GA version, and no GA version serves the Responses API"
    if dated.group(1) < FIRST_RESPONSES_VERSION[:10]:  # ISO dates compare as text
        return f"is built with `api_version` `{version}`, which predates the Responses API"
    return None


def _on_v1_endpoint(built: cst.Call, analysis) -> bool:
    """Is the client built with a ``base_url`` that ends on the v1 path (a literal, a constant,
    an f-string or a sum whose last part is text)?"""
    value = keyword_argument(built, "base_url")
    if isinstance(value, cst.BinaryOperation) and isinstance(value.operator, cst.Add):
        value = value.right
    if isinstance(value, cst.FormattedString) and value.parts and isinstance(value.parts[-1], cst.FormattedStringText):
        tail: Optional[str] = value.parts[-1].value
    else:
        tail = _literal(value, analysis) if value is not None else None
    return tail is not None and tail.rstrip("/").endswith(V1_PATH)


def _is_azure_class(func: cst.BaseExpression, analysis) -> bool:
    return bool(analysis.imports.imported_as(func) & AZURE_CLIENT_CLASSES)


def _literal(value: cst.BaseExpression, analysis) -> Optional[str]:
    """The string ``value`` holds when it is a literal, or a name one literal is assigned to."""
    if isinstance(value, cst.Name):
        definition = analysis.bindings.definition(value)
        return literal_string(definition.value) if definition is not None else None
    return literal_string(value)
