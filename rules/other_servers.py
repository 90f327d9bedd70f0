"""
## What it does
Reports OpenAI clients pointed at servers other than OpenAI's or Azure's, and keeps `apply` from
migrating the calls made on them: a client built with a `base_url` whose host is not one of
the hosts considered OpenAI's (`OpenAI(base_url="http://localhost:11434/v1")`, a
`with_options(base_url=...)` copy, `client.base_url = ...` once it is built, also in the
factory that returns it, `openai.base_url = ...` for the module's client, also read through
another name such as `llm = openai`), or whose
`base_url` is only known at run time (in `**` arguments the tool cannot read too: a dict
literal unpacked there is read for its `base_url`), or built without one in a module that reads
or sets the `OPENAI_BASE_URL` environment variable (the SDK then takes the URL from it): a
string or a keyword names it (`os.environ["OPENAI_BASE_URL"] = ...`,
`os.environ.update(OPENAI_BASE_URL=...)`), or a project module it imports, directly or through
others, spells it (a settings module run first, say), or a `.env` file in its folder or above
it (up to the project's root) sets it (what `load_dotenv()` loads). A client only declared by an annotation
where it is used (a parameter `client: OpenAI`, `self.client` set from one, `client:
AsyncOpenAI = session["client"]`, a function declared to return one) is built out of sight:
its calls are reported when the project builds any client for another server, in this module
or another (the finding says where), since code out of sight may pass that one.

## Why
A migrated call goes to `/v1/responses`. Many OpenAI-compatible servers (vLLM, Ollama,
llama.cpp, LM Studio, and many gateways) implement only `/v1/chat/completions`: after the
migration they answer 404, 405, 502 or "Unexpected endpoint or method", the classic breakage
of moving to the Responses API.

## Example
```python
from openai import OpenAI
client = OpenAI(base_url="http://localhost:11434/v1", api_key="ollama")
resp = client.chat.completions.create(model="llama3", messages=[{"role": "user", "content": "Hi"}])
```

## Use instead
Check that the server implements the Responses API (`migrator probe --base-url URL` sends it
the requests that show it, and says whether migrating is safe), then let the tool migrate the
calls with `--allow-other-servers` (`allow-other-servers = true` in `[tool.migrator]`), or declare the host
as OpenAI's (`--openai-host HOST`, `openai-hosts = ["llm-proxy.internal"]`; `*` globs allowed).
Otherwise keep these calls on Chat Completions.

## Fix safety
Manual: the tool only reports, and the calls on these clients stay as they are. The hosts
considered OpenAI's are `api.openai.com`, its regional and mTLS hosts (`*.api.openai.com`) and
Azure's (`*.openai.azure.com`, `*.cognitiveservices.azure.com`, `*.services.ai.azure.com`),
plus those configured; on an Azure host, only the v1 route (`/openai/v1/`) serves the Responses
API to an `OpenAI` client, so a `base_url` on another route (one deployment's,
`/openai/deployments/gpt-4o`, or AI Foundry's `/models`) is reported too. A `base_url` joined from literals and constants
(`RESOURCE + "/openai/v1/"`) is read whole; one built from the `AZURE_OPENAI_ENDPOINT`
variable, where `AzureOpenAI` itself reads its endpoint, is taken for Azure's. `AzureOpenAI`
clients are never reported (whether their `api_version`
serves the Responses API is `azure_api_version`'s question). Only the modules a module imports
count for the environment variable: one importing it that sets the variable (a test pointing
the code at a fake server) does not keep its calls. Every module of the project but its tests
(`test_*.py`, `*_test.py`, `conftest.py`, the `tests` folders, whose clients of fake servers
reach the code they test only under test) counts for a declared client; in the other modules, the clients are read from their
arguments alone (a `base_url` literal, arguments unread, `OPENAI_BASE_URL`, a subclass giving
its own, `x.base_url = ...` on a name the module binds to a client), and a project that builds
clients only for the hosts considered OpenAI's keeps migrating calls on declared clients.
Ignoring the rule hides its findings but does not let `apply` migrate those calls: only
`--allow-other-servers` does.
"""

