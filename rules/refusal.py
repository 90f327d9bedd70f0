"""
## What it does
Rewrites reads of the model's refusal, `.choices[0].message.refusal`, into a call of a small
helper that reads the refusal part of the response's output message. The helper is added once
to the module, after its imports:

```python
def _refusal_of(response: Response) -> Optional[str]:
    \"\"\"The model's refusal, or None: what Chat Completions returned as `message.refusal`.\"\"\"
    for item in response.output:
        if item.type == "message":
            for part in item.content:
                if part.type == "refusal":
                    return part.refusal
    return None
```

## Why
A `Response` has no `choices`. When the model declines, its output message holds a content
part `{"type": "refusal", "refusal": "..."}` instead of output text.

## Example
```python
if completion.choices[0].message.refusal:
    print("Refused:", completion.choices[0].message.refusal)
```

## Use instead
```python
if refusal := _refusal_of(completion):
    print("Refused:", refusal)
```
An `if` that tests the refusal (as a truth value or with `is not None`) and reads it again in
its body binds it to `refusal`, which the body reads: mypy narrows the name to `str` there, as
it narrowed the attribute, where a second call of the helper would be `Optional[str]` again
(`return message.refusal` in a function returning `str`). Where the module already uses the
name `refusal`, or the body rebinds a name the read goes through, the body calls the helper
again.

## Fix safety
Safe: the helper returns the text Chat Completions returned as `message.refusal`, and `None`
when the model did not refuse; it type-checks as `Optional[str]` on a `Response` and on a
`ParsedResponse`. (`output_text` skips refusal parts: it is `""` for a refused answer.) Where
the module already uses the name `Response` for something else (a web framework's), the helper
imports it as `OpenAIResponse`; the call is reported instead when the module uses both names,
`_refusal_of` or `Optional` for something else.
"""

from typing import Optional, Set, Union

import libcst as cst

from migrator.analysis import CallSite, ModuleAnalysis
from migrator.semantic.flow import ResultUse
from migrator.model import FixSafety
from migrator.rule import Block, Example, Import, Rule, UseRewrite
from migrator.shapes import is_name, walk

REFUSAL = ("choices", 0, "message", "refusal")
# The name an `if` testing the refusal binds it to, for its body to read.
NAME = "refusal"
HELPER_NAME = "_refusal_of"
HELPER = '''\
def _refusal_of(response: Response) -> Optional[str]:
    """The model's refusal, or None: what Chat Completions returned as `message.refusal`."""
    for item in response.output:
        if item.type == "message":
            for part in item.content:
                if part.type == "refusal":
                    return part.refusal
    return None
'''
OPTIONAL_IMPORT = Import("typing", "Optional")
# What the helper's annotation calls a Response: its own name, or, where the module already uses
# that for something else (a web framework's `Response`), an alias.
RESPONSE_NAMES = ("Response", "OpenAIResponse")

RULE = Rule(
    title="Refusals",
    safety=FixSafety.SAFE,
    needs=("refusal",),
    examples=[
        Example(
            before=(
                "import openai\n"
                'r = openai.chat.completions.create(model="gpt-4o", messages=m)\n'
                "print(r.choices[0].message.refusal)\n"
            ),
            after=(
                "from typing import Optional\n"
                "\n"
                "import openai\n"
                "from openai.types.responses import Response\n"
                "\n"
                "\n"
                f"{HELPER}"
                "\n"
                "\n"
                'r = openai.responses.create(model="gpt-4o", input=m)\n'
                "print(_refusal_of(r))\n"
            ),
        ),
        Example(
            before=(
                "import openai\n"
                "from flask import Response\n"
                'r = openai.chat.completions.create(model="gpt-4o", messages=m)\n'
                "print(r.choices[0].message.refusal)\n"
            ),
            after=(
                "from typing import Optional\n"
                "\n"
                "import openai\n"
                "from flask import Response\n"
                "from openai.types.responses import Response as OpenAIResponse\n"
                "\n"
                "\n"
                f"{HELPER.replace('response: Response', 'response: OpenAIResponse')}"
                "\n"
                "\n"
                'r = openai.responses.create(model="gpt-4o", input=m)\n'
                "print(_refusal_of(r))\n"
            ),
        ),
    ],
)


