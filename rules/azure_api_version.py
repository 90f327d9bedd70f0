"""
## What it does
Reports Azure OpenAI clients built with an `api_version` that does not serve the Responses API,
or with one the tool cannot read, and keeps `apply` from migrating the calls made on them. The
version is read where the client is built (`AzureOpenAI(...)`, `AsyncAzureOpenAI(...)`, or a
`with_options(api_version=...)` copy): a literal, a module constant, `os.getenv(NAME, "...")` or
`os.environ.get(NAME, "...")` (their default), or, without `api_version`, the
`OPENAI_API_VERSION` variable the module sets (`os.environ["OPENAI_API_VERSION"] = "..."`).
The `openai` module's own client (`openai.chat.completions.create(...)`) is Azure's when the
module sets `openai.api_type = "azure"` (or a value the tool cannot read), or, without
`api_type`, `openai.azure_endpoint` or an Azure token: its version is then read from
`openai.api_version = ...` in the same ways.

## Why
Azure serves the Responses API from API version `2025-03-01-preview` on, or on the v1 endpoint
(`/openai/v1/`). To an older version, a GA version such as `2024-10-21` included, it answers
`404 Resource not found`: the migrated calls would fail where the Chat Completions calls worked.
A version the tool cannot read (a parameter, a function's result, an environment variable
without a default, no `api_version` at all) is reported, not guessed. A client bound to one
deployment (`azure_deployment=`) sends each Chat request to that deployment whatever its
`model`, and the SDK routes `/responses` through no deployment: the request goes to the
deployment its `model` names, so a call whose `model` is not that deployment's name (a literal
or a constant) is reported too.

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
Unsafe: with `--unsafe-fixes`, the tool builds the client on the v1 endpoint, as Microsoft's
v1 examples do, and migrates the calls made on it in the same change:
`AzureOpenAI(azure_endpoint=E, api_key=K, api_version=V)` becomes
`OpenAI(base_url=E + "/openai/v1/", api_key=K)` (`AsyncOpenAI` for `AsyncAzureOpenAI`;
`azure_ad_token_provider=` and `azure_ad_token=` become `api_key=`, which `OpenAI` sends as a
bearer token, the way the v1 endpoint takes Entra ID tokens; `timeout`, `max_retries`,
headers and the HTTP client are kept). The model stays the deployment's name. It does so only
where nothing else could tell the difference, and says why not otherwise: every use of the
client in the module is a legacy call that migrates with it (all of them, or the client stays
as it is), a Responses call or `embeddings.create`; other modules do not import it; it names
its endpoint (a literal or a constant on one of the hosts `other_servers` takes for Azure's,
or the `AZURE_OPENAI_ENDPOINT` variable; any other with `--allow-other-servers`), not one
deployment (`azure_deployment=`), and one credential (`AzureOpenAI` reads a missing one from
`AZURE_OPENAI_AD_TOKEN` or `AZURE_OPENAI_API_KEY`, `OpenAI` from `OPENAI_API_KEY`); an async
client's token provider returns an awaitable (an `async def`, or `azure.identity.aio`'s). What
may still differ: `api_key=os.getenv("AZURE_OPENAI_API_KEY")` with the variable unset falls back
to `OPENAI_API_KEY` where `AzureOpenAI` looked for `AZURE_OPENAI_AD_TOKEN`, and a missing
endpoint variable raises `KeyError` where `AzureOpenAI` raised `ValueError`.

Otherwise the tool only reports, and the calls on these clients stay as they are. Clients made
in another module of the project are read there (a literal version, a constant of that module,
or an environment read's default; a factory's clients must agree) and reported when that
version cannot serve the Responses API or cannot be read; so are clients only declared Azure's where they are used (a parameter
`client: AzureOpenAI`, `Optional[AsyncAzureOpenAI]`, `client: AzureOpenAI = make_client()`, a
function declared to return one), whose version is set where they are built, out of sight.
`--allow-other-servers` does not lift this: Azure
is not another server, the version is what needs changing. Ignoring the rule hides its findings
but does not let `apply` migrate those calls.
"""

