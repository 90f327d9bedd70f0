"""
## What it does
Rewrites the type annotations that name Chat Completions types, on values a migrated call
returns or reads, to their Responses counterparts, and keeps the imports right: the new types
are imported from `openai.types.responses`, and the Chat types' imports are removed once
nothing uses them.

| Annotated value | Chat Completions | Responses |
|---|---|---|
| the result (a name holding it, a function returning it) | `ChatCompletion` | `Response` |
| | `ParsedChatCompletion[T]` | `ParsedResponse[T]` |
| | `Stream[ChatCompletionChunk]` (`stream=True`) | `Stream[ResponseStreamEvent]` |
| the name (or `self.` attribute, annotated in a method of its class) passed as `messages=` | `List[ChatCompletionMessageParam]` (or `list[...]`) | `List[ResponseInputItemParam]` |
| the name passed as `response_format=` | `ResponseFormat` | `ResponseFormatTextConfigParam` |
| | `ResponseFormatJSONSchema` | `ResponseFormatTextJSONSchemaConfigParam` |
| the name passed as `tools=` or `functions=` | `ChatCompletionToolParam`, `ChatCompletionFunctionToolParam`, `Function` | `FunctionToolParam` |
| | `ChatCompletionToolUnionParam` | `ToolParam` |

The same names in a test of the result, `isinstance(resp, ChatCompletion)` (or
`ParsedChatCompletion`), become `Response` (`ParsedResponse`): the migrated result is one, as
it was a completion; a test for another Chat type keeps the call as it is.

Wrappers such as `Optional[...]` or `List[...]` are kept. Annotations of other values (the
names passed as other arguments, a tool held in a name of its own) are left as they are.

An annotation in a signature that other code shares keeps the call as it is: a method that may
override another (of a base class in another module, or one a base class here defines with the
Chat types), or a function other modules of the project import and call with the Chat types.
The result's type in a function's return annotation goes with the reads of what it returns in
those modules, when they all migrate with the call (see `chat_completions_create`).
Changed alone, it would give the type checker errors the original did not have.

## Why
After the migration the annotated values are `Response` objects and Responses request shapes:
the old annotations would make the type checker reject correct code, and reading
`.output_text` on a value declared as `ChatCompletion` is an error for it.

## Example
```python
from openai.types.chat import ChatCompletion

def ask(question: str) -> ChatCompletion:
    return client.chat.completions.create(model="gpt-4o-mini", messages=[{"role": "user", "content": question}])
```

## Use instead
```python
from openai.types.responses import Response

def ask(question: str) -> Response:
    return client.responses.create(model="gpt-4o-mini", input=question)
```

## Fix safety
Safe: annotations do not change what the program does (a function's annotations are evaluated
when it is defined, and the new names are imported). The call is reported instead when an
annotation of its values names a Chat type with no counterpart here (`ChatCompletionMessage`,
a single message type, ...), is written as a string, types the `messages` list as something
other than a list (`Sequence[...]`, `Iterable[...]`: `input=` takes a list), or when a new name
(`Response`, ...) already means something else in the module.
"""

from typing import Dict, Optional, Union

import libcst as cst

from migrator.analysis import AnnotationUse, CallSite, ModuleAnalysis
from migrator.model import FixSafety
from migrator.rule import Block, Example, Rule, UseRewrite
from migrator.rules._chat_types import isinstance_test, renamed
from migrator.semantic.flow import ResultUse
from migrator.shapes import STRING_NODES, code_of, one_line, parameters