@RULE.result_use
def refusal(use: ResultUse, site: CallSite) -> Union[UseRewrite, Block, None]:
    if not use.startswith(*REFUSAL):
        return None
    analysis = site.analysis
    response = next((name for name in RESPONSE_NAMES if analysis.imports.can_import(name, "openai.types.responses.Response", use.base)), None)
    if response is None:
        return Block(f"the refusal helper needs the name `{RESPONSE_NAMES[0]}` or `{RESPONSE_NAMES[1]}`, and this module uses both for something else")
    helper = HELPER.replace("response: Response", f"response: {response}")
    taken = analysis.helper_conflict(use.base, HELPER_NAME, helper, (OPTIONAL_IMPORT,))
    if taken is not None:
        return Block(f"the refusal helper needs the name `{taken}`, which this module uses for something else")
    imports = (Import("openai.types.responses", "Response", alias=None if response == "Response" else response), OPTIONAL_IMPORT)
    read = use.node_at(len(REFUSAL))
    test = _narrowing_test(site, read)
    if test is not None and _reads_again(site, test):
        return UseRewrite(read, lambda _: cst.Name(NAME))  # the name the test bound
    rewrite = use.replace(len(REFUSAL), f"{HELPER_NAME}({{base}})")
    if _is_narrowing_test(site, read) and _reads_again(site, read):
        build = rewrite.build
        rewrite = UseRewrite(read, lambda updated: cst.NamedExpr(cst.Name(NAME), build(updated), lpar=_parens(site, read), rpar=_parens(site, read, ")")))
    return UseRewrite(rewrite.target, rewrite.build, add_imports=imports, add_definitions=(helper,))


def _is_narrowing_test(site: CallSite, read: cst.CSTNode) -> bool:
    """Is ``read`` what an ``if`` (or ``elif``) tests, as a truth value or against ``None``?"""
    parent = site.analysis.nodes.parents.get(read)
    if isinstance(parent, cst.If):
        return parent.test is read
    if isinstance(parent, cst.Comparison) and parent.left is read and len(parent.comparisons) == 1:
        (comparison,) = parent.comparisons
        holder = site.analysis.nodes.parents.get(parent)
        return (
            isinstance(comparison.operator, cst.IsNot) and is_name(comparison.comparator, "None")
            and isinstance(holder, cst.If) and holder.test is parent
        )
    return False


def _narrowing_test(site: CallSite, read: cst.CSTNode) -> Optional[cst.CSTNode]:
    """The test, reading the same refusal as ``read``, of an ``if`` whose body holds ``read``."""
    nodes = site.analysis.nodes
    code = site.analysis.module.code_for_node
    child, parent = read, nodes.parents.get(read)
    while parent is not None and not isinstance(parent, (cst.FunctionDef, cst.Lambda, cst.ClassDef)):
        if isinstance(parent, cst.If) and child is parent.body:
            test = parent.test.left if isinstance(parent.test, cst.Comparison) else parent.test
            if _is_narrowing_test(site, test) and code(test) == code(read):
                return test
        child, parent = parent, nodes.parents.get(parent)
    return None


def _reads_again(site: CallSite, test: cst.CSTNode) -> bool:
    """Does the body of the ``if`` testing ``test`` read the same refusal again, with nothing in
    it rebinding the names the read goes through, and is the name for it free in the module?
    Then the test binds the refusal to a name the body reads: mypy narrows the name, as it did
    the attribute, where a second call of the helper would be ``Optional[str]`` again."""
    analysis = site.analysis
    body = analysis.nodes.enclosing(test, cst.If).body
    code = analysis.module.code_for_node(test)
    names = {node.value for node in walk(test) if isinstance(node, cst.Name)}
    reads = any(isinstance(node, cst.Attribute) and analysis.module.code_for_node(node) == code for node in walk(body))
    return reads and not _rebinds(body, names) and not _name_used(analysis)


def _rebinds(body: cst.CSTNode, names: Set[str]) -> bool:
    for node in walk(body):
        if isinstance(node, cst.WithItem):
            target = node.asname.name if node.asname is not None else None
        elif isinstance(node, (cst.AssignTarget, cst.AugAssign, cst.AnnAssign, cst.NamedExpr, cst.For, cst.Del)):
            target = node.target
        else:
            continue
        if target is not None and any(isinstance(part, cst.Name) and part.value in names for part in walk(target)):
            return True
    return False


def _name_used(analysis: ModuleAnalysis) -> bool:
    """Is ``refusal`` a name anywhere in the module (not an attribute or a keyword)?"""
    parents = analysis.nodes.parents
    for node in analysis.nodes.nodes_of(cst.Name):
        if node.value == NAME:
            parent = parents.get(node)
            if not (isinstance(parent, cst.Attribute) and parent.attr is node) and not (isinstance(parent, cst.Arg) and parent.keyword is node):
                return True
    return False


def _parens(site: CallSite, read: cst.CSTNode, side: str = "("):
    """A walrus needs parentheses on the left of ``is not None``, not as a whole test."""
    if isinstance(site.analysis.nodes.parents.get(read), cst.If):
        return ()
    return (cst.LeftParen(),) if side == "(" else (cst.RightParen(),)