import re
from typing import Dict, List, Optional, Union
from urllib.parse import urlsplit

import libcst as cst

from migrator.analysis import ENVIRONMENT_READS, legacy_call
from migrator.clients import AZURE_CLIENT_CLASSES, CLIENT_CLASSES, client_subclass, imported_client, is_client_copy, is_openai_client, possible_origins
from migrator.model import FixSafety
from migrator.rule import Block, Example, Import, Report, Rewrite, Rule, UseRewrite
from migrator.rules.other_servers import MODULE_BASE_URL, is_openai_host
from migrator.shapes import code_of, is_name, keyword_argument, literal_string, one_line, string_like, walk

FIRST_RESPONSES_VERSION = "2025-03-01-preview"
ENVIRONMENT_VARIABLE = "OPENAI_API_VERSION"  # where the SDK takes the version when none is given
DATED_VERSION = re.compile(r"(\d{4}-\d{2}-\d{2})(-preview)?")
V1_PATH = "/openai/v1"
V1_VERSION = "preview"  # the version Microsoft writes for preview features on the v1 endpoint
MODULE_API_TYPE = "openai.api_type"  # "azure" makes the `openai` module's own client an Azure one
MODULE_API_VERSION = "openai.api_version"
# Set without `api_type`, these make the module's client Azure's too (the SDK's `load_client`).
MODULE_AZURE_SETTINGS = ("azure_endpoint", "azure_ad_token", "azure_ad_token_provider")
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
    safety=FixSafety.UNSAFE,
    needs=("AzureOpenAI", "api_type", "azure_endpoint", "azure_ad_token"),
    needs_imports=("openai",),
    # What the module hook reports: Azure clients built, copies given an `api_version`, and the
    # `openai` module's own client set up for Azure (`openai.api_type = "azure"`, ...).
    needs_calls_of=("AzureOpenAI", "AsyncAzureOpenAI"),
    needs_keywords=("api_version", "api_type", "azure_endpoint", "azure_ad_token", "azure_ad_token_provider"),
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
        Example(
            before=(
                "import os\n"
                "from openai import AzureOpenAI\n"
                'client = AzureOpenAI(api_version="2024-06-01", azure_endpoint="https://my-resource.openai.azure.com",'
                ' api_key=os.environ["AZURE_OPENAI_API_KEY"])\n'
                'resp = client.chat.completions.create(model="gpt-4o", messages=[{"role": "user", "content": "Hi"}])\n'
                "print(resp.choices[0].message.content)\n"
            ),
            after=(
                "import os\n"
                "from openai import OpenAI\n"
                'client = OpenAI(base_url="https://my-resource.openai.azure.com/openai/v1/",'
                ' api_key=os.environ["AZURE_OPENAI_API_KEY"])\n'
                'resp = client.responses.create(model="gpt-4o", input="Hi")\n'
                "print(resp.output_text)\n"
            ),
            options=("unsafe_fixes",),
        ),
    ],
)


@RULE.guard
def calls_on_old_azure_versions(site) -> Optional[Block]:
    problem = _problem_of_client(site.receiver, site.analysis)
    if problem is None:
        return _deployment_problem(site)
    reason = f"its Azure client {problem}: {CONSEQUENCE} ({REMEDY})"
    origins = {id(origin): origin for origin in possible_origins(site.receiver, site.analysis)}
    move = _move_to_v1(*origins.values(), site.analysis) if len(origins) == 1 else None
    if not isinstance(move, UseRewrite):
        return Block(reason)
    return Block(f"{reason}; {MOVED}", unsafe=Rewrite(elsewhere=(move,)))


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
                move = _move_to_v1(node, analysis)
                fix = MOVED if isinstance(move, UseRewrite) else f"the tool does not build it on the v1 endpoint itself: {move}"
                message = f"`{code}` {problem}: {CONSEQUENCE}; `apply` leaves calls on this client as they are ({REMEDY}); {fix}"
                reports.append(Report(node, message, resolved_by=(node,)))
    setup = _module_azure_setup(analysis)
    problem = _module_version_problem(analysis) if setup is not None else None
    if setup is not None and problem is not None:
        code = one_line(code_of(setup))
        # `_module_azure_setup` takes an `api_type` whose value it cannot read for a maybe.
        unread_type = any(isinstance(t.target, cst.Attribute) and t.target.attr.value == "api_type" for t in setup.targets) and _literal(setup.value, analysis) is None
        sets_up = "may set up" if unread_type else "sets up"
        message = f"`{code}` {sets_up} the `openai` module's own client for Azure, which {problem}: {CONSEQUENCE}; `apply` leaves calls on it as they are ({REMEDY})"
        reports.append(Report(setup, message, resolved_by=(setup,)))
    return reports