# For each annotated value (None: the call's result; else the keyword argument that passes the
# name), the Chat types it may name and their Responses counterparts.
COUNTERPARTS: Dict[Optional[str], Dict[str, str]] = {
    None: {
        "ChatCompletion": "Response",
        "ParsedChatCompletion": "ParsedResponse",
        "ChatCompletionChunk": "ResponseStreamEvent",  # in Stream[...]: what `stream=True` returns
    },
    "messages": {"ChatCompletionMessageParam": "ResponseInputItemParam"},
    "response_format": {
        "ResponseFormat": "ResponseFormatTextConfigParam",
        "ResponseFormatJSONSchema": "ResponseFormatTextJSONSchemaConfigParam",
    },
    # Rule `tool_definitions` makes every tool of a migrated call a flat function tool.
    "tools": {
        "ChatCompletionToolParam": "FunctionToolParam",
        "ChatCompletionFunctionToolParam": "FunctionToolParam",
        "ChatCompletionToolUnionParam": "ToolParam",
    },
    "functions": {"Function": "FunctionToolParam"},  # completion_create_params.Function
}
# The classes a migrated call's result is an instance of, tested with ``isinstance``: a parsed
# completion is a completion, as a parsed response is a response.
RESULT_CLASSES = {"ChatCompletion": "Response", "ParsedChatCompletion": "ParsedResponse"}
WHAT = {None: "the result", "messages": "`messages`", "response_format": "`response_format`", "tools": "`tools`", "functions": "`functions`"}
LISTS = frozenset({"typing.List", "builtins.list"})

RULE = Rule(
    title="Chat type annotations and imports",
    safety=FixSafety.SAFE,
    needs=("ChatCompletion", "ResponseFormat"),
    examples=[
        Example(
            before=(
                "from openai import OpenAI\n"
                "from openai.types.chat import ChatCompletion\n"
                "r = OpenAI().chat.completions.create(model=\"gpt-4o\", messages=m)\n"
                "assert isinstance(r, ChatCompletion)\n"
            ),
            after=(
                "from openai import OpenAI\n"
                "from openai.types.responses import Response\n"
                "r = OpenAI().responses.create(model=\"gpt-4o\", input=m)\n"
                "assert isinstance(r, Response)\n"
            ),
        ),
        Example(
            before=(
                "from openai import OpenAI\n"
                "from openai.types.chat import ChatCompletion\n"
                "client = OpenAI()\n"
                "def ask(q: str) -> ChatCompletion:\n"
                '    return client.chat.completions.create(model="gpt-4o", messages=[{"role": "user", "content": q}])\n'
                'print(ask("Hi").choices[0].message.content)\n'
            ),
            after=(
                "from openai import OpenAI\n"
                "from openai.types.responses import Response\n"
                "client = OpenAI()\n"
                "def ask(q: str) -> Response:\n"
                '    return client.responses.create(model="gpt-4o", input=q)\n'
                'print(ask("Hi").output_text)\n'
            ),
        ),
        Example(
            before=(
                "from openai import OpenAI\n"
                "from openai.types.chat import ChatCompletionMessageParam\n"
                "client = OpenAI()\n"
                "def reply(history: Sequence[ChatCompletionMessageParam]) -> str:\n"
                '    r = client.chat.completions.create(model="gpt-4o", messages=history)\n'
                "    return r.choices[0].message.content or ''\n"
            ),
            finding="takes a list",
        ),
    ],
)


@RULE.annotation
def annotation(use: AnnotationUse, site: CallSite) -> Union[UseRewrite, Block, None]:
    if use.argument not in COUNTERPARTS:
        return None  # the rule migrating that argument's value owns its annotation
    analysis = site.analysis
    expression = use.annotation.annotation
    references = analysis.chat_type_references(expression)
    if not references:
        return None
    shown, what = f"`{one_line(code_of(expression))}`", WHAT[use.argument]
    if any(isinstance(node, STRING_NODES) for node, _ in references):
        return Block(f"{what} is annotated as {shown}, a string the tool does not rewrite")
    counterparts = COUNTERPARTS[use.argument]
    unmapped = [name for _, name in references if name not in counterparts]
    if unmapped:
        return Block(f"{what} is annotated with `{unmapped[0]}`, which has no Responses counterpart the tool maps")
    if use.argument == "messages" and not _is_list_of_one(expression, references, analysis):
        return Block(f"`messages` is annotated as {shown}, but `input=` takes a list: annotate it as `List[...]`")
    shared = _shared_signature(use.annotation, analysis)
    if shared is not None:
        return Block(f"{what} is annotated as {shown} in {shared}")
    return renamed(use.annotation, references, counterparts, f"the annotation {shown}", analysis)


