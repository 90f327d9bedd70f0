"""Tool lists, written inline or held in names: checked entry by entry, and rewritten where
they are defined when every read of the definition is a call the tool migrates.

A list held in a name (at module level, in a function, as a class attribute) may be shared by
several calls, and its entries may be names of their own (``TOOLS = [WEATHER, TIME]``): the
rewrites of all these definitions are shared by the calls that read them, which then migrate
together or not at all.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, List, Optional, Set, Tuple, Union

import libcst as cst

from migrator.analysis import CallSite, ModuleAnalysis
from migrator.semantic.bindings import Definition
from migrator.rules._built_lists import returned_list
from migrator.rules._function_calling import flat_function, flat_legacy_function, flat_tool
from migrator.rule import Block, Import, UseRewrite
from migrator.shapes import code_of, dict_entries, literal_string, one_line

CHAT_HELPER = "pydantic_function_tool"
RESPONSES_HELPER = "pydantic_responses_function_tool"
HELPER_NAMES = frozenset({f"openai.{CHAT_HELPER}", f"openai.lib.{CHAT_HELPER}", f"openai.lib._tools.{CHAT_HELPER}"})


@dataclass(frozen=True)
class Unseen(Block):
    """A tool list the tool cannot read where it is written (a parameter, a list another module
    defines, one other code also reads): rule ``tool_definitions`` converts it where it is sent."""


@dataclass(frozen=True)
class ToolList:
    """A Chat argument that lists function definitions: ``tools=`` or the legacy ``functions=``."""

    keyword: str
    flatten: Callable[[cst.BaseExpression], Union[cst.Dict, Block]]  # one definition, made flat
    helpers: bool  # entries may be ``openai.pydantic_function_tool(Model)``


TOOLS = ToolList("tools", flat_tool, helpers=True)
FUNCTIONS = ToolList("functions", flat_legacy_function, helpers=False)


def flat_tool_list(
    kind: ToolList, value: cst.BaseExpression, site: CallSite
) -> Union[Tuple[cst.BaseExpression, Tuple[UseRewrite, ...]], Block]:
    """The Responses ``tools=`` value for ``value`` (maybe an updated copy of the argument), and
    the rewrites of definitions it reads: a list held in a name is rewritten where it is
    defined, as are the tools held in names and the Pydantic helper calls."""
    original = site.argument(kind.keyword).value  # the module is asked about original nodes only
    if isinstance(original, cst.List):
        elsewhere = _entries_elsewhere(kind, original, site)
        if isinstance(elsewhere, Block):
            return elsewhere
        assert isinstance(value, cst.List)
        return _flat_list(kind, value), elsewhere
    if isinstance(original, cst.Call):
        unseen = Unseen(f"`{kind.keyword}={_code(original)}` is built by code the tool cannot see into")
        return _returned_tools(kind, original, value, site, unseen)
    if not isinstance(original, (cst.Name, cst.Attribute)):
        return Unseen(f"`{kind.keyword}={_code(original)}` is built by code the tool cannot see into")
    definition = _read_only_here(kind, original, site)
    if isinstance(definition, Block):
        return Unseen(definition.reason, rule=definition.rule)
    unseen = Unseen(f"`{_code(original)}` holds `{_code(definition.value)}`, which the tool cannot see into")
    if isinstance(definition.value, cst.Call):
        return _returned_tools(kind, definition.value, value, site, unseen)
    passed = _passed_lists(definition.value, site) if isinstance(definition.value, cst.Name) else None
    if passed is not None:
        return _rewritten_where_written(kind, passed, value, site)
    if not isinstance(definition.value, cst.List):
        return unseen
    return _rewritten_where_written(kind, (definition.value,), value, site)


def _passed_lists(name: cst.Name, site: CallSite) -> Optional[Tuple[cst.List, ...]]:
    """``self.tools = tools`` in ``__init__(self, tools)``: the list literals every call of the
    function (every construction of the class) passes, when the parameter is read there only;
    None otherwise."""
    analysis = site.analysis
    bindings = analysis.bindings.referents(name)
    if len(bindings) != 1 or not isinstance(bindings[0].node, cst.Param):
        return None
    annotation = bindings[0].node.annotation
    if annotation is not None and analysis.chat_type_references(annotation.annotation):
        return None  # typed with Chat's tool types, which the flat tools would not match
    if analysis.bindings.reads_of(bindings[0]) != [name]:
        return None  # read elsewhere too: that code would see the flat tools
    passed = analysis.passed_by_every_call(bindings[0].node)
    if passed is None or not all(isinstance(each, cst.List) for each in passed):
        return None
    cls = analysis.nodes.enclosing(bindings[0].node, cst.ClassDef)
    holders = analysis.flow.instance_names(cls) if cls is not None else []
    if holders is None or any(analysis.project.importers_of(holder) for holder in holders):
        return None  # an instance other code reaches may have its tools read or changed there
    return tuple(passed)  # type: ignore[arg-type]


def _returned_tools(
    kind: ToolList, call: cst.Call, value: cst.BaseExpression, site: CallSite, unseen: Block
) -> Union[Tuple[cst.BaseExpression, Tuple[UseRewrite, ...]], Block]:
    """``tools=get_tools()`` (maybe through a name): the lists the function returns are
    rewritten where they are written, when every call of it gives the tools of a migrated call;
    ``unseen`` when the call is not one of a function returning list literals."""
    returned = returned_list(call, site.analysis)
    if returned is None:
        return unseen
    line = _line_of_other_use(kind, list(returned.reads), site)
    if line is not None:
        return Unseen(f"`{returned.source}` is also called on line {line} by code the tool does not migrate")
    return _rewritten_where_written(kind, returned.literals, value, site)


def _rewritten_where_written(
    kind: ToolList, lists: Tuple[cst.List, ...], value: cst.BaseExpression, site: CallSite
) -> Union[Tuple[cst.BaseExpression, Tuple[UseRewrite, ...]], Block]:
    """``value`` unchanged, and the rewrites of the list literals it reads, checked entry by entry."""
    rewrites: List[UseRewrite] = []
    for tools in lists:
        elsewhere = _entries_elsewhere(kind, tools, site)
        if isinstance(elsewhere, Block):
            return elsewhere
        rewrites.extend((UseRewrite(target=tools, build=lambda node: _flat_list(kind, node)), *elsewhere))
    return value, tuple(rewrites)


def _flat_list(kind: ToolList, tools: cst.CSTNode) -> cst.List:
    """The list with its dict literals flat; names and helper calls change where they are."""
    assert isinstance(tools, cst.List)
    elements = []
    for element in tools.elements:
        held = function_held_in_a_name(element.value) if kind is TOOLS else None
        if held is not None:
            element = element.with_changes(value=held)
        elif isinstance(element.value, cst.Dict):
            element = element.with_changes(value=_checked(kind.flatten(element.value)))
        elements.append(element)
    return tools.with_changes(elements=elements)


def function_held_in_a_name(entry: cst.BaseExpression) -> Optional[cst.Name]:
    """``price_function`` for the tool ``{"type": "function", "function": price_function}``."""
    entries = dict_entries(entry)
    if entries is None or set(entries) != {"type", "function"} or literal_string(entries["type"].value) != "function":
        return None
    function = entries["function"].value
    return function if isinstance(function, cst.Name) else None


def _checked(flat: Union[cst.Dict, Block]) -> cst.Dict:
    assert not isinstance(flat, Block), "the definitions were checked when the call was planned"
    return flat


def _entries_elsewhere(kind: ToolList, tools: cst.List, site: CallSite) -> Union[Tuple[UseRewrite, ...], Block]:
    """Check every entry of a list literal; the rewrites its entries need outside the list."""
    rewrites: List[UseRewrite] = []
    for element in tools.elements:
        if isinstance(element, cst.StarredElement):
            return Block(f"the `{kind.keyword}` list unpacks `{_code(element.value)}`, which the tool cannot see into")
        outcome = _entry_elsewhere(kind, element.value, site)
        if isinstance(outcome, Block):
            return outcome
        rewrites.extend(outcome)
    return tuple(rewrites)


def _entry_elsewhere(kind: ToolList, entry: cst.BaseExpression, site: CallSite) -> Union[Tuple[UseRewrite, ...], Block]:
    """What one entry needs: nothing (a dict literal, made flat with its list), the rename of a
    Pydantic helper, or the rewrite of the dict literal a name holds."""
    held = function_held_in_a_name(entry) if kind is TOOLS else None
    if held is not None:
        # ``{"type": "function", "function": price_function}``: the definition of the function
        # becomes the flat tool (as a legacy function is), and the entry its name.
        definition = _read_only_here(kind, held, site)
        if isinstance(definition, Block):
            return definition
        flat = flat_function(definition.value)
        if isinstance(flat, Block):
            return flat
        return (UseRewrite(target=definition.value, build=lambda node: _checked(flat_function(node))),)  # type: ignore[arg-type]
    if isinstance(entry, cst.Dict):
        flat = kind.flatten(entry)
        return flat if isinstance(flat, Block) else ()
    helper = _helper_call(entry, site) if kind.helpers else None
    if helper is not None:
        return (_helper_rename(helper.func),)
    if not isinstance(entry, (cst.Name, cst.Attribute)):
        return Block(f"the `{kind.keyword}` entry `{_code(entry)}` is built by code the tool cannot see into")
    definition = _read_only_here(kind, entry, site)
    if isinstance(definition, Block):
        return definition
    helper = _helper_call(definition.value, site) if kind.helpers else None
    if helper is not None:
        return (_helper_rename(helper.func),)
    flat = kind.flatten(definition.value)
    if isinstance(flat, Block):
        return flat
    return (UseRewrite(target=definition.value, build=lambda node: _flat_entry(kind, node)),)


def _flat_entry(kind: ToolList, entry: cst.CSTNode) -> cst.Dict:
    assert isinstance(entry, cst.Dict)
    return _checked(kind.flatten(entry))


def _helper_call(node: cst.BaseExpression, site: CallSite) -> Optional[cst.Call]:
    """``node`` if it calls ``openai.pydantic_function_tool``."""
    if isinstance(node, cst.Call) and site.analysis.imports.imported_as(node.func) & HELPER_NAMES:
        return node
    return None


def _helper_rename(func: cst.BaseExpression) -> UseRewrite:
    """``openai.pydantic_function_tool`` -> ``openai.pydantic_responses_function_tool``."""
    if isinstance(func, cst.Attribute):
        return UseRewrite(target=func, build=lambda node: node.with_changes(attr=cst.Name(RESPONSES_HELPER)))
    return UseRewrite(
        target=func,
        build=lambda node: cst.Name(RESPONSES_HELPER),
        add_imports=(Import("openai", RESPONSES_HELPER),),
        remove_unused_imports=(Import("openai", CHAT_HELPER),),
    )


def _definition(node: cst.BaseExpression, site: CallSite) -> Union[Definition, Block]:
    """The literal a name (or a class attribute) holds, and every read of it."""
    definition = None
    if isinstance(node, cst.Name):
        definition = site.analysis.bindings.definition(node)
    elif isinstance(node, cst.Attribute):
        definition = site.analysis.bindings.class_attribute(node)
    if definition is None:
        return Block(f"`{_code(node)}` {_why_unknown(node, site.analysis)}, so the tool cannot see what it holds")
    return definition


def _why_unknown(node: cst.BaseExpression, analysis: ModuleAnalysis) -> str:
    bindings = analysis.bindings.referents(node) if isinstance(node, cst.Name) else []
    if any(isinstance(binding.node, (cst.Import, cst.ImportFrom)) for binding in bindings):
        return "is imported from another module"
    if any(isinstance(binding.node, cst.Param) for binding in bindings):
        return "is a parameter"
    if len(bindings) > 1:
        return "is assigned more than once"
    return "is not bound once to a literal in this module"


def _read_only_here(kind: ToolList, name: cst.BaseExpression, site: CallSite) -> Union[Definition, Block]:
    """The definition of ``name``, when nothing the tool does not migrate reads it too."""
    definition = _definition(name, site)
    if isinstance(definition, Block):
        return definition
    line = _line_of_other_use(kind, definition.reads, site)
    if line is not None:
        return Block(f"`{_code(name)}` is also used on line {line} by code the tool does not migrate")
    analysis = site.analysis
    if isinstance(name, cst.Name) and analysis.nodes.enclosing(definition.statement, (cst.FunctionDef, cst.ClassDef)) is None:
        importers = analysis.project.where_imported(name.value)
        if importers is not None:
            return Block(f"`{name.value}` is imported by {importers}, where code may read or change it in the Chat shape")
    return definition


def _line_of_other_use(kind: ToolList, reads: List[cst.CSTNode], site: CallSite) -> Optional[int]:
    """Where a list or an entry is read other than by the ``kind`` argument of a call the tool migrates."""
    analysis = site.analysis
    calls = {other.call for other in analysis.call_sites() if other.traced or other.call is site.call}
    for read in reads:
        if not _feeds_migrated_calls(kind, read, site, calls, set()):
            return analysis.nodes.positions[read].start.line
    return None


def _feeds_migrated_calls(kind: ToolList, read: cst.CSTNode, site: CallSite, calls: Set[cst.Call], seen: Set[int]) -> bool:
    """Is ``read`` the ``kind`` argument of one of ``calls``, or an entry of a list that is one
    (inline, or held in a name read only that way), or the value of a name read only that way?"""
    analysis = site.analysis
    parent = analysis.nodes.parents.get(read)
    if isinstance(parent, cst.Arg):
        return parent.keyword is not None and parent.keyword.value == kind.keyword and analysis.nodes.parents.get(parent) in calls
    holder: Optional[cst.CSTNode] = parent  # ``tools = get_tools()``: the name's reads are what it feeds
    if isinstance(parent, cst.DictElement) and kind is TOOLS:
        tool = analysis.nodes.parents.get(parent)  # ``{"type": "function", "function": read}``
        element = analysis.nodes.parents.get(tool)
        return (
            isinstance(tool, cst.Dict)
            and function_held_in_a_name(tool) is read
            and isinstance(element, cst.Element)
            and _feeds_migrated_calls(kind, tool, site, calls, seen)
        )
    if isinstance(parent, cst.Element):
        entries = analysis.nodes.parents.get(parent)
        holder = analysis.nodes.parents.get(entries)
        if isinstance(holder, cst.Arg):
            return _feeds_migrated_calls(kind, entries, site, calls, seen)
    elif not (isinstance(parent, (cst.Assign, cst.AnnAssign)) and parent.value is read):
        return False
    target = _assigned_name(holder)
    if target is None or id(target) in seen or isinstance(analysis.nodes.enclosing(holder, (cst.FunctionDef, cst.ClassDef)), cst.ClassDef):
        return False  # a class attribute is also read as ``self.NAME``: not followed from here
    seen.add(id(target))
    definition = analysis.bindings.definition_at(target)
    return definition is not None and all(_feeds_migrated_calls(kind, r, site, calls, seen) for r in definition.reads)


def _assigned_name(statement: Optional[cst.CSTNode]) -> Optional[cst.Name]:
    if isinstance(statement, cst.Assign) and len(statement.targets) == 1:
        target = statement.targets[0].target
    elif isinstance(statement, cst.AnnAssign):
        target = statement.target
    else:
        return None
    return target if isinstance(target, cst.Name) else None


def _code(node: cst.CSTNode) -> str:
    return one_line(code_of(node), limit=40)
