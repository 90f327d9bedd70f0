"""What a module's calls give a function of another module, read from Python's own syntax tree.

The project phase asks this of the modules that import a function: for each parameter, what
each call gives it, described as ``ProjectFacts.passed`` holds it (``migrator.model``):
constants as they are; a list a name of the calling function holds as a ``PassedList`` of its
items (``shared`` unless it is new and nothing else holds it); a dict literal with string keys as a ``PassedDict``; anything else
as a ``PassedOther``, a ``"container"`` where it may be one, ``"default"`` where the call leaves
out a parameter that has one. A use of the function that is not a call by the name an import
binds, or a call that unpacks arguments, gives ``"unseen"``: a question about every call then
has no answer.
"""

from __future__ import annotations

import ast
from typing import Callable, Dict, Iterator, List, Optional, Sequence, Set, Tuple

from migrator.model import PassedDict, PassedList, PassedOther

EXPRESSION = PassedOther("expression")
# A client of OpenAI's own server, built where it is passed (``OpenAI()``, a name bound only to that).
OPENAI_CLIENT = PassedOther("openai client")
CONTAINER = PassedOther("container")
DEFAULT = PassedOther("default")  # the call leaves the parameter out: its default holds
UNSEEN = PassedOther("unseen")
CONTAINER_NODES = (ast.List, ast.Tuple, ast.Set, ast.Dict, ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp)
# Annotations naming a container (``List[dict]``, ``Sequence[str]``, ``list | None``...).
CONTAINER_TYPES = frozenset({
    "list", "List", "tuple", "Tuple", "Sequence", "MutableSequence", "Iterable", "Collection", "set", "Set", "dict", "Dict", "Mapping",
})
# Where a value is evaluated again and again in one run of its statement.
REPEATING = (ast.Lambda, ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp)


def parameters_of(function: ast.AST) -> Tuple[List[str], List[str]]:
    """(every parameter, the positional ones in order) of a function definition."""
    arguments = function.args  # type: ignore[attr-defined]
    positional = [arg.arg for arg in (*arguments.posonlyargs, *arguments.args)]
    return [*positional, *(arg.arg for arg in arguments.kwonlyargs)], positional


def _with_defaults(function: ast.AST) -> Set[str]:
    """The parameters of a function definition that have a default."""
    arguments = function.args  # type: ignore[attr-defined]
    positional = [*arguments.posonlyargs, *arguments.args]
    given = positional[len(positional) - len(arguments.defaults) :] if arguments.defaults else []
    keyword = [arg for arg, default in zip(arguments.kwonlyargs, arguments.kw_defaults) if default is not None]
    return {arg.arg for arg in (*given, *keyword)}


# Does a call build a client of OpenAI's own server (as the calling module says)?
ClientTest = Callable[[ast.Call], bool]


def calls_giving(syntax: ast.Module, bound: Set[str], function: ast.AST, builds_client: ClientTest = lambda call: False) -> Iterator[Dict[str, object]]:
    """For each use in ``syntax`` of the names ``bound`` (which import ``function``: ``run``,
    or ``helpers.run`` after ``import helpers``), what it gives each parameter of ``function``."""
    parameters, positional = parameters_of(function)
    parents = _parents(syntax)
    for node in ast.walk(syntax):
        if not (isinstance(node, (ast.Name, ast.Attribute)) and isinstance(node.ctx, ast.Load) and _spelled(node) in bound):
            continue
        call = parents.get(node)
        if not (isinstance(call, ast.Call) and call.func is node):
            yield {parameter: UNSEEN for parameter in parameters}
            continue
        yield _given_by(call, function, parameters, positional, syntax, parents, builds_client)


def _spelled(node: ast.expr) -> Optional[str]:
    """``helpers.run`` for that attribute of a name; the name for a name."""
    if isinstance(node, ast.Name):
        return node.id
    owner = _spelled(node.value) if isinstance(node, ast.Attribute) else None
    return f"{owner}.{node.attr}" if owner is not None else None  # type: ignore[attr-defined]


