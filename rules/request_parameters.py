"""
## What it does
Maps the request parameters that have a Responses equivalent:

| Chat Completions | Responses |
|---|---|
| `max_tokens`, `max_completion_tokens` | `max_output_tokens` |
| `reasoning_effort=x` | `reasoning={"effort": x}` |
| `verbosity=x` | `text={"verbosity": x}` |
| `model`, `temperature`, `top_p`, `parallel_tool_calls`, `store`, `metadata`, `user`, `service_tier`, `prompt_cache_key`, `prompt_cache_retention`, `safety_identifier`, `timeout`, `extra_headers`, `extra_query`, `extra_body` | unchanged |

A request built as a dict and passed with `**` is mapped key by key, where each key is written,
with the mapping of its parameter (every rule's, not only this one's), when the tool sees every
key: the dict is made by a literal or `dict(k=v)` in the scope of the call, its other keys are
written as `params["key"] = value`, `params.update({...})` or `params.update(k=v)` (under `if`s
or not) with string keys, and nothing else uses it. So are dicts unpacked where they are made: a
literal, `dict(k=v)` or a choice between them (`**({"top_p": p} if p else {})`, its keys on some
paths only), several of them in one call, and the dicts a function or method of the module
returns on every path (`**self._sampling()`, `params = self._base()`), rewritten in its
`return`s, when each call of it unpacks what it returns into a call that is migrated with this
one, and no other module imports its class (a subclass there may override it). So is a `**`
parameter of a function that only this module calls (`def complete(**kwargs): return
client.chat.completions.create(**kwargs)`): its keys are the keyword arguments of those calls
that name no other parameter, rewritten in each call, when none of them passes `**` a dict of
its own. A key with no
equivalent, or a value its mapping cannot prove, keeps the call as it is and is reported where
it is written. So is a key written on some paths only (or several times) when another
parameter's or the result's migration depends on it (`stream`, `tools`), and one written several
times as different Responses parameters (`messages` with and without a leading system message).
Two keys that become the same parameter (`max_tokens` and `max_completion_tokens`) are fine when
each is written as `params["key"] = value` in another arm of one `if`/`elif`/`else`, which no
loop runs again over the same dict: the dict holds one of them. Anywhere else they are reported.

## Why
`responses.create` rejects the Chat names (`Unsupported parameter: 'max_tokens'`).

## Example
```python
client.chat.completions.create(model=m, messages=msgs, max_tokens=200, reasoning_effort="low")

params = dict(model=m, messages=msgs)
if short:
    params["max_tokens"] = 60
client.chat.completions.create(**params)
```

## Use instead
```python
client.responses.create(model=m, input=msgs, max_output_tokens=200, reasoning={"effort": "low"})

params = dict(model=m, input=msgs)
if short:
    params["max_output_tokens"] = 60
client.responses.create(**params)
```

A dict the tool cannot see every key of (`**kwargs`, `**self.generation_kwargs`, a dict made by
a function of another module, one also logged or returned) keeps its call as it is: it may hold parameters
the Responses API lacks. Pass the parameters by name, or build the dict beside the call from
string keys, and use it for nothing else.

A `model` the Responses API does not serve blocks the call: the search models
(`gpt-4o-search-preview`, `gpt-4o-mini-search-preview`, and their dated snapshots), the audio
models (`gpt-4o-audio-preview`, `gpt-audio`, ...) and the legacy Completions models
(`gpt-3.5-turbo-instruct`, `babbage-002`, `davinci-002`), written in the call or in a name bound
to the literal, or the default of the environment variable they read (`os.getenv("MODEL",
"gpt-3.5-turbo-instruct")`). With `--unsafe-fixes`, a search model written in the call becomes its general
counterpart (`gpt-4o`, `gpt-4o-mini`) with the `web_search` tool (`tools=[{"type":
"web_search"}]`, or the tool rule `web_search_options` makes of the call's options), with a
`# migrator:` comment: another model answers, and decides itself when to search the web, where
the search model searched for every request. A call that also sends tools of its own is only
reported.

`extra_body` is sent as it is, so it migrates only when it is a dict literal (or a name holding
one) of parameters both APIs take as they are (`temperature`, `metadata`, ...): a Chat
parameter the Responses API names or shapes otherwise (`reasoning_effort`, `max_tokens`,
`response_format`, ...), any other key (a server's own extension, such as Azure's
`data_sources` or vLLM's `top_k`, which a Responses endpoint may reject or ignore), or keys the
tool cannot read block the call.

## Fix safety
Safe. The service rejects `max_output_tokens` below 16, so a limit below 16 blocks the call
instead of producing a request that fails: a literal, or one the module spells out for the value
(a constant it is bound to, the default of the parameter it is, what the module's calls of
that function pass, or what other modules of the project pass where they call it by the name
they import: `ask("Yes or no?", max_tokens=1)`), followed through `int(...)`, the default of
`os.getenv(NAME, "8")` or `options.get("max_tokens", 10)`, a dict literal's value
(`CONFIG["max_tokens"]`), sums and products (`words * 2`), and, for an attribute
(`settings.max_tokens`, `args.max_tokens`), the class attributes of that name in the module (a
dataclass field's default) and the `default=` of the command-line option stored there
(`add_argument("--max-tokens", default=4)`); a name imported from another module of the
project is read where that module binds it (`MAX_TOKENS = int(os.getenv("MAX_TOKENS", 10))`).
A limit the tool cannot read (a value given at run time with no default in sight) is mapped as
it is. `stream` and `stream_options` are migrated by
`stream_loops`, together with the loop that reads the stream.
"""