import fnmatch
from typing import Iterable, List, Optional
from urllib.parse import urlsplit

import libcst as cst

from migrator.clients import (
    AZURE_CLIENT_CLASSES, CLIENT_CLASSES, client_subclass, declared_origins, imported_client, is_client_copy, is_openai_client, possible_origins,
)
from migrator.model import FixSafety
from migrator.rule import Block, Example, Report, Rule
from migrator.shapes import code_of, dict_entries, keyword_argument, literal_string, one_line, string_text

AZURE_HOSTS = ("*.openai.azure.com", "*.cognitiveservices.azure.com", "*.services.ai.azure.com")
OPENAI_HOSTS = (
    "api.openai.com",
    "*.api.openai.com",  # regional (eu.api.openai.com, ...) and mTLS endpoints
    *AZURE_HOSTS,
)
# Where an Azure resource serves the Responses API to the SDK's `OpenAI` client: its other
# routes (`/openai/deployments/<name>`, AI Foundry's `/models`) serve Chat Completions only.
AZURE_V1_PATH = "/openai/v1"
ENVIRONMENT_VARIABLE = "OPENAI_BASE_URL"
AZURE_ENDPOINT_VARIABLE = "AZURE_OPENAI_ENDPOINT"  # where `AzureOpenAI` reads its endpoint when given none
# Azure clients talk to Azure (which API versions serve Responses there: `azure_api_version`).
OPENAI_CLIENTS = CLIENT_CLASSES - AZURE_CLIENT_CLASSES
MODULE = "openai"  # a module with a client of its own
MODULE_BASE_URL = f"{MODULE}.base_url"  # where that client takes its URL
# Arguments that choose an endpoint the SDK knows: a regional OpenAI one, or a provider's.
ENDPOINT_CHOICES = ("data_residency", "provider")
CONSEQUENCE = (
    "migrated calls would go to `/v1/responses`, which many OpenAI-compatible servers (vLLM, Ollama,"
    ' llama.cpp, LM Studio, gateways) do not implement: they answer 404, 405, 502 or "Unexpected endpoint'
    ' or method"'
)
OPT_IN = (
    "`migrator probe --base-url URL` asks the server whether it serves them; --allow-other-servers, or"
    " `openai-hosts` for this host, migrates them"
)

RULE = Rule(
    title="Client pointed at another server",
    safety=FixSafety.MANUAL,
    needs=("base_url", ENVIRONMENT_VARIABLE),
    needs_imports=("openai",),
    # What the module hook reports: `base_url=` given, `client.base_url = ...`, or the variable named.
    needs_keywords=("base_url", ENVIRONMENT_VARIABLE),
    needs_string_values=(ENVIRONMENT_VARIABLE,),
    examples=[
        Example(
            before=(
                "from openai import OpenAI\n"
                'client = OpenAI(base_url="http://localhost:11434/v1", api_key="ollama")\n'
                'resp = client.chat.completions.create(model="llama3", messages=[{"role": "user", "content": "Hi"}])\n'
                "print(resp.choices[0].message.content)\n"
            ),
            finding="its client sends requests to `http://localhost:11434/v1`",
        ),
        Example(
            before=(
                "from openai import OpenAI\n"
                'client = OpenAI(base_url="http://localhost:8000/v1")\n'
                'resp = client.chat.completions.create(model="m", messages=[{"role": "user", "content": "Hi"}])\n'
                "print(resp.choices[0].message.content)\n"
            ),
            after=(
                "from openai import OpenAI\n"
                'client = OpenAI(base_url="http://localhost:8000/v1")\n'
                'resp = client.responses.create(model="m", input="Hi")\n'
                "print(resp.output_text)\n"
            ),
            options=("allow_other_servers",),
        ),
        Example(
            before=(
                "import os\n"
                "from openai import OpenAI\n"
                'os.environ.setdefault("OPENAI_BASE_URL", "http://localhost:1234/v1")\n'
                "client = OpenAI()\n"
            ),
            finding="the URL the `OPENAI_BASE_URL` environment variable holds",
        ),
    ],
)