def method_calls_giving(
    syntax: ast.Module, classes: Set[str], instances: Set[str], function: ast.AST, builds_client: ClientTest = lambda call: False
) -> Iterator[Dict[str, object]]:
    """For each call in ``syntax`` of the method ``function`` on an instance of its class,
    whose names there are ``classes`` (imports of it) and ``instances`` (imports of instances
    its module makes), what it gives each parameter but the first (``self``): made and called
    at once (``LLM().chat(messages)``), or through a name of a function (or the module), or an
    attribute of ``self``, bound to instances only (``self.llm = LLM()``, then
    ``self.llm.chat(messages)``). Any other use of the class (a subclass, a value passed on) or
    of an instance (passed, returned, kept elsewhere) gives each parameter ``UNSEEN``: the
    method may be called where the tool does not look."""
    parameters, positional = parameters_of(function)
    parameters, positional = parameters[1:], positional[1:]
    name = function.name  # type: ignore[attr-defined]
    parents = _parents(syntax)
    unseen = {parameter: UNSEEN for parameter in parameters}
    holders: Set[Tuple[ast.AST, str]] = set()  # (scope, name) and (class, attribute of self) holding instances
    reads: List[ast.expr] = []  # where an instance is read
    for node in ast.walk(syntax):
        if not (isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load)) or _in_annotation(node, parents):
            continue
        if node.id in instances:
            reads.append(node)
            continue
        if node.id not in classes:
            continue
        made = parents.get(node)
        if not (isinstance(made, ast.Call) and made.func is node):
            yield unseen  # subclassed, or handed on
            continue
        holder = _holder(made, parents)
        if holder is None:
            reads.append(made)
        else:
            holders.add(holder)
    for scope, held in holders:
        found = _reads_of_holder(syntax, scope, held, classes, parents)
        if found is None:
            yield unseen  # the name or attribute also holds other values
        else:
            reads.extend(found)
    for read in reads:
        method = parents.get(read)
        call = parents.get(method)
        if isinstance(method, ast.Attribute) and method.value is read and method.attr == name:
            yield _given_by(call, function, parameters, positional, syntax, parents, builds_client) if isinstance(call, ast.Call) and call.func is method else unseen
        elif not isinstance(method, ast.Attribute) or method.value is not read:
            yield unseen  # the instance itself goes elsewhere
        # else another attribute of the instance: its own methods' calls are its module's to see


def _holder(made: ast.Call, parents: Dict[ast.AST, ast.AST]) -> Optional[Tuple[ast.AST, str]]:
    """Where an assignment keeps the instance ``made``: (the function or module, the name) for
    ``llm = LLM()``, (the class, the attribute) for ``self.llm = LLM()``."""
    assign = parents.get(made)
    if not (isinstance(assign, (ast.Assign, ast.AnnAssign)) and assign.value is made):
        return None
    targets = assign.targets if isinstance(assign, ast.Assign) else [assign.target]
    if len(targets) != 1:
        return None
    target = targets[0]
    if isinstance(target, ast.Name):
        return _scope(target, parents), target.id
    if isinstance(target, ast.Attribute) and isinstance(target.value, ast.Name) and target.value.id == "self":
        owner = parents.get(_scope(target, parents))
        return (owner, target.attr) if isinstance(owner, ast.ClassDef) else None
    return None


def _reads_of_holder(syntax: ast.Module, scope: ast.AST, held: str, classes: Set[str], parents: Dict[ast.AST, ast.AST]) -> Optional[List[ast.expr]]:
    """The reads of the name (or the attribute of ``self``) ``held`` in ``scope``; None when
    something there binds it to anything but an instance of one of ``classes``."""
    reads = []
    for node in ast.walk(syntax):
        if isinstance(node, (ast.Global, ast.Nonlocal)) and held in node.names:
            return None
        if isinstance(node, ast.Name) and node.id == held and _reads_scope(node, scope, parents):
            found = node
        elif isinstance(node, ast.Attribute) and node.attr == held and isinstance(node.value, ast.Name) and node.value.id == "self":
            if parents.get(_scope(node, parents)) is not scope:
                continue
            found = node
        else:
            continue
        if isinstance(found.ctx, ast.Load):
            reads.append(found)
            continue
        assign = parents.get(found)
        value = assign.value if isinstance(assign, (ast.Assign, ast.AnnAssign)) else None
        if not (isinstance(value, ast.Call) and isinstance(value.func, ast.Name) and value.func.id in classes):
            return None
    return reads


def _reads_scope(name: ast.Name, scope: ast.AST, parents: Dict[ast.AST, ast.AST]) -> bool:
    """Is ``name`` the name of the function (or module) ``scope``: in it, or, for a module's,
    in functions none of which binds a name of its own so?"""
    own = _scope(name, parents)
    if own is scope:
        return True
    if not isinstance(scope, ast.Module):
        return False
    while not isinstance(own, ast.Module):
        if _binds_itself(own, name.id):
            return False
        own = _scope(own, parents)
    return True