from typing import List, Optional, Tuple

import libcst as cst

from migrator.model import FixSafety
from migrator.rule import Block, Example, NewArgument, Rewrite, Rule
from migrator.rules.unsupported_parameters import NO_EQUIVALENT
from migrator.shapes import code_of, dict_entries, is_name, keyword_argument, literal_int, literal_string, one_line, string_like

RENAMED = {
    "max_tokens": "max_output_tokens",
    "max_completion_tokens": "max_output_tokens",
}
# Parameters that become one entry of a dict parameter: name -> (parameter, key).
NESTED = {
    "reasoning_effort": ("reasoning", "effort"),
    "verbosity": ("text", "verbosity"),
}
UNCHANGED = (
    "model",
    "temperature",
    "top_p",
    "parallel_tool_calls",
    "store",
    "metadata",
    "user",
    "service_tier",
    "prompt_cache_key",
    "prompt_cache_retention",
    "safety_identifier",
    "timeout",
    "extra_headers",
    "extra_query",
    "extra_body",
)
# What `extra_body` may send to either API alike: the parameters both take as they are.
SENT_ALIKE = frozenset(UNCHANGED) - {"timeout", "extra_headers", "extra_query", "extra_body"}
MIN_OUTPUT_TOKENS = 16  # the service answers 400 below this
MAX_LIMIT_DEPTH = 4  # names, calls and attributes followed to find what a limit may be
MAX_LIMITS = 8  # the values of each side an arithmetic limit is computed from
ARITHMETIC = {
    cst.Add: lambda a, b: a + b,
    cst.Subtract: lambda a, b: a - b,
    cst.Multiply: lambda a, b: a * b,
    cst.FloorDivide: lambda a, b: a // b,
}
# Models the Responses API does not serve (with their dated snapshots), and the model a call
# can name there instead, where there is one: search models are Chat Completions' own, audio
# models have no Responses output, instruct models are legacy Completions'.
CHAT_ONLY_MODELS = {
    "gpt-4o-search-preview": "gpt-4o",
    "gpt-4o-mini-search-preview": "gpt-4o-mini",
    "gpt-4o-audio-preview": None,
    "gpt-4o-mini-audio-preview": None,
    "gpt-audio": None,
    "gpt-audio-mini": None,
    "gpt-3.5-turbo-instruct": None,
    "babbage-002": None,
    "davinci-002": None,
}
# Chat parameters the Responses API names or shapes otherwise (or lacks): in `extra_body`,
# which the SDK sends as they are, they are errors.
CHAT_ONLY_PARAMETERS = frozenset(
    {*RENAMED, *NESTED, *NO_EQUIVALENT, "messages", "response_format", "functions", "function_call", "tools", "tool_choice", "web_search_options", "stream_options"}
)