def _deployment_problem(site) -> Optional[Block]:
    """A client bound to a deployment (``azure_deployment=``) sends Chat requests to that
    deployment whatever their ``model``; the SDK routes ``/responses`` through no deployment,
    so a Responses request goes to the one its ``model`` names."""
    for origin in possible_origins(site.receiver, site.analysis):
        if not isinstance(origin, cst.Call) or not (_is_azure_class(origin.func, site.analysis) or is_client_copy(origin)):
            continue
        deployment = keyword_argument(origin, "azure_deployment")
        if deployment is None or is_name(deployment, "None"):
            continue
        named = _literal(deployment, site.analysis)
        model = site.argument("model")  # asked only here: asking a request dict for a key it may not hold blocks the call
        if named is not None and model is not None and _literal(model.value, site.analysis) == named:
            continue  # the model names the same deployment
        where = f"the deployment `{named}`" if named is not None else f"the deployment `{one_line(code_of(deployment))}` holds"
        return Block(
            f"its Azure client is bound to {where} (`azure_deployment=`), which serves its Chat requests whatever their"
            " `model`; a Responses request goes to the deployment its `model` names (pass the deployment's name as `model`)"
        )
    return None


def _problem_of_client(client: cst.BaseExpression, analysis) -> Optional[str]:
    """Why the Azure client ``client`` holds cannot serve the Responses API, in words; None when
    it can, or is not Azure's, or the module does not say (a client passed in)."""
    for origin in possible_origins(client, analysis):
        problem = _problem_of_origin(origin, analysis)
        if problem is not None:
            return problem
    return None


def _problem_of_origin(origin: cst.CSTNode, analysis) -> Optional[str]:
    if isinstance(origin, cst.Name) and "openai" in analysis.imports.imported_as(origin):
        return _module_client_problem(analysis)
    declared = _declared_azure_type(origin, analysis)
    if declared is not None:
        return f"is declared `{declared}` here and built elsewhere, with an `api_version` the tool does not read there"
    if not isinstance(origin, cst.Call):
        return _imported_problem(origin, analysis)
    made_by = analysis.imports.imported_as(origin.func)
    if made_by & AZURE_CLIENT_CLASSES:
        return _version_problem(origin, analysis)
    if made_by & CLIENT_CLASSES:
        return None  # OpenAI's own client classes take no `api_version`
    subclass = client_subclass(origin.func, analysis)
    if subclass is not None:
        base = analysis.imports.imported_as(subclass.bases[0].value)
        if base & AZURE_CLIENT_CLASSES:
            return f"is built by `{subclass.name.value}`, a subclass of an Azure client, with an `api_version` the tool does not read"
        return None
    if is_client_copy(origin):
        # A copy keeps its original's version unless given another, which only Azure's
        # ``with_options`` takes.
        if keyword_argument(origin, "api_version") is not None:
            return _version_problem(origin, analysis)
        return _problem_of_client(origin.func.value, analysis)
    return _imported_problem(origin, analysis)