@RULE.guard
def calls_on_other_servers(site) -> Optional[Block]:
    analysis = site.analysis
    if analysis.options.allow_other_servers:
        return None
    server = _server_of_client(site.receiver, analysis)
    if server is not None:
        return Block(f"its client sends requests to {server}, and {CONSEQUENCE} ({OPT_IN})")
    declared = _declared_for_other_servers(site.receiver, analysis)
    if declared is not None:
        return Block(f"its client {declared}; {CONSEQUENCE} ({OPT_IN})")
    return None


@RULE.module
def clients_on_other_servers(analysis) -> List[Report]:
    if analysis.options.allow_other_servers:
        return []
    reports = []
    for node in _client_configurations(analysis, every_client=_local_environment_server(analysis) is not None):
        server = _configured_server(node, analysis)
        if server is not None:
            code = one_line(analysis.module.code_for_node(node))
            message = (
                f"`{code}` sends requests to {server}: {CONSEQUENCE}; `apply` leaves calls on this client as they"
                f" are ({OPT_IN})"
            )
            reports.append(Report(node, message))
    return reports


def _client_configurations(analysis, every_client: bool) -> Iterable[cst.CSTNode]:
    """Where the module says which server a client talks to: the clients it builds (with a
    ``base_url``, or any with ``every_client``), the copies it makes with another ``base_url``,
    and the URLs it sets on a client once built (``client.base_url = ...``, ``openai.base_url =
    ...``)."""
    for node in analysis.nodes.nodes_of(cst.Call, cst.Assign):
        if isinstance(node, cst.Assign):
            if any(is_openai_client(owner, analysis) for owner in _base_url_owners(node)):
                yield node
        elif not (every_client or keyword_argument(node, "base_url") is not None):
            continue  # no name lookups for the calls that cannot configure a server
        elif analysis.may_name(node.func, *OPENAI_CLIENTS) and analysis.imports.imported_as(node.func) & OPENAI_CLIENTS:
            yield node
        elif is_client_copy(node) and keyword_argument(node, "base_url") is not None and is_openai_client(node.func.value, analysis):
            yield node


def _configured_server(node: cst.CSTNode, analysis) -> Optional[str]:
    """The other server one of ``_client_configurations`` points its client at, in words."""
    return _server_of_origin(node, analysis) if isinstance(node, cst.Call) else _url_server(node.value, analysis)


def _declared_for_other_servers(client: cst.BaseExpression, analysis) -> Optional[str]:
    """Why the client ``client`` holds may talk to another server though the module does not
    say where it is built, in words: only an annotation declares it a client here (a parameter
    ``client: OpenAI``), and the project builds clients for other servers, any of which code
    out of sight may pass. None when it builds none."""
    declared = declared_origins(client, analysis)
    built = _other_server_built(analysis) if declared else None
    if built is None:
        return None
    annotation = one_line(code_of(declared[0][1].annotation))
    return f"is declared `{annotation}` here and built out of sight, where it may be one of the clients the project builds for other servers ({built})"


def _other_server_built(analysis) -> Optional[str]:
    """Where the project builds a client for another server, in words: here first, else in its
    other modules (``ProjectFacts.built_clients``, whose literal URLs are judged here)."""
    for node in _client_configurations(analysis, every_client=True):
        server = _configured_server(node, analysis)
        if server is not None:
            return f"line {analysis.nodes.positions[node].start.line} of this module, for {server}"
    elsewhere = [
        built for built in analysis.project.built_clients()
        if built.url is None or not is_openai_host(urlsplit(built.url).hostname or "", analysis.options.openai_hosts)
    ]
    if not elsewhere:
        return None
    more = f", and {len(elsewhere) - 1} more" if len(elsewhere) > 1 else ""
    return f"`{elsewhere[0].place}`, for {elsewhere[0].server}{more}"


def _server_of_client(client: cst.BaseExpression, analysis) -> Optional[str]:
    """The other server a client expression talks to, in words; None for OpenAI's, or when the
    module does not say (a client passed in)."""
    origins = possible_origins(client, analysis)
    server = _server_set_later(origins, analysis)
    if server is not None:
        return server
    for origin in origins:
        server = _server_of_origin(origin, analysis)
        if server is not None:
            return server
    return None


