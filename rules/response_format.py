"""
## What it does
Moves `response_format=` to where the Responses API takes the output format:

| Chat Completions | Responses |
|---|---|
| `response_format={"type": "json_object"}` | `text={"format": {"type": "json_object"}}` |
| `response_format={"type": "text"}` | `text={"format": {"type": "text"}}` |
| `response_format={"type": "json_schema", "json_schema": {"name": n, "schema": s, ...}}` | `text={"format": {"type": "json_schema", "name": n, "schema": s, ...}}` |
| `response_format=Model` in `chat.completions.parse` (or `.stream`) | `text_format=Model` in `responses.parse` (or `.stream`) |

The `json_schema` format is flat in the Responses API: its `name`, `schema`, `strict` and
`description` sit next to `"type"`. `verbosity=` ends up in the same `text=` dict. A format
held in a name (`response_format=ANSWER_FORMAT`) is passed as `text={"format": ANSWER_FORMAT}`,
and a `json_schema` format is flattened where the name is defined. So is a parameter of a
wrapper (`def ask(prompt, response_format=None)`) that every call, in the module and in the
other modules of the project, gives `{"type": "json_object"}` or `{"type": "text"}` written as a
literal, or `None` where the call sits under `if response_format:`: those read the same in both
APIs.

## Why
`responses.create` rejects `response_format` (`Unsupported parameter: 'response_format'. In
the Responses API, this parameter has moved to 'text.format'.`), and a Chat-shaped
`{"type": "json_schema", "json_schema": {...}}` inside `text.format` fails on the missing
`text.format.name`. `responses.parse` takes the model class as `text_format` and builds the
flat format from it, as `chat.completions.parse` did.

## Example
```python
client.chat.completions.create(
    model="gpt-4o-mini",
    messages=msgs,
    response_format={"type": "json_schema", "json_schema": {"name": "answer", "schema": SCHEMA, "strict": True}},
)
```

## Use instead
```python
client.responses.create(
    model="gpt-4o-mini",
    input=msgs,
    text={"format": {"type": "json_schema", "name": "answer", "schema": SCHEMA, "strict": True}},
)
```

## Fix safety
Safe. A `json_schema` format without `strict` gets `"strict": False`, the Chat Completions
default, so that the schema is enforced exactly as before whatever the Responses default. The
tool blocks the call, and says why, when the format is not a dict literal it can read (built by
a function, passed in as a parameter some call gives anything else, with `**` entries), has a key the Responses format does
not take, lacks the `schema` the Responses API requires, or is held in a name that is assigned
more than once or also used by code other than migrated calls (rewriting its definition would
break that code). In `chat.completions.parse` (and `.stream`), `response_format=X` becomes
`text_format=X` when `X` is a class defined in the module, an imported name spelled like a
class (`Answer`, `schemas.Answer`), or a parameter annotated `Type[...]` or `type[...]` with no
default (`response_format: Type[BaseModel]`, whose callers the type checker holds to classes): besides format dicts, `chat.completions.parse` accepts only
types (Pydantic models, TypedDicts, dataclasses), and `responses.parse` accepts the same ones
and turns them into the same strict schema. A name the tool cannot prove to be either is
reported.
"""

from typing import Dict, List, Optional, Union

import libcst as cst

from migrator.analysis import CallSite
from migrator.model import FixSafety, PassedDict
from migrator.passed_values import DEFAULT
from migrator.rule import Block, Example, NewArgument, Rewrite, Rule, UseRewrite
from migrator.shapes import code_of, dict_entries, is_constant, is_name, lifted, literal_string, one_line, string_like

PLAIN_FORMATS = frozenset({"text", "json_object"})
# Keys of Chat's json_schema object; the Responses format requires name and schema.
JSON_SCHEMA_KEYS = frozenset({"name", "schema", "strict", "description"})
JSON_SCHEMA_REQUIRED = frozenset({"name", "schema"})
CHAT_STRICT_DEFAULT = "False"
# The helpers that take a class as the format; their Responses counterparts take it as `text_format`.
CLASS_FORMAT_KINDS = frozenset({"chat.completions.parse", "chat.completions.stream"})

RULE = Rule(
    title="`response_format` to `text.format` and `text_format`",
    safety=FixSafety.SAFE,
    needs=("response_format",),
    examples=[
        Example(
            before=(
                "import openai\n"
                'r = openai.chat.completions.create(model="gpt-4o", messages=m, response_format={"type": "json_object"})\n'
            ),
            after=(
                "import openai\n"
                'r = openai.responses.create(model="gpt-4o", input=m, text={"format": {"type": "json_object"}})\n'
            ),
        ),
        Example(
            before=(
                "import openai\n"
                "r = openai.chat.completions.create(\n"
                '    model="gpt-4o",\n'
                "    messages=m,\n"
                '    response_format={"type": "json_schema", "json_schema": {"name": "answer", "schema": SCHEMA}},\n'
                ")\n"
            ),
            after=(
                "import openai\n"
                "r = openai.responses.create(\n"
                '    model="gpt-4o",\n'
                "    input=m,\n"
                '    text={"format": {"type": "json_schema", "name": "answer", "schema": SCHEMA, "strict": False}},\n'
                ")\n"
            ),
        ),
        Example(
            before=(
                "import openai\n"
                "r = openai.chat.completions.create(model=\"gpt-4o\", messages=m, response_format=make_format())\n"
            ),
            finding="not a dict literal",
        ),
    ],
)