RULE = Rule(
    title="Request parameters with a Responses equivalent",
    safety=FixSafety.SAFE,
    needs=("completions",),
    examples=[
        Example(
            before=(
                "import openai\n"
                'r = openai.chat.completions.create(model="o4-mini", messages=m, max_tokens=200, reasoning_effort="low")\n'
            ),
            after=(
                "import openai\n"
                'r = openai.responses.create(model="o4-mini", input=m, max_output_tokens=200, reasoning={"effort": "low"})\n'
            ),
        ),
        Example(
            before=(
                "import openai\n"
                'r = openai.chat.completions.create(model="gpt-4o", messages=m, max_tokens=5)\n'
            ),
            finding="below 16",
        ),
        Example(
            before=(
                "import openai\n"
                "def label(text, limit=5):\n"
                '    return openai.chat.completions.create(model="gpt-4o", messages=text, max_tokens=limit)\n'
            ),
            finding="may be `5` (line 2), which is below 16",
        ),
        Example(
            before=(
                "import openai\n"
                'params = dict(model="gpt-4o", messages=m)\n'
                "if short:\n"
                '    params["max_tokens"] = 60\n'
                "r = openai.chat.completions.create(**params)\n"
            ),
            after=(
                "import openai\n"
                'params = dict(model="gpt-4o", input=m)\n'
                "if short:\n"
                '    params["max_output_tokens"] = 60\n'
                "r = openai.responses.create(**params)\n"
            ),
        ),
    ],
)


@RULE.parameter(*UNCHANGED)
def unchanged(name, value, site):
    if name == "model":
        served = _model_served(site.argument(name).value, value, site)
        if served is not None:
            return served
    if name == "extra_body":
        unsent = _body_unsent_alike(site.argument(name).value, site)
        if unsent is not None:
            return unsent
    return Rewrite((NewArgument(name, value),))


def _model_served(original: cst.BaseExpression, value: cst.BaseExpression, site) -> Optional[Block]:
    """Why the Responses API does not serve the model the call names (a literal, or a name bound
    to one, or the default of the environment variable either reads), when it is one only Chat
    Completions (or legacy Completions) serves; None otherwise. A search model has a general
    counterpart, which an unsafe fix names instead."""
    for made in site.analysis.bindings.bound_values(original):
        default = site.analysis.environment_default(made)
        model = literal_string(default if default is not None else made)
        if model is None:
            continue
        for prefix, counterpart in CHAT_ONLY_MODELS.items():
            if model == prefix or model.startswith(prefix + "-"):
                reason = f"`model` is `{model}`{' where the variable is unset' if default is not None else ''}, which the Responses API does not serve"
                if counterpart is None or made is not original:
                    return Block(reason)
                return _search_model_replaced(original, model, counterpart, reason, site)
    return None


def _search_model_replaced(original: cst.BaseExpression, model: str, counterpart: str, reason: str, site) -> Block:
    """The block of a call naming the search model ``model``, with the unsafe fix naming
    ``counterpart``: a search model searches the web for every request, which its counterpart
    does only with the `web_search` tool. Rule `web_search_options` gives the tool to a call
    passing its options; another call gets it here, unless it sends tools of its own."""
    reason = f"{reason}; `{counterpart}` is its counterpart there"
    if site.has_argument("web_search_options"):
        return Block(reason, unsafe=Rewrite((NewArgument("model", string_like(original, counterpart)),), note=f"`{model}` became `{counterpart}`, which the Responses API serves"))
    if site.has_argument("tools") or site.has_argument("functions"):
        return Block(f"{reason}, which searches the web only with the `web_search` tool: add it to this call's own tools by hand")
    tool = cst.parse_expression(f"[{{{string_like(original, 'type').value}: {string_like(original, 'web_search').value}}}]")
    note = f"`{model}` became `{counterpart}` with the `web_search` tool, which the Responses API serves: the model now decides when to search the web"
    return Block(reason, unsafe=Rewrite((NewArgument("model", string_like(original, counterpart)), NewArgument("tools", tool)), note=note))