def _server_set_later(origins: List[cst.CSTNode], analysis) -> Optional[str]:
    """The other server the module points a client made at one of ``origins`` at once it is
    built (the SDK's ``base_url`` setter: ``client.base_url = ...``, also in the factory that
    builds it, or ``openai.base_url = ...`` for the module's own client, whose names all hold
    what one import binds), in words."""
    made_at = {id(origin) for origin in origins}
    for node in analysis.nodes.nodes_of(cst.Assign):
        for owner in _base_url_owners(node):
            if made_at & {id(origin) for origin in possible_origins(owner, analysis)}:
                server = _url_server(node.value, analysis)
                if server is not None:
                    return server
    return None


def _base_url_owners(node: cst.Assign) -> List[cst.BaseExpression]:
    """What ``node`` sets the ``base_url`` of: ``client`` for ``client.base_url = ...``."""
    return [target.target.value for target in node.targets if _is_base_url(target.target)]


def _server_of_origin(origin: cst.CSTNode, analysis) -> Optional[str]:
    if isinstance(origin, cst.Name) and MODULE in analysis.imports.imported_as(origin):  # also as `llm = openai`
        return _environment_server(analysis)
    if not isinstance(origin, cst.Call):
        return _imported_server(origin, analysis)
    base_url = keyword_argument(origin, "base_url")
    if analysis.imports.imported_as(origin.func) & OPENAI_CLIENTS:
        if base_url is not None:
            return _url_server(base_url, analysis)
        unpacked = _unpacked_server(origin, analysis)
        if unpacked is not None:
            return unpacked
        if any(keyword_argument(origin, name) is not None for name in ENDPOINT_CHOICES):
            return None
        return _environment_server(analysis)
    if is_client_copy(origin):  # a copy keeps its original's server unless given another
        return _url_server(base_url, analysis) if base_url is not None else _server_of_client(origin.func.value, analysis)
    subclass = client_subclass(origin.func, analysis)
    if subclass is not None:
        if "base_url" in code_of(subclass):  # what it passes is not read
            return _given_server(origin, analysis) or f"the URL `{subclass.name.value}` gives its client"
        return _given_server(origin, analysis) or _environment_server(analysis)
    return _imported_server(origin, analysis)


def _given_server(origin: cst.Call, analysis) -> Optional[str]:
    """The server the call building a client of a subclass of the client's class gives it: its
    ``base_url``, or what its ``**`` arguments may hold; None when it gives none."""
    base_url = keyword_argument(origin, "base_url")
    if base_url is not None:
        return _url_server(base_url, analysis)
    return _unpacked_server(origin, analysis)


def _unpacked_server(origin: cst.Call, analysis) -> Optional[str]:
    """The server the ``**`` arguments of the call building a client give it: the ``base_url``
    of a dict literal (or of the one a name holds), or, for arguments the tool cannot read, the
    URL they may hold; None when they give none."""
    for arg in origin.args:
        if not arg.star:
            continue
        for made in analysis.bindings.bound_values(arg.value) if arg.star == "**" else [arg.value]:
            entries = dict_entries(made)
            if entries is None:
                return f"a URL the arguments `{one_line(code_of(origin))}` is built with may hold"
            if "base_url" in entries:
                return _url_server(entries["base_url"].value, analysis)
    return None


def _imported_server(origin: cst.CSTNode, analysis) -> Optional[str]:
    """The server of a client another module of the project makes, as that module says; for a
    subclass of the client built here, as the arguments it is built with say first."""
    imported = imported_client(origin, analysis)
    if imported is None:
        return None
    if imported.kind == "class" and isinstance(origin, cst.Call):
        return _given_server(origin, analysis) or imported.server
    return imported.server