def _binds_itself(function: ast.AST, name: str) -> bool:
    """Does the function bind ``name`` of its own: a parameter, or a name it assigns?"""
    if isinstance(function, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)) and name in parameters_of(function)[0]:
        return True
    return any(isinstance(node, ast.Name) and node.id == name and not isinstance(node.ctx, ast.Load) for node in _own_nodes(function))


def _in_annotation(node: ast.AST, parents: Dict[ast.AST, ast.AST]) -> bool:
    """Is ``node`` part of an annotation (``llm: LLM``, ``-> LLM``), which makes nothing?"""
    child, parent = node, parents.get(node)
    while parent is not None and not isinstance(parent, (ast.stmt, ast.arg)):
        child, parent = parent, parents.get(parent)
    if isinstance(parent, ast.arg):
        return parent.annotation is child
    if isinstance(parent, ast.AnnAssign):
        return parent.annotation is child
    return isinstance(parent, (ast.FunctionDef, ast.AsyncFunctionDef)) and parent.returns is child


def _given_by(
    call: ast.Call, function: ast.AST, parameters: List[str], positional: List[str], syntax: ast.Module, parents: Dict[ast.AST, ast.AST],
    builds_client: ClientTest,
) -> Dict[str, object]:
    """What ``call`` gives each of ``parameters`` of ``function`` (``positional`` in order)."""
    if any(isinstance(arg, ast.Starred) for arg in call.args) or any(keyword.arg is None for keyword in call.keywords):
        return {parameter: UNSEEN for parameter in parameters}
    defaults = _with_defaults(function)
    functions = {node.name: node for node in syntax.body if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef))}
    given: Dict[str, ast.expr] = dict(zip(positional, call.args))
    given.update({keyword.arg: keyword.value for keyword in call.keywords if keyword.arg is not None})
    described = _Describer(_scope(call, parents), functions, builds_client, syntax)
    return {
        parameter: described.argument(given[parameter], call, parents) if parameter in given else DEFAULT if parameter in defaults else UNSEEN
        for parameter in parameters
    }


def described(value: ast.expr, syntax: ast.Module) -> object:
    """``value``, a literal of the module ``syntax``, described as a value passed is."""
    functions = {node.name: node for node in syntax.body if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef))}
    return _Describer(syntax, functions).value(value)