def _body_unsent_alike(body: cst.BaseExpression, site) -> Optional[Block]:
    """Why what ``extra_body`` (a dict literal, or the literals a name holds) sends may not
    reach the Responses API alike: a Chat Completions parameter it names or shapes otherwise
    (the service answers `Unsupported parameter`), a key it does not share with Chat
    Completions (a server's own extension, such as Azure's `data_sources`, which the Responses
    endpoint may reject or ignore), or keys the tool cannot read."""
    chat_only: List[str] = []
    unknown: List[str] = []
    for made in site.analysis.bindings.bound_values(body):
        if is_name(made, "None"):
            continue
        entries = dict_entries(made)
        if entries is None:
            return Block(f"`extra_body` is `{one_line(code_of(body), limit=40)}`, whose keys the tool cannot read: they may be parameters the Responses API does not take")
        chat_only += [key for key in entries if key in CHAT_ONLY_PARAMETERS and key not in chat_only]
        unknown += [key for key in entries if key not in CHAT_ONLY_PARAMETERS and key not in SENT_ALIKE and key not in unknown]
    if chat_only:
        shown = ", ".join(f"`{key}`" for key in chat_only)
        return Block(f"`extra_body` sends {shown}, which the Responses API takes in another shape or not at all")
    if unknown:
        shown = ", ".join(f"`{key}`" for key in unknown)
        return Block(
            f"`extra_body` sends {shown}, which the Responses API does not share with Chat Completions"
            " (a server's own extension, say): its endpoint may reject it, or ignore it"
        )
    return None


@RULE.parameter(*RENAMED)
def renamed(name, value, site):
    if RENAMED[name] == "max_output_tokens":
        for limit, written in _limits(value, site.analysis):
            if 0 < limit < MIN_OUTPUT_TOKENS:  # Chat refuses a limit below 1 too: a `0` default is a "no limit" guarded elsewhere
                written_as = f"`{name}={site.analysis.module.code_for_node(value)}`"
                if isinstance(written, cst.FunctionDef):
                    written_as += f" may be `{limit}` (another module calls `{written.name.value}` with it), which"
                elif written is not value:
                    line = site.analysis.nodes.positions[written].start.line
                    written_as += f" may be `{limit}` (line {line}), which"
                elif literal_int(value) is None:
                    written_as += f" may be `{limit}`, which"
                return Block(f"{written_as} is below 16, the smallest `max_output_tokens` the Responses API accepts")
    return Rewrite((NewArgument(RENAMED[name], value),))


def _limits(value: cst.BaseExpression, analysis) -> List[Tuple[int, cst.CSTNode]]:
    """The integers the project spells out that ``value`` may hold, each with where it is
    written: itself, what the names bound to it are assigned, and for a parameter its default,
    what this module's calls of its function pass, and what other modules' calls of it pass
    (written there: the function stands for where). A limit held in a constant, or a function's
    ``max_tokens: int = 5``, reaches the request as surely as a literal does."""
    return _possible_limits(value, analysis, depth=0)


def _possible_limits(value: cst.BaseExpression, analysis, depth: int) -> List[Tuple[int, cst.CSTNode]]:
    found: List[Tuple[int, cst.CSTNode]] = []
    if depth > MAX_LIMIT_DEPTH:
        return found
    for made in analysis.bindings.bound_values(value):
        if isinstance(made, cst.Param):
            given = [made.default] if made.default is not None else []
            given += analysis.passed_by_every_call(made) or []
            function = analysis.nodes.enclosing(made, cst.FunctionDef)
            found += [(limit, function) for limit in analysis.passed_by_other_modules(made) if type(limit) is int]
            found += [each for value_given in given for each in _possible_limits(value_given, analysis, depth + 1)]
            continue
        limit = literal_int(made) if not isinstance(made, cst.SimpleString) else _digits(made)
        if limit is not None:
            found.append((limit, made))
            continue
        if isinstance(made, cst.ImportFrom) and isinstance(value, cst.Name):
            constant = analysis.project.constant(value.value)  # a name another module binds
            found += [(constant[0], made)] if constant is not None else []
            continue
        for inner in _limit_sources(made, analysis):
            found += _possible_limits(inner, analysis, depth + 1)
        if isinstance(made, cst.BinaryOperation) and type(made.operator) in ARITHMETIC:
            left = _possible_limits(made.left, analysis, depth + 1)[:MAX_LIMITS]
            right = _possible_limits(made.right, analysis, depth + 1)[:MAX_LIMITS]
            found += [(ARITHMETIC[type(made.operator)](a, b), made) for a, _ in left for b, _ in right if not (b == 0 and isinstance(made.operator, cst.FloorDivide))]
    return found