@RULE.parameter("response_format")
def response_format(name: str, value: cst.BaseExpression, site: CallSite) -> Union[Rewrite, Block]:
    # ``value`` may be an updated copy; questions about the module go to the original node.
    original = site.argument(name).value
    if _is_class(original, site):
        if site.kind in CLASS_FORMAT_KINDS:
            return Rewrite((NewArgument("text_format", value),))
        return Block(f"`response_format={code_of(original)}` passes a class, which only the `parse` and `stream` helpers accept")
    if isinstance(original, cst.Name):
        outcome = _format_in_name(value, original, site)
    else:
        text_format = _text_format(value)
        outcome = text_format if isinstance(text_format, Block) else Rewrite((_text_argument(text_format, value),))
    if isinstance(outcome, Block) and site.kind in CLASS_FORMAT_KINDS and not isinstance(original, cst.Dict):
        shown = one_line(code_of(original), limit=40)
        return Block(f"the tool cannot prove that `{shown}` is a class (for `text_format=`) or a format dict literal (for `text=`)")
    return outcome


def _text_format(node: cst.BaseExpression) -> Union[cst.BaseExpression, Block]:
    """The Responses ``text.format`` for a Chat ``response_format`` dict literal."""
    entries = dict_entries(node)
    shown = f"`{one_line(code_of(node), limit=40)}`"
    if entries is None:
        return Block(f"the format {shown} is not a dict literal the tool can read")
    kind = literal_string(entries["type"].value) if "type" in entries else None
    if kind in PLAIN_FORMATS and set(entries) == {"type"}:
        return node
    if kind == "json_schema" and set(entries) == {"type", "json_schema"}:
        return _flat_json_schema(node, entries)
    return Block(f"the format {shown} has no Responses equivalent the tool can prove")


def _flat_json_schema(node: cst.Dict, entries: Dict[str, cst.DictElement]) -> Union[cst.Dict, Block]:
    """``{"type": "json_schema", "json_schema": {...}}`` -> ``{"type": "json_schema", ...}``."""
    wrapper = entries["json_schema"]
    schema = dict_entries(wrapper.value)
    if schema is None:
        return Block("the format's `json_schema` is not a dict literal the tool can read")
    unknown = sorted(set(schema) - JSON_SCHEMA_KEYS)
    if unknown:
        keys = ", ".join(f"`{key}`" for key in unknown)
        return Block(f"the format's `json_schema` has {keys}, which `text.format` does not take")
    if not JSON_SCHEMA_REQUIRED <= set(schema):
        return Block("the format's `json_schema` has no `schema`, which the Responses API requires")
    added = []
    if "strict" not in schema:
        added.append(cst.DictElement(key=string_like(schema["name"].key, "strict"), value=cst.Name(CHAT_STRICT_DEFAULT)))
    flat = lifted(node, wrapper, added)
    if flat is None:
        return Block("a comment inside the format's `json_schema` would be lost; move it out of the nested dict")
    return flat


def _text_argument(text_format: cst.BaseExpression, style: cst.BaseExpression) -> NewArgument:
    key = string_like(_first_key(style), "format")
    return NewArgument("text", cst.Dict([cst.DictElement(key=key, value=text_format)]))


def _first_key(node: cst.BaseExpression) -> cst.BaseExpression:
    """A string of the original code to copy the quote style from."""
    if isinstance(node, cst.Dict) and node.elements and isinstance(node.elements[0], cst.DictElement):
        return node.elements[0].key
    return node


def _format_in_name(value: cst.BaseExpression, name: cst.Name, site: CallSite) -> Union[Rewrite, Block]:
    """``response_format=NAME``: pass the name on; a json_schema format is rewritten where it is defined."""
    definition = site.analysis.bindings.definition(name)
    if definition is None and _given_plain_formats(name, site):
        return Rewrite((_text_argument(value, value),))
    reaching = site.analysis.bindings.reaching(name)
    if definition is None and len(reaching) == 1 and isinstance(getattr(reaching[0], "node", None), cst.Param):
        return Block(
            f"`{name.value}` is a parameter, and the tool cannot prove that every call gives it `{{\"type\": \"json_object\"}}`"
            f" or `{{\"type\": \"text\"}}` written as a literal (a `json_schema` format is flattened only where it is"
            f" written), or `None` where the call is under `if {name.value}:`"
        )
    if definition is None:
        return Block(f"`{name.value}` does not hold one dict literal the tool can read (it is assigned elsewhere, or is a parameter)")
    text_format = _text_format(definition.value)
    if isinstance(text_format, Block):
        return text_format
    argument = _text_argument(value, definition.value)
    if text_format is definition.value:  # a plain format reads the same in both APIs
        return Rewrite((argument,))
    line = _line_of_other_use(definition.reads, site)
    if line is not None:
        return Block(f"`{name.value}` is also used on line {line} by code the tool does not migrate")
    return Rewrite((argument,), elsewhere=(UseRewrite(target=definition.value, build=_flattened),))


