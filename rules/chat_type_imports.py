"""
## What it does
Reports the Chat Completions types a module still imports or annotates with once the
migration is done: each name imported from `openai.types.chat` (or the `chat` types module
itself), and each annotation naming one (`ChatCompletion`, `ChatCompletionMessageParam`,
`chat.ChatCompletionChunk`, ...). What `apply` rewrites is not reported: the annotations of
migrated values (rule `chat_type_annotations`) and the imports nothing else uses.

## Why
A Chat type left in the code marks code that still speaks Chat Completions: a helper typed
`def render(c: ChatCompletion)` will be handed a `Response` once its caller is migrated, and
the type checker (or the next reader) is misled. In a migrated code base these imports should
be gone.

## Example
```python
from openai.types.chat import ChatCompletion

def render(completion: ChatCompletion) -> str:
    return completion.choices[0].message.content or ""
```

## Use instead
Migrate the code that produces the value, and type it with the Responses type:

```python
from openai.types.responses import Response

def render(response: Response) -> str:
    return response.output_text
```

## Fix safety
Manual: the tool only reports; `chat_type_annotations` rewrites the annotations of the values
migrated calls produce or read. Names are recognised by what they are imported as, so strings,
comments and other libraries' `ChatCompletion` never match.
"""

from typing import List, Tuple

import libcst as cst
from libcst.helpers import get_full_name_for_node

from migrator.analysis import CHAT_TYPES
from migrator.model import FixSafety
from migrator.rule import Example, Report, Rule
from migrator.shapes import one_line

CHAT_TYPES_PARENT, _, CHAT_TYPES_NAME = CHAT_TYPES.rpartition(".")

RULE = Rule(
    title="Chat types left in imports and annotations",
    safety=FixSafety.MANUAL,
    # How the types are spelt: `openai.types.chat...`, or `types.chat...` after `from openai import types`.
    needs=("openai.types", "types.chat"),
    needs_imports=("openai.types.chat", "openai.types.shared", "openai.types.shared_params"),
    examples=[
        Example(
            before=(
                "from openai.types.chat import ChatCompletion\n"
                "def render(completion: ChatCompletion) -> str:\n"
                '    return completion.choices[0].message.content or ""\n'
            ),
            finding="is annotated with the Chat Completions type `ChatCompletion`",
        ),
        Example(
            before="from openai.types.chat import ChatCompletionMessageParam as Message\n",
            finding="imports `openai.types.chat.ChatCompletionMessageParam` as `Message`",
        ),
    ],
)


@RULE.module
def chat_types(analysis) -> List[Report]:
    imported = _imports(analysis)
    reports = [_import_report(alias, module, analysis) for alias, module in imported]
    for annotation in analysis.nodes.nodes_of(cst.Annotation):
        assert isinstance(annotation, cst.Annotation)
        names = [name for _, name in analysis.chat_type_references(annotation.annotation)]
        if names:
            reports.append(_annotation_report(annotation, names, analysis))
    return reports


def _imports(analysis) -> List[Tuple[cst.ImportAlias, str]]:
    """Each imported name that is a Chat type or the Chat types module, with the module it comes from."""
    found = []
    for node in analysis.nodes.nodes_of(cst.Import, cst.ImportFrom):
        if isinstance(node, cst.ImportFrom):
            if node.relative or node.module is None or isinstance(node.names, cst.ImportStar):
                continue
            module_name = get_full_name_for_node(node.module) or ""
            for alias in node.names:
                if _is_chat(module_name) or (module_name == CHAT_TYPES_PARENT and alias.evaluated_name == CHAT_TYPES_NAME):
                    found.append((alias, module_name))
        else:
            assert isinstance(node, cst.Import)
            found.extend((alias, "") for alias in node.names if _is_chat(alias.evaluated_name))
    return found


def _is_chat(module_name: str) -> bool:
    return module_name == CHAT_TYPES or module_name.startswith(CHAT_TYPES + ".")


def _import_report(alias: cst.ImportAlias, module: str, analysis) -> Report:
    name = f"{module}.{alias.evaluated_name}" if module else alias.evaluated_name
    renamed = f" as `{alias.evaluated_alias}`" if alias.evaluated_alias else ""
    message = (
        f"imports `{name}`{renamed}, from the Chat Completions types: code using it still reads Chat"
        " Completions shapes; migrate it and use the Responses types (`openai.types.responses`)"
    )
    return Report(alias, message, resolved_by=lambda: _reads_of(alias, analysis))


def _reads_of(alias: cst.ImportAlias, analysis) -> List[cst.CSTNode]:
    """Every read of the name the import binds (when none is left, `apply` removed the import)."""
    bound = alias.evaluated_alias or alias.evaluated_name.split(".")[0]
    statement = analysis.nodes.parents[alias]
    scope = analysis.bindings.scopes.get(statement)
    if scope is None:
        return []
    return [
        access.node
        for assignment in scope.assignments[bound]
        if getattr(assignment, "node", None) is statement
        for access in assignment.references
    ]


def _annotation_report(annotation: cst.Annotation, names: List[str], analysis) -> Report:
    code = one_line(analysis.module.code_for_node(annotation.annotation))
    types = ", ".join(f"`{name}`" for name in dict.fromkeys(names))
    plural = "types" if len(set(names)) > 1 else "type"
    message = (
        f"`{code}`: the value is annotated with the Chat Completions {plural} {types}; once what produces it is"
        " migrated it holds a Responses value: annotate it with the Responses type"
    )
    return Report(annotation, message, resolved_by=(annotation,))