def _declared_azure_type(origin: cst.CSTNode, analysis) -> Optional[str]:
    """The annotation that alone proves ``origin`` an Azure client, in code: a parameter
    (``client: AzureOpenAI``), a name or attribute declared with a value the tool does not
    follow (``client: AzureOpenAI = make()``), or a call of a function of the module declared
    to return one. None when ``origin`` is built in sight, or not declared Azure's."""
    if isinstance(origin, cst.Call) and (analysis.imports.imported_as(origin.func) & CLIENT_CLASSES or is_client_copy(origin)):
        return None  # built in sight: its arguments say which version
    annotation = None
    if isinstance(origin, cst.Param):
        annotation = origin.annotation
    elif isinstance(origin, cst.Call):
        function = analysis.flow.function_called(origin)
        annotation = function.returns if function is not None else None
    if annotation is None:
        parent = analysis.nodes.parents.get(origin)
        if isinstance(parent, cst.AnnAssign) and origin in (parent.target, parent.value):
            annotation = parent.annotation
    if annotation is None:
        return None
    names = (node for node in walk(annotation.annotation) if isinstance(node, (cst.Name, cst.Attribute)))
    if not any(analysis.imports.imported_as(name) & AZURE_CLIENT_CLASSES for name in names):
        return None
    return one_line(code_of(annotation.annotation))


def _imported_problem(origin: cst.CSTNode, analysis) -> Optional[str]:
    """Why a client another module of the project makes cannot be trusted with Responses: an
    Azure one, whose version is read only where it is built."""
    imported = imported_client(origin, analysis)
    if imported is None or not imported.azure:
        return None
    if imported.azure_version is not None:
        problem = _served_problem(imported.azure_version, on_v1=False)
        return f"is made in another module of the project and {problem}" if problem is not None else None
    return "is made in another module of the project, with an `api_version` the tool does not read there"


def _version_problem(built: cst.Call, analysis) -> Optional[str]:
    """Why the client ``built`` makes (``AzureOpenAI(...)``, or a copy given an ``api_version``)
    cannot serve the Responses API; None when its version can."""
    if any(arg.star for arg in built.args):
        return "is built with arguments the tool cannot see (`**`), and so with an `api_version` it cannot read"
    value = keyword_argument(built, "api_version")
    if value is None:
        return _environment_version_problem(analysis)
    return _given_version_problem(value, _on_v1_endpoint(keyword_argument(built, "base_url"), analysis), analysis)


def _given_version_problem(value: cst.BaseExpression, on_v1: bool, analysis) -> Optional[str]:
    """Why the ``api_version`` ``value`` gives cannot serve the Responses API: a literal, a
    constant, or the default of an environment read; any other is unread."""
    version = _literal(value, analysis)
    if version is None:
        default = analysis.environment_default(value)
        version = _literal(default, analysis) if default is not None else None
    if version is None:
        code = one_line(analysis.module.code_for_node(value))
        return f"is built with the `api_version` `{code}` holds at run time, which the tool cannot read"
    return _served_problem(version, on_v1)


def _module_client_problem(analysis) -> Optional[str]:
    """Why the ``openai`` module's own client cannot serve the Responses API, when this module
    may make it an Azure one; None when it does not."""
    setup = _module_azure_setup(analysis)
    if setup is None:
        return None
    problem = _module_version_problem(analysis)
    return f"is the `openai` module's own, set up by `{one_line(code_of(setup))}`, and {problem}" if problem else None


def _module_azure_setup(analysis) -> Optional[cst.Assign]:
    """The setting that may make the ``openai`` module's own client an Azure one:
    ``openai.api_type = "azure"`` (or a value the tool cannot read), or, without ``api_type``,
    an Azure setting (the SDK's ``load_client`` then builds an Azure client). Without either it
    is OpenAI's, unless the environment says otherwise: a fact of the deployment."""
    settings = _module_settings(analysis)
    api_types = settings.get(MODULE_API_TYPE, [])
    if api_types:
        api_type = _literal(api_types[0].value, analysis) if len(api_types) == 1 else None
        return api_types[0] if api_type in (None, "azure") else None
    return next((a for name in MODULE_AZURE_SETTINGS for a in settings.get(f"openai.{name}", [])), None)