class _Describer:
    """Describes values read in ``scope`` (a function of the calling module, or the module),
    whose top-level functions are ``functions``."""

    def __init__(self, scope: ast.AST, functions: Dict[str, ast.AST], builds_client: ClientTest = lambda call: False, module: Optional[ast.AST] = None) -> None:
        self.scope = scope
        self.functions = functions
        self.builds_client = builds_client
        self.module = module if module is not None else scope

    def argument(self, value: ast.expr, call: ast.Call, parents: Dict[ast.AST, ast.AST]) -> object:
        if isinstance(value, ast.Name):
            found = _list_items(value, call, self.scope, parents)
            if found is not None:
                items, fresh = found
                return PassedList(tuple(self.value(item) for item in items), shared=not fresh)
            returned = self.returned_list(self._only_value(value)) if not isinstance(self.scope, ast.Module) else None
            if returned is not None:  # ``prompt = build_prompt(text)``, then ``ask(prompt)``
                return returned
        returned = self.returned_list(value)
        return returned if returned is not None else self.value(value)

    def _only_value(self, name: ast.Name) -> Optional[ast.expr]:
        """What ``name`` is bound to, when the calling function binds it once and reads it only
        as this argument (nothing is added to the list on the way)."""
        stores = [node for node in _own_nodes(self.scope) if isinstance(node, ast.Name) and node.id == name.id and not isinstance(node.ctx, ast.Load)]
        loads = [node for node in _own_nodes(self.scope) if isinstance(node, ast.Name) and node.id == name.id and isinstance(node.ctx, ast.Load)]
        values = list(_values_bound(name.id, self.scope))
        return values[0] if len(stores) == len(values) == 1 and loads == [name] else None

    def returned_list(self, value: Optional[ast.expr]) -> Optional[PassedList]:
        """What a call of a top-level function of the module gives, when each of its ``return``s
        gives a list literal, or a new list it builds for each call (``messages = [...]``,
        appended to, returned)."""
        function = self.functions.get(value.func.id) if isinstance(value, ast.Call) and isinstance(value.func, ast.Name) else None
        returns = [node for node in _own_nodes(function) if isinstance(node, ast.Return)] if function is not None else []
        if not returns or any(node.value is None for node in returns):
            return None
        inside = _Describer(function, self.functions, self.builds_client, self.module)  # its names are its own
        items: List[object] = []
        for node in returns:
            if isinstance(node.value, ast.List) and not any(isinstance(element, ast.Starred) for element in node.value.elts):
                items += [inside.value(element) for element in node.value.elts]
                continue
            found = _list_items(node.value, node.value, function, _parents(function)) if isinstance(node.value, ast.Name) else None
            if found is None or not found[1]:
                return None  # not a list of its own, new for each call
            items += [inside.value(item) for item in found[0]]
        return PassedList(tuple(items))

    def value(self, value: ast.expr) -> object:
        if isinstance(value, ast.Constant):
            return value.value
        if isinstance(value, ast.List) and not any(isinstance(element, ast.Starred) for element in value.elts):
            return PassedList(tuple(self.value(element) for element in value.elts))
        if isinstance(value, ast.Dict) and all(isinstance(key, ast.Constant) and isinstance(key.value, str) for key in value.keys):
            return PassedDict(tuple((key.value, self.value(item)) for key, item in zip(value.keys, value.values)))  # type: ignore[union-attr]
        if self.is_client(value):
            return OPENAI_CLIENT
        return CONTAINER if self.may_be_container(value) else EXPRESSION

    def is_client(self, value: ast.expr) -> bool:
        """A client of OpenAI's own server: built here, or a name of the calling function (or,
        where it binds none of its own, of the module) bound only to such clients, none of them
        a parameter's, nor rebound through ``global``."""
        if isinstance(value, ast.Call):
            return self.builds_client(value)
        if not isinstance(value, ast.Name):
            return False
        scope = self.scope if _binds_itself(self.scope, value.id) else self.module
        if isinstance(scope, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)) and value.id in parameters_of(scope)[0]:
            return False
        bound = [node for node in _own_nodes(scope) if isinstance(node, ast.Name) and node.id == value.id and not isinstance(node.ctx, ast.Load)]
        values = list(_values_bound(value.id, scope))
        if not (bound and len(values) == len(bound) and all(isinstance(each, ast.Call) and self.builds_client(each) for each in values)):
            return False
        return not any(isinstance(node, (ast.Global, ast.Nonlocal)) and value.id in node.names for node in ast.walk(self.module))

    def may_be_container(self, value: ast.expr) -> bool:
        """A container literal, a name the calling function (or module) binds to one or declares
        one, or the result of a top-level function of the module that returns one."""
        if isinstance(value, CONTAINER_NODES):
            return True
        if isinstance(value, ast.Name):
            if any(_names_a_container(annotation) for annotation in _annotations_of(value.id, self.scope)):
                return True
            return any(isinstance(bound, CONTAINER_NODES) for bound in _values_bound(value.id, self.scope))
        definition = self.functions.get(value.func.id) if isinstance(value, ast.Call) and isinstance(value.func, ast.Name) else None
        if definition is None:
            return False
        if definition.returns is not None and _names_a_container(definition.returns):  # type: ignore[attr-defined]
            return True
        return any(isinstance(node, ast.Return) and isinstance(node.value, CONTAINER_NODES) for node in ast.walk(definition))


def _names_a_container(annotation: ast.expr) -> bool:
    return any(
        (isinstance(node, ast.Name) and node.id in CONTAINER_TYPES) or (isinstance(node, ast.Attribute) and node.attr in CONTAINER_TYPES)
        for node in ast.walk(annotation)
    )


def _annotations_of(name: str, scope: ast.AST) -> Iterator[ast.expr]:
    """The annotations of ``name`` in ``scope``: a parameter's, or an annotated assignment's."""
    if isinstance(scope, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
        arguments = scope.args
        for arg in (*arguments.posonlyargs, *arguments.args, *arguments.kwonlyargs, arguments.vararg, arguments.kwarg):
            if arg is not None and arg.arg == name and arg.annotation is not None:
                yield arg.annotation
    for node in _own_nodes(scope):
        if isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name) and node.target.id == name:
            yield node.annotation


def _values_bound(name: str, scope: ast.AST) -> Iterator[ast.expr]:
    for node in _own_nodes(scope):
        if isinstance(node, ast.Assign) and any(isinstance(target, ast.Name) and target.id == name for target in node.targets):
            yield node.value
        elif isinstance(node, (ast.AnnAssign, ast.AugAssign)) and isinstance(node.target, ast.Name) and node.target.id == name and node.value is not None:
            yield node.value