def _given_plain_formats(name: cst.Name, site: CallSite) -> bool:
    """Is ``name`` a parameter that every call, in this module and in the others, gives a format
    that reads the same in both APIs (``{"type": "json_object"}``, ``{"type": "text"}``), or
    ``None`` where the read is under ``if name:``?"""
    analysis = site.analysis
    reaching = analysis.bindings.reaching(name)
    param = getattr(reaching[0], "node", None) if len(reaching) == 1 else None  # a builtin has none
    function = analysis.nodes.function_of(param) if isinstance(param, cst.Param) else None
    callers = analysis.flow.callers(function) if function is not None else None
    if callers is None:
        return False
    here = [analysis.flow.passed(function, call, param) for call in callers]
    elsewhere = [param.default if each == DEFAULT else each for each in analysis.passed_by_other_modules(param)]
    if None in here or not (here or elsewhere):
        return False  # a call whose argument cannot be told, or none at all
    none_allowed = _tested_true(name, analysis)
    return all(_is_plain_format(each) or (none_allowed and _is_none(each)) for each in (*here, *elsewhere))


def _is_none(given: object) -> bool:
    """``None``, written here or described from another module."""
    return given is None or (isinstance(given, cst.BaseExpression) and is_constant(given, "None"))


def _is_plain_format(given: object) -> bool:
    """A format dict, written here or described from another module, that only names its type."""
    if isinstance(given, PassedDict):
        entries = dict(given.entries)
    elif isinstance(given, cst.Dict):
        written = dict_entries(given)
        entries = {key: literal_string(element.value) for key, element in written.items()} if written is not None else {}
    else:
        return False
    return set(entries) == {"type"} and entries["type"] in PLAIN_FORMATS


def _tested_true(name: cst.Name, analysis) -> bool:
    """Does the read ``name`` run only in the body of ``if name:`` reading the same binding?"""
    child, parent = name, analysis.nodes.parents.get(name)
    while parent is not None and not isinstance(parent, (cst.FunctionDef, cst.Lambda)):
        if isinstance(parent, cst.If) and child is parent.body and isinstance(parent.test, cst.Name) and parent.test.value == name.value:
            return analysis.bindings.reaching(parent.test) == analysis.bindings.reaching(name)
        child, parent = parent, analysis.nodes.parents.get(parent)
    return False


def _flattened(definition: cst.CSTNode) -> cst.CSTNode:
    text_format = _text_format(definition)
    assert not isinstance(text_format, Block), "the definition was checked when the call was planned"
    return text_format


def _line_of_other_use(reads: List[cst.CSTNode], site: CallSite) -> Optional[int]:
    """Where a format name is read other than as the ``response_format`` of a call the tool migrates."""
    analysis = site.analysis
    calls = {other.call for other in analysis.call_sites() if other.traced or other.call is site.call}
    for read in reads:
        arg = analysis.nodes.parents.get(read)
        is_format_argument = isinstance(arg, cst.Arg) and arg.keyword is not None and arg.keyword.value == "response_format"
        if not (is_format_argument and analysis.nodes.parents.get(arg) in calls):
            return analysis.nodes.positions[read].start.line
    return None


def _is_class(node: cst.BaseExpression, site: CallSite) -> bool:
    """A class defined in the module, or an imported name spelled like a class."""
    if isinstance(node, cst.Attribute):
        return _spelled_like_class(node.attr.value) and isinstance(node.value, cst.Name) and _is_import(node.value, site)
    if not isinstance(node, cst.Name):
        return False
    bindings = site.analysis.bindings.referents(node)
    if not bindings:
        return False
    if all(isinstance(binding.node, cst.ClassDef) or _declared_a_class(binding.node, site) for binding in bindings):
        return True
    return _spelled_like_class(node.value) and _is_import(node, site)


def _declared_a_class(node: cst.CSTNode, site: CallSite) -> bool:
    """A parameter annotated ``Type[...]`` or ``type[...]`` (``response_format: Type[BaseModel]``),
    with no default: what every call gives it is a class, as the type checker holds them to."""
    if not isinstance(node, cst.Param) or node.annotation is None or node.default is not None:
        return False
    annotation = node.annotation.annotation
    if not isinstance(annotation, cst.Subscript):
        return False
    generic = annotation.value
    if is_name(generic, "type"):
        return not site.analysis.bindings.referents(generic)  # the builtin, not a name of the module
    return bool(site.analysis.imports.imported_as(generic) & {"typing.Type", "typing_extensions.Type"})


def _is_import(name: cst.Name, site: CallSite) -> bool:
    bindings = site.analysis.bindings.referents(name)
    return bool(bindings) and all(isinstance(b.node, (cst.Import, cst.ImportFrom)) for b in bindings)


def _spelled_like_class(name: str) -> bool:
    """``Answer``, ``CalendarEvent``; not ``ANSWER_FORMAT`` (a constant) or ``answer`` (a value)."""
    return name[:1].isupper() and not name.isupper()