def _url_server(value: cst.BaseExpression, analysis) -> Optional[str]:
    """``value`` (a ``base_url``) in words when it is not OpenAI's."""
    url = _text(value, analysis)
    if url is None and _extends_azure_endpoint(value, analysis):
        return None
    if url is None:
        return f"the URL `{one_line(analysis.module.code_for_node(value))}` holds at run time"
    parts = urlsplit(url)
    host = parts.hostname
    if host is not None and _is_azure_host(host) and parts.path.rstrip("/") != AZURE_V1_PATH:
        return f"`{url}`, a route of Azure's that serves no Responses API (Azure serves it under `{AZURE_V1_PATH}/`)"
    if host is not None and is_openai_host(host, analysis.options.openai_hosts):
        return None
    return f"`{url}`"


def _is_azure_host(host: str) -> bool:
    return _matches(host, AZURE_HOSTS)


def _text(value: cst.BaseExpression, analysis) -> Optional[str]:
    """The text ``value`` holds: a literal, a name bound once to one, or a sum of those."""
    if isinstance(value, cst.BinaryOperation) and isinstance(value.operator, cst.Add):
        left, right = _text(value.left, analysis), _text(value.right, analysis)
        return left + right if left is not None and right is not None else None
    if isinstance(value, cst.Name):
        definition = analysis.bindings.definition(value)
        return literal_string(definition.value) if definition is not None else None
    return literal_string(value)


def _extends_azure_endpoint(value: cst.BaseExpression, analysis) -> bool:
    """``os.environ["AZURE_OPENAI_ENDPOINT"].rstrip("/") + "/openai/v1/"``: a path below the
    endpoint in the variable ``AzureOpenAI`` itself reads its endpoint from, an Azure resource's."""
    if not (isinstance(value, cst.BinaryOperation) and isinstance(value.operator, cst.Add) and _text(value.right, analysis)):
        return False
    endpoint = value.left
    if isinstance(endpoint, cst.Call) and isinstance(endpoint.func, cst.Attribute) and endpoint.func.attr.value == "rstrip":
        endpoint = endpoint.func.value
    if isinstance(endpoint, cst.Subscript):
        key = endpoint.slice[0].slice if len(endpoint.slice) == 1 else None
        return (
            isinstance(key, cst.Index)
            and literal_string(key.value) == AZURE_ENDPOINT_VARIABLE
            and "os.environ" in analysis.imports.imported_as(endpoint.value)
        )
    return False


def _environment_server(analysis) -> Optional[str]:
    """Where a client built here without a ``base_url`` sends requests, when the environment
    variable may hold its URL: this module, or a project module it imports (a settings module
    run first, say), reads or sets it, or a ``.env`` file in its folder or above sets it."""
    local = _local_environment_server(analysis)
    if local is not None:
        return local
    places = analysis.project.where_imports_spell(ENVIRONMENT_VARIABLE)
    if places and places[0].split(":")[0].rsplit("/", 1)[-1] == ".env":
        return f"the URL the `{ENVIRONMENT_VARIABLE}` environment variable holds (`{places[0]}` sets it)"
    if places:
        return f"the URL the `{ENVIRONMENT_VARIABLE}` environment variable holds (`{places[0]}`, which this module imports, reads or sets it)"
    return None


def _local_environment_server(analysis) -> Optional[str]:
    """The same, as this module alone says: a string names the variable
    (``os.environ["OPENAI_BASE_URL"] = ...``), or a keyword (``os.environ.update(OPENAI_BASE_URL=...)``)."""
    if ENVIRONMENT_VARIABLE.encode() not in analysis.source:
        return None
    if any(string_text(node) == ENVIRONMENT_VARIABLE for node in analysis.nodes.code_strings) or any(
        arg.keyword is not None and arg.keyword.value == ENVIRONMENT_VARIABLE for arg in analysis.nodes.nodes_of(cst.Arg)
    ):
        return f"the URL the `{ENVIRONMENT_VARIABLE}` environment variable holds (this module reads or sets it)"
    return None


def is_openai_host(host: str, configured: Iterable[str]) -> bool:
    return _matches(host, (*OPENAI_HOSTS, *configured))


def _matches(host: str, patterns: Iterable[str]) -> bool:
    return any(fnmatch.fnmatchcase(host.lower(), pattern.lower()) for pattern in patterns)


def _is_base_url(target: cst.BaseExpression) -> bool:
    """``<anything>.base_url``."""
    return isinstance(target, cst.Attribute) and target.attr.value == "base_url"
