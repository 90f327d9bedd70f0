"""Chat Completions type names rewritten to their Responses counterparts, with the imports:
the new names come from `openai.types.responses`, and the Chat names' imports go once nothing
uses them."""

from typing import Dict, List, Union

import libcst as cst
from libcst.helpers import get_full_name_for_node

from migrator.analysis import CallSite, ModuleAnalysis
from migrator.rule import Block, Import, UseRewrite
from migrator.semantic.flow import ResultUse
from migrator.shapes import STRING_NODES, code_of, one_line

RESPONSES_TYPES = "openai.types.responses"


def isinstance_test(use: ResultUse, site: CallSite, classes: Dict[str, str]) -> Union[UseRewrite, Block, None]:
    """``isinstance(value, T)`` where ``use`` reads the value whole and T names Chat types: T
    names their counterparts in ``classes``, for a value now an instance of those; None when
    ``use`` is no such test."""
    test = site.analysis.nodes.parents.get(use.parent) if isinstance(use.parent, cst.Arg) else None
    if use.path or not site.analysis.flow.calls_builtin(test, "isinstance") or len(test.args) != 2:
        return None
    subject, kind = test.args
    if use.parent is not subject or subject.keyword is not None or kind.keyword is not None or kind.star:
        return None
    references = site.analysis.chat_type_references(kind.value)
    if not references:
        return None
    shown = f"`{one_line(code_of(test))}`"
    unmapped = [name for node, name in references if name not in classes or isinstance(node, STRING_NODES)]
    if unmapped:
        return Block(f"{shown} tests for `{unmapped[0]}`, which has no Responses counterpart the tool maps")
    return renamed(kind.value, references, classes, shown, site.analysis)


def renamed(node: cst.CSTNode, references, counterparts: Dict[str, str], shown: str, analysis: ModuleAnalysis) -> Union[UseRewrite, Block]:
    """``node`` naming the Responses counterparts of the Chat types it references, imported."""
    new_names = {code_of(reference): counterparts[name] for reference, name in references}
    for new_name in sorted(set(new_names.values())):
        if not analysis.imports.can_import(new_name, f"{RESPONSES_TYPES}.{new_name}", node):
            return Block(f"{shown} would need the name `{new_name}`, which this module uses for something else")
    return UseRewrite(
        target=node,
        build=lambda updated: updated.visit(_Rename(new_names)),
        add_imports=tuple(Import(RESPONSES_TYPES, name) for name in sorted(set(new_names.values()))),
        remove_unused_imports=tuple(_imports_of(references, analysis)),
    )


def _imports_of(references, analysis: ModuleAnalysis) -> List[Import]:
    """The ``from ... import`` lines that bind the Chat types the annotation names by bare name."""
    imports = []
    for node, _ in references:
        if not isinstance(node, cst.Name):
            continue  # ``chat.ChatCompletion``: the module import may still be needed
        for binding in analysis.bindings.referents(node):
            statement = binding.node
            if isinstance(statement, cst.ImportFrom) and statement.module is not None and not statement.relative:
                imports.extend(_alias_import(statement, node.value))
    return imports


def _alias_import(statement: cst.ImportFrom, local_name: str) -> List[Import]:
    if isinstance(statement.names, cst.ImportStar):
        return []
    module = get_full_name_for_node(statement.module)
    return [
        Import(module, alias.evaluated_name, alias.evaluated_alias)
        for alias in statement.names
        if (alias.evaluated_alias or alias.evaluated_name) == local_name
    ]


class _Rename(cst.CSTTransformer):
    """Replaces the Chat type names in an annotation, found by how they are spelled."""

    def __init__(self, new_names: Dict[str, str]) -> None:
        self.new_names = new_names

    def visit_Attribute(self, node: cst.Attribute) -> bool:
        return False  # ``x.ChatCompletion`` is renamed whole, never its last part alone

    def on_leave(self, original_node, updated_node):
        if isinstance(updated_node, (cst.Name, cst.Attribute)):
            new_name = self.new_names.get(code_of(updated_node))
            if new_name is not None:
                return cst.Name(new_name, lpar=updated_node.lpar, rpar=updated_node.rpar)
        return updated_node