def _limit_sources(made: cst.CSTNode, analysis) -> List[cst.BaseExpression]:
    """What else spells the integers ``made`` may be: ``int(x)``'s ``x``, the default of
    ``os.getenv(NAME, "8")`` or ``config.get("max_tokens", 10)``, the value a dict literal
    holds for ``CONFIG["max_tokens"]``, and for ``settings.max_tokens`` the class attributes
    of the module (a dataclass field's default) and the ``default=`` of the command-line
    options (``parser.add_argument("--max-tokens", default=4)``) of that name."""
    if isinstance(made, cst.Call) and isinstance(made.func, cst.Name) and made.func.value in ("int", "round") and len(made.args) == 1:
        return [made.args[0].value]
    if isinstance(made, cst.Call) and isinstance(made.func, cst.Attribute) and made.func.attr.value in ("get", "getenv") and len(made.args) == 2:
        return [made.args[1].value]
    if isinstance(made, cst.Subscript) and len(made.slice) == 1 and isinstance(made.slice[0].slice, cst.Index):
        key = literal_string(made.slice[0].slice.value)
        entries = [dict_entries(each) for each in analysis.bindings.bound_values(made.value)]
        return [entry[key].value for entry in entries if entry is not None and key is not None and key in entry]
    if isinstance(made, cst.Attribute):
        return _attribute_defaults(made.attr.value, analysis)
    return []


def _attribute_defaults(name: str, analysis) -> List[cst.BaseExpression]:
    """The values the module gives attributes called ``name`` in class bodies, and the
    defaults of the command-line options whose destination it is."""
    found: List[cst.BaseExpression] = []
    for cls in analysis.nodes.nodes_of(cst.ClassDef):
        for line in cls.body.body:
            for statement in line.body if isinstance(line, cst.SimpleStatementLine) else ():
                if isinstance(statement, cst.AnnAssign) and is_name(statement.target, name) and statement.value is not None:
                    found.append(statement.value)
                elif isinstance(statement, cst.Assign) and any(is_name(target.target, name) for target in statement.targets):
                    found.append(statement.value)
    for call in analysis.nodes.nodes_of(cst.Call):
        if isinstance(call.func, cst.Attribute) and call.func.attr.value == "add_argument":
            default = keyword_argument(call, "default")
            if default is not None and _option_destination(call) == name:
                found.append(default)
    return found


def _option_destination(call: cst.Call) -> Optional[str]:
    """The attribute ``argparse`` stores an ``add_argument`` option in: its ``dest=``, else its
    first long option's name (``--max-tokens``: ``max_tokens``), else its first name."""
    dest = keyword_argument(call, "dest")
    if dest is not None:
        return literal_string(dest)
    names = [name for arg in call.args if arg.keyword is None for name in [literal_string(arg.value)] if name is not None]
    long = [name for name in names if name.startswith("--")]
    chosen = long[0] if long else (names[0] if names else None)
    return chosen.lstrip("-").replace("-", "_") if chosen is not None else None


def _digits(node: cst.SimpleString) -> Optional[int]:
    text = literal_string(node)
    return int(text) if text is not None and text.strip().isdigit() else None


@RULE.parameter(*NESTED)
def nested(name, value, site):
    parameter, key = NESTED[name]
    entry = cst.DictElement(key=string_like(value, key), value=value)
    return Rewrite((NewArgument(parameter, cst.Dict([entry])),))