def _list_items(name: ast.Name, call: ast.Call, scope: ast.AST, parents: Dict[ast.AST, ast.AST]) -> Optional[Tuple[List[ast.expr], bool]]:
    """The items of the lists ``name`` may hold where ``call`` gives it (the list literals it
    is bound to in ``scope``, and what ``name.append(item)`` adds), and whether that list is new
    and nothing else holds it: the name is bound once, in the block that runs the call's
    statement (so each run of the call gets a list of its own), and read nowhere else but by
    ``name.append(item)`` statements. None where it may hold another list (a parameter's, a
    function's, a module's, through ``global`` or ``nonlocal``)."""
    if isinstance(scope, ast.Module):
        return None  # a module's names are read from other modules too
    bindings: List[ast.AST] = []
    appended: List[ast.expr] = []
    shared = False
    for node in ast.walk(scope):
        if isinstance(node, (ast.Global, ast.Nonlocal)) and name.id in node.names:
            return None
        if not (isinstance(node, ast.Name) and node.id == name.id) or node is name:
            continue
        if not isinstance(node.ctx, ast.Load):
            bindings.append(node)
            continue
        method = parents.get(node)
        append = parents.get(method)
        if isinstance(method, ast.Attribute) and method.attr == "append" and isinstance(append, ast.Call) and append.func is method and len(append.args) == 1:
            appended.append(append.args[0])
            shared = shared or bool(append.keywords) or not isinstance(parents.get(append), ast.Expr)
            continue
        shared = True
    if not bindings or any(isinstance(argument, ast.arg) and argument.arg == name.id for argument in ast.walk(scope)):
        return None  # a parameter: its caller's list
    assignments = [parents.get(binding) for binding in bindings]
    for binding, assignment in zip(bindings, assignments):
        single = isinstance(assignment, ast.AnnAssign) or (isinstance(assignment, ast.Assign) and len(assignment.targets) == 1 and assignment.targets[0] is binding)
        if not (single and isinstance(assignment.value, ast.List)) or any(isinstance(each, ast.Starred) for each in assignment.value.elts):
            return None
    statement = _statement_of(call, parents)
    block = _body_of(statement, parents) if statement is not None else None
    fresh = not shared and len(assignments) == 1 and block is not None and block is _body_of(assignments[0], parents)
    return [*(item for each in assignments for item in each.value.elts), *appended], fresh


def _statement_of(node: ast.AST, parents: Dict[ast.AST, ast.AST]) -> Optional[ast.stmt]:
    """The statement that runs ``node`` once each time it runs; None when something between
    them runs it again and again (a lambda, a comprehension)."""
    while not isinstance(node, ast.stmt):
        node = parents[node]
        if isinstance(node, REPEATING):
            return None
    return node


def _body_of(statement: ast.AST, parents: Dict[ast.AST, ast.AST]) -> Optional[List[ast.stmt]]:
    """The list of statements that holds ``statement`` (a body, an ``else``...)."""
    parent = parents.get(statement)
    for field in ("body", "orelse", "finalbody", "handlers"):
        block = getattr(parent, field, None)
        if isinstance(block, list) and any(each is statement for each in block):
            return block
    return None


def _scope(node: ast.AST, parents: Dict[ast.AST, ast.AST]) -> ast.AST:
    """The function (or the module) whose names ``node`` reads."""
    node = parents[node]
    while not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.Module)):
        node = parents[node]
    return node


def _own_nodes(scope: ast.AST) -> Iterator[ast.AST]:
    """The nodes of ``scope`` outside the functions and classes it defines."""
    pending = list(ast.iter_child_nodes(scope))
    while pending:
        node = pending.pop()
        yield node
        if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)):
            pending.extend(ast.iter_child_nodes(node))


def _parents(syntax: ast.AST) -> Dict[ast.AST, ast.AST]:
    parents: Dict[ast.AST, ast.AST] = {}
    for node in ast.walk(syntax):
        for child in ast.iter_child_nodes(node):
            parents[child] = node
    return parents


def merged(found: Sequence[Dict[str, object]], parameters: Sequence[str]) -> Iterator[Tuple[str, Tuple[object, ...]]]:
    """(parameter, what the calls give it, each description once), for the parameters given anything."""
    for parameter in sorted(parameters):
        values = [given[parameter] for given in found if parameter in given]
        if values:
            yield parameter, tuple(dict.fromkeys(values))