@RULE.result_use
def result_tested(use: ResultUse, site: CallSite) -> Union[UseRewrite, Block, None]:
    """``isinstance(resp, ChatCompletion)``: the result is now a ``Response``."""
    return isinstance_test(use, site, RESULT_CLASSES)

# Bases a class may have without inheriting any method a subclass could override with Chat types.
NEUTRAL_BASES = frozenset({"builtins.object", "abc.ABC", "typing.Protocol", "typing.Generic", "typing_extensions.Protocol"})


def _shared_signature(annotation: cst.Annotation, analysis: ModuleAnalysis) -> Optional[str]:
    """Where else the signature ``annotation`` belongs to is written or called, when that is
    code this module's migration leaves with the Chat types: a method it may override (of a
    base class in another module, or of one here that defines it too), or modules importing the
    function. Changing it alone would give the type checker errors the original did not have.
    None when the annotation is not a parameter's or a return's, or nothing shares it."""
    function = analysis.nodes.enclosing(annotation, cst.FunctionDef)
    if function is None or not _in_signature(annotation, function):
        return None
    name = function.name.value
    cls = analysis.nodes.parents.get(function)
    cls = analysis.nodes.enclosing(function, cst.ClassDef) if isinstance(cls, cst.IndentedBlock) else None
    if cls is not None:
        overridden = _overridden(cls, name, analysis, seen=set())
        if overridden is not None:
            return f"a signature of `{cls.name.value}.{name}`, which may override {overridden}: the two would no longer match"
    exported = analysis.flow.exported_name(function)
    shown = analysis.project.where_imported(exported.split(".")[0]) if exported is not None else None
    if shown is None:
        return None
    readers = analysis.project.readers_of(exported) if annotation is function.returns else None
    if readers is not None and readers.blocked is None:
        return None  # what it returns is read there as a Response, migrated with it
    return f"the signature of `{exported}`, which other modules import ({shown}) and call with the Chat types"


def _in_signature(annotation: cst.Annotation, function: cst.FunctionDef) -> bool:
    return annotation is function.returns or any(p.annotation is annotation for p in parameters(function))


def _overridden(cls: cst.ClassDef, name: str, analysis: ModuleAnalysis, seen: set) -> Optional[str]:
    """The method ``name`` of a base of ``cls`` that a method of ``cls`` may override, in words:
    one of a base class in another module, whose methods the tool cannot see, or one a base
    class of this module defines."""
    seen.add(id(cls))
    for base in cls.bases:
        if base.keyword is not None:
            continue  # ``metaclass=...``
        expression = base.value.value if isinstance(base.value, cst.Subscript) else base.value
        if analysis.imports.qualified(expression) & NEUTRAL_BASES:
            continue
        bindings = analysis.bindings.referents(expression) if isinstance(expression, cst.Name) else []
        local = bindings[0].node if len(bindings) == 1 else None
        if not isinstance(local, cst.ClassDef):
            return f"a method of `{code_of(base.value)}`, which another module defines"
        if any(isinstance(statement, cst.FunctionDef) and statement.name.value == name for statement in local.body.body):
            return f"`{local.name.value}.{name}`, whose signature keeps the Chat types"
        if id(local) not in seen:
            found = _overridden(local, name, analysis, seen)
            if found is not None:
                return found
    return None


def _is_list_of_one(expression: cst.BaseExpression, references, analysis: ModuleAnalysis) -> bool:
    """``List[X]`` or ``list[X]``, where X is the only Chat type named."""
    if not (isinstance(expression, cst.Subscript) and analysis.imports.qualified(expression.value) & LISTS):
        return False
    elements = expression.slice
    return (
        len(elements) == 1
        and isinstance(elements[0].slice, cst.Index)
        and [node for node, _ in references] == [elements[0].slice.value]
    )