def _module_version_problem(analysis) -> Optional[str]:
    """Why the version the ``openai`` module's client is set up with cannot serve the Responses
    API. Its settings, like a client's arguments, are read where the module sets them: once."""
    settings = _module_settings(analysis)
    versions = settings.get(MODULE_API_VERSION, [])
    if len(versions) > 1:
        return "is built with an `api_version` set in several places, which the tool does not choose between"
    if not versions:
        return _environment_version_problem(analysis)
    base_urls = settings.get(MODULE_BASE_URL, [])
    on_v1 = len(base_urls) == 1 and _on_v1_endpoint(base_urls[0].value, analysis)
    return _given_version_problem(versions[0].value, on_v1, analysis)


def _module_settings(analysis) -> Dict[str, List[cst.Assign]]:
    """The assignments to attributes of the ``openai`` module (``openai.api_type = ...``), by
    the qualified name they set."""
    settings: Dict[str, List[cst.Assign]] = {}
    for node in analysis.nodes.nodes_of(cst.Assign):
        for target in node.targets:
            if (
                isinstance(target.target, cst.Attribute)
                and analysis.may_name(target.target.value, "openai")  # spares resolving scopes for `self.x = ...`
                and "openai" in analysis.imports.imported_as(target.target.value)
            ):
                settings.setdefault(f"openai.{target.target.attr.value}", []).append(node)
    return settings


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
    # The key first: what a name stands for is read from the module's scopes, which cost more.
    if isinstance(node, cst.Assign):
        return any(
            isinstance(target.target, cst.Subscript)
            and len(target.target.slice) == 1
            and isinstance(target.target.slice[0].slice, cst.Index)
            and literal_string(target.target.slice[0].slice.value) == ENVIRONMENT_VARIABLE
            and "os.environ" in analysis.imports.imported_as(target.target.value)
            for target in node.targets
        )
    return (
        isinstance(node, cst.Call)
        and len(node.args) == 2
        and literal_string(node.args[0].value) == ENVIRONMENT_VARIABLE
        and "os.environ.setdefault" in analysis.imports.imported_as(node.func)
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


def _on_v1_endpoint(value: Optional[cst.BaseExpression], analysis) -> bool:
    """Does the ``base_url`` ``value`` end on the v1 path (a literal, a constant, an f-string or
    a sum whose last part is text)?"""
    if isinstance(value, cst.BinaryOperation) and isinstance(value.operator, cst.Add):
        value = value.right
    if isinstance(value, cst.FormattedString) and value.parts and isinstance(value.parts[-1], cst.FormattedStringText):
        tail: Optional[str] = value.parts[-1].value
    else:
        tail = _literal(value, analysis) if value is not None else None
    return tail is not None and tail.rstrip("/").endswith(V1_PATH)


def _is_azure_class(func: cst.BaseExpression, analysis) -> bool:
    # The test on the code first: resolving the name of every call the module makes costs more
    # than the rest of the rule.
    return analysis.may_name(func, *AZURE_CLIENT_CLASSES) and bool(analysis.imports.imported_as(func) & AZURE_CLIENT_CLASSES)


def _literal(value: cst.BaseExpression, analysis) -> Optional[str]:
    """The string ``value`` holds when it is a literal, or a name one literal is assigned to."""
    if isinstance(value, cst.Name):
        definition = analysis.bindings.definition(value)
        return literal_string(definition.value) if definition is not None else None
    return literal_string(value)


# --- The opt-in fix: the same client on the v1 endpoint ---------------------------------------

MOVED = "with `--unsafe-fixes`, the tool builds it on the v1 endpoint and migrates the calls made on it"
V1_CLASSES = {"AzureOpenAI": "OpenAI", "AsyncAzureOpenAI": "AsyncOpenAI"}
ENDPOINT_VARIABLE = "AZURE_OPENAI_ENDPOINT"  # where `AzureOpenAI` takes the endpoint when it is None
CREDENTIALS = ("api_key", "azure_ad_token", "azure_ad_token_provider")
DROPPED = frozenset({"api_version", "azure_endpoint"})
# What `OpenAI` takes as `AzureOpenAI` does, to the same effect.
KEPT = frozenset({
    "organization", "project", "webhook_secret", "websocket_base_url", "timeout", "max_retries", "default_headers",
    "default_query", "http_client",
})
ASYNC_TOKEN_PROVIDERS = frozenset({"azure.identity.aio.get_bearer_token_provider"})
# What the v1 endpoint serves of what code calls on the client: the legacy calls (which migrate
# with the client, or the client stays as it is), the Responses API and embeddings.
SERVED = (("responses",), ("embeddings", "create"))


def _move_to_v1(origin: cst.CSTNode, analysis) -> Union[UseRewrite, str]:
    """The rewrite of ``origin`` into the same client on the v1 endpoint, or why there is none.

    `AzureOpenAI(azure_endpoint=E, api_key=K, api_version=V)` sends `POST
    {E}/openai/deployments/{model}/chat/completions?api-version=V` with the header `api-key: K`;
    `OpenAI(base_url=f"{E}/openai/v1/", api_key=K)` sends `POST {E}/openai/v1/...` with `model`
    in the body and `Authorization: Bearer K`, which the v1 endpoint takes for a key or an Entra ID
    token alike (Microsoft's v1 examples: `api_key=os.getenv("AZURE_OPENAI_API_KEY")`, and
    `api_key=token_provider` for `get_bearer_token_provider(...)`)."""
    if isinstance(origin, cst.Call) and is_client_copy(origin):
        return f"it is a copy of another client (`{origin.func.attr.value}`)"
    if not isinstance(origin, cst.Call) or not _is_azure_class(origin.func, analysis):
        return "it is not made here by `AzureOpenAI(...)`"
    azure_class = _azure_class(origin.func, analysis)
    if azure_class is None:
        return "its class is named in a way the tool does not rewrite"
    azure_module, azure_name = azure_class.rsplit(".", 1)
    v1_class = V1_CLASSES[azure_name]
    if any(arg.keyword is None for arg in origin.args):
        return "it is built with arguments the tool cannot see"
    given = {arg.keyword.value: arg for arg in origin.args if arg.keyword is not None}
    if "base_url" in given:
        return "it is built with a `base_url` of its own, not an `azure_endpoint`"
    if "azure_deployment" in given:
        return "it is bound to one deployment (`azure_deployment=`), where the v1 endpoint takes each request's `model`"
    credentials = [name for name in CREDENTIALS if name in given]
    if len(credentials) != 1:
        return (
            "it is built without a credential, which `AzureOpenAI` reads from `AZURE_OPENAI_AD_TOKEN` or"
            " `AZURE_OPENAI_API_KEY` and `OpenAI` from `OPENAI_API_KEY`; pass it as `api_key=`"
        )
    if credentials[0] == "azure_ad_token_provider" and v1_class == "AsyncOpenAI":
        if not _makes_async_token_provider(given["azure_ad_token_provider"].value, analysis):
            return "`AsyncOpenAI` takes a token provider typed to return an awaitable, as `azure.identity.aio`'s does"
    others = sorted(set(given) - DROPPED - KEPT - set(CREDENTIALS))
    if others:
        return f"`{v1_class}` does not take `{others[0]}=`"
    endpoint = given.get("azure_endpoint")
    if endpoint is None:
        return f"it is built without `azure_endpoint`, so with the `{ENDPOINT_VARIABLE}` environment variable"
    base_url = _v1_base_url(endpoint.value, analysis)
    if isinstance(base_url, str):
        return base_url
    unserved = _use_not_served(origin, analysis)
    if unserved is not None:
        return unserved

    def build(call: cst.CSTNode) -> cst.CSTNode:
        assert isinstance(call, cst.Call)
        args = []
        for arg in call.args:
            name = arg.keyword.value if arg.keyword is not None else ""
            if name == "azure_endpoint":
                args.append(arg.with_changes(keyword=cst.Name("base_url"), value=base_url))
            elif name in CREDENTIALS:
                args.append(arg.with_changes(keyword=cst.Name("api_key")))
            elif name not in DROPPED:
                args.append(arg)
        last = call.args[-1]
        args[-1] = args[-1].with_changes(comma=last.comma, whitespace_after_arg=last.whitespace_after_arg)
        func = call.func
        renamed = func.with_changes(attr=cst.Name(v1_class)) if isinstance(func, cst.Attribute) else cst.Name(v1_class)
        return call.with_changes(func=renamed, args=args)

    imported = isinstance(origin.func, cst.Name)
    return UseRewrite(
        target=origin,
        build=build,
        add_imports=(Import("openai", v1_class),) if imported else (),
        remove_unused_imports=(Import(azure_module, azure_name),) if imported else (),
    )


def _azure_class(func: cst.BaseExpression, analysis) -> Optional[str]:
    """``openai.AzureOpenAI`` (or ``openai.lib.azure.AzureOpenAI``): the qualified name of the
    class ``func`` names by its own name, which the rewrite can change; None otherwise."""
    name = func.value if isinstance(func, cst.Name) else func.attr.value if isinstance(func, cst.Attribute) else None
    made_by = analysis.imports.imported_as(func) & AZURE_CLIENT_CLASSES
    if len(made_by) != 1:
        return None
    qualified = next(iter(made_by))
    if name != qualified.rsplit(".", 1)[1]:
        return None  # an alias
    if isinstance(func, cst.Attribute) and not (qualified.startswith("openai.") and "openai" in analysis.imports.imported_as(func.value)):
        return None  # `openai.AzureOpenAI` becomes `openai.OpenAI`; deeper modules do not export it
    return qualified


def _makes_async_token_provider(value: cst.BaseExpression, analysis) -> bool:
    """Does ``value`` return an awaitable: an ``async def`` of the module, or what
    ``azure.identity.aio``'s ``get_bearer_token_provider`` makes (or a name bound to it)?"""
    if isinstance(value, cst.Name):
        referents = analysis.bindings.referents(value)
        if referents and all(isinstance(r.node, cst.FunctionDef) and r.node.asynchronous for r in referents):
            return True
    if isinstance(value, cst.Name) and analysis.bindings.annotations_of(value):
        return False  # `AsyncAzureADTokenProvider` also allows a provider returning `str`, which `AsyncOpenAI` does not
    values = analysis.bindings.bound_values(value) if isinstance(value, cst.Name) else [value]
    return bool(values) and all(
        isinstance(made, cst.Call) and analysis.imports.imported_as(made.func) & ASYNC_TOKEN_PROVIDERS for made in values
    )


def _v1_base_url(endpoint: cst.BaseExpression, analysis) -> Union[cst.BaseExpression, str]:
    """The v1 ``base_url`` of the resource at ``endpoint``: ``AzureOpenAI`` strips the endpoint's
    trailing slashes and appends ``/openai``; the v1 endpoint is below it. Or why there is none."""
    suffix = V1_PATH + "/"
    text = _literal(endpoint, analysis)
    if text is not None:
        host = urlsplit(text).hostname or ""
        if not (analysis.options.allow_other_servers or is_openai_host(host, analysis.options.openai_hosts)):
            return f"its endpoint `{text}` is not one of the hosts `other_servers` takes for Azure's (`--allow-other-servers` lifts this)"
        if isinstance(endpoint, cst.Name) and not text.endswith("/"):
            return cst.parse_expression(f'{endpoint.value} + "{suffix}"')
        if not isinstance(endpoint, cst.Name):
            return string_like(endpoint, text.rstrip("/") + suffix)
    if isinstance(endpoint, cst.Call) and analysis.imports.imported_as(endpoint.func) & ENVIRONMENT_READS:
        variable = literal_string(endpoint.args[0].value) if endpoint.args else None
        if analysis.environment_default(endpoint) is None:
            # None, for an unset variable, makes `AzureOpenAI` read its own variable instead.
            if variable != ENDPOINT_VARIABLE or not isinstance(endpoint.func, cst.Attribute):
                return f"its endpoint may be None, and `AzureOpenAI` then reads `{ENDPOINT_VARIABLE}`"
            module = code_of(endpoint.func).split(".")[0]
            return cst.parse_expression(f'{module}.environ["{ENDPOINT_VARIABLE}"].rstrip("/") + "{suffix}"')
    if isinstance(endpoint, cst.Subscript) and "os.environ" in analysis.imports.imported_as(endpoint.value):
        key = endpoint.slice[0].slice if len(endpoint.slice) == 1 else None
        if isinstance(key, cst.Index) and literal_string(key.value) == ENDPOINT_VARIABLE:
            return cst.parse_expression(f'{code_of(endpoint)}.rstrip("/") + "{suffix}"')
    if not analysis.options.allow_other_servers:
        # `other_servers` reads Azure's hosts in literals and in that variable; any other URL
        # known only at run time may be anyone's, and it would keep the calls from migrating.
        return "its endpoint is known only at run time, where nothing shows an Azure host (`--allow-other-servers` lifts this)"
    code = code_of(endpoint)
    if not isinstance(endpoint, (cst.Name, cst.Attribute, cst.Call, cst.Subscript)):
        code = f"({code})"
    return cst.parse_expression(f'{code}.rstrip("/") + "{suffix}"')


def _use_not_served(origin: cst.Call, analysis) -> Optional[str]:
    """How code uses the client ``origin`` makes in a way the v1 endpoint may not serve (or an
    ``OpenAI`` client not do as an ``AzureOpenAI`` one does), in words; None when every use is
    a call the v1 endpoint serves."""
    statement = analysis.nodes.parents.get(origin)
    if not isinstance(statement, cst.Assign) or len(statement.targets) != 1:
        return "it is used where it is made, not through a name the tool can follow"
    target = statement.targets[0].target
    if isinstance(target, cst.Name):
        binding = analysis.bindings.binding(target)
        if binding is None:
            return f"the tool cannot follow `{target.value}`"
        if analysis.nodes.enclosing(origin, (cst.FunctionDef, cst.ClassDef)) is None and analysis.project.importers_of(target.value):
            return f"other modules import `{target.value}`"
        reads = list(analysis.bindings.reads_of(binding))
    elif isinstance(target, cst.Attribute) and is_name(target.value, "self"):
        cls = analysis.nodes.enclosing(origin, cst.ClassDef)
        if cls is None or analysis.project.importers_of(cls.name.value):
            return f"code outside the class may read `{code_of(target)}`"
        reads = [
            node for node in analysis.nodes.nodes_of(cst.Attribute)
            if node.attr.value == target.attr.value and node is not target
        ]
        if any(not is_name(read.value, "self") or not analysis.nodes.within(read, cls.body) for read in reads):
            return f"code outside the class may read `{code_of(target)}`"
    else:
        return "it is assigned to something other than a name or an attribute of `self`"
    for read in reads:
        if not _is_served_call_on(read, analysis):
            use = analysis.nodes.parents.get(read, read)
            while isinstance(use, (cst.Arg, cst.Element)):  # say what it is passed to, or kept in
                use = analysis.nodes.parents[use]
            return f"the client is also used as `{one_line(code_of(use))}`"
    return None


def _is_served_call_on(client: cst.CSTNode, analysis) -> bool:
    """Is ``client`` the receiver of a legacy call, or of a call the v1 endpoint serves?"""
    path: List[str] = []
    node = client
    parent = analysis.nodes.parents.get(node)
    while isinstance(parent, cst.Attribute) and parent.value is node:
        path.append(parent.attr.value)
        node, parent = parent, analysis.nodes.parents.get(parent)
    if not (isinstance(parent, cst.Call) and parent.func is node):
        return False
    shape = legacy_call(parent)
    if shape is not None:
        return shape[0] is client
    return any(tuple(path[: len(served)]) == served for served in SERVED)
