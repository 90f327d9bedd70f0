"""
## What it does
Turns `messages=` into `input=`, and a leading system or developer message with a string
content (a literal, or a name bound once to one, such as `SYSTEM_PROMPT: Final = "..."`) into
`instructions=`, unless the call asks for JSON mode (`response_format={"type": "json_object"}`,
or a format the tool cannot read): the Responses API looks for the word "json" that JSON mode
requires in the `input` messages only, so there the system message stays one:

- a literal list whose only remaining message is a user message with string content becomes
  `input=<that content>`;
- otherwise the messages stay a list in `input=[...]`, with content parts converted:
  `{"type": "text"}` becomes `{"type": "input_text"}`, and
  `{"type": "image_url", "image_url": {"url": u, "detail": d}}` becomes
  `{"type": "input_image", "image_url": u, "detail": d}` (`detail` defaults to `"auto"`, as in
  Chat Completions), and `{"type": "file", "file": {"file_id": i}}` becomes
  `{"type": "input_file", "file_id": i}` (also with `file_data` and `filename`);
- lists joined with `+` (`SYSTEM + history + [{"role": "user", "content": q}]`) stay joined:
  each list literal is converted as a `messages` list is, and each history checked as one (a
  history joined so is sent whole: a tool loop may add the model's turns to it); a message held
  in a name bound once to a plain message (`[SYSTEM] + history`, `SYSTEM = {"role": "system",
  "content": "..."}`) and read only in lists is sent as it is, also in a call that can use tools;
- `messages` given as an expression (a variable, a function call) is passed as `input=` as it is;
- a message built with a Chat type's constructor from a role and a text
  (`ChatCompletionUserMessageParam(role="user", content=q)`) is built as `EasyInputMessageParam`;
- a user, system or developer message of the list whose content the tool cannot see written
  and may be Chat content parts (a name bound to a list, a function returning one, a parameter
  a call gives one) is sent as a message, its content read through a helper added once to the
  module, which converts parts as above and leaves a text as it is:
  `{"role": "user", "content": _responses_content(content)}`.

```python
def _responses_content(content: Any) -> Any:
    \"\"\"Chat Completions message content in the Responses shape: a text as it is, parts as input
    parts (`text` as `input_text`, `image_url` as `input_image`, its `detail` "auto" if not given,
    `file` as `input_file`).\"\"\"
    if not isinstance(content, (list, tuple)):
        return content
    parts = []
    for part in content:
        image = part.get("image_url") if part.keys() == {"type", "image_url"} and part["type"] == "image_url" else None
        if part.keys() == {"type", "text"} and part["type"] == "text":
            parts.append({"type": "input_text", "text": part["text"]})
        elif isinstance(image, dict) and "url" in image and image.keys() <= {"url", "detail"}:
            parts.append({"type": "input_image", "image_url": image["url"], "detail": image.get("detail", "auto")})
        elif part.keys() == {"type", "file"} and part["type"] == "file" and part["file"] and part["file"].keys() <= {"file_data", "file_id", "filename"}:
            parts.append({"type": "input_file", **part["file"]})
        else:
            raise ValueError(f"a {part.get('type')!r} content part has no Responses shape the migration knows: convert it by hand")
    return parts
```

## Why
`responses.create` has no `messages` parameter (`Unsupported parameter: 'messages'`). Its
`input` accepts the same `system` / `developer` / `user` / `assistant` string messages, and the
system prompt has its own `instructions` parameter.

## Example
```python
client.chat.completions.create(
    model="gpt-4o-mini",
    messages=[{"role": "system", "content": "Be brief."}, {"role": "user", "content": q}],
)
```

## Use instead
```python
client.responses.create(
    model="gpt-4o-mini",
    instructions="Be brief.",
    input=q,
)
```

## Fix safety
Safe for literal lists. Tool calls and tool results, in the list or in a history list variable
the call sends (`messages=history`, `[..., *history]`), are converted as rule `tool_results`
describes, which also reports what it cannot convert. Any other message the tool cannot carry
over exactly blocks the call: one with a `name`, an unknown role, audio parts, an
assistant message with content parts other than one text part (whose text becomes its
content: `[{"type": "text", "text": t}]` says what `t` says), or content parts in a message whose role is not written
(`{"role": m["role"], ...}`: `input` takes an assistant's parts as output parts). Another `messages` expression is passed through
unchanged: it must hold only system / developer / user / assistant messages with string
content, which is what the Responses API accepts (the type checker tells you if its declared
type says otherwise); in a call that can use tools, one the tool cannot see into is reported,
and so is one that a message its conversion changes (content parts, a tool call or result)
is seen to reach: given in a list literal by a call of the project, added to it where it is
written (`history.append({"role": "user", "content": [...]})`, also to an expression the
tool does not follow, such as `st.session_state.messages`), or added to it as an item of a
list written in the module (`history.append(PROMPTS[i])`, or `prompt` for each `prompt` in
`PROMPTS`: each of its messages counts, as written there); an item of a list of the module
that calls fill (`prompts.extend(vision.generate_prompts())`) is reported, since what those
calls give is not seen.
A list built by a function of the module (`messages=build_messages(q)`: a list literal it
returns, or a new list it fills with `append` and returns) or copied from a constant is checked
like a history, and passed as it is. A message whose content may be a list
made where the message is not written may hold Chat content parts: in the call's own list, a
user, system or developer message with no other key reads it through `_responses_content`,
which converts the parts the tool converts where they are written and raises `ValueError` on
any other (an audio part, which a Responses message does not take); such
a message in a history, an assistant's, or one with other keys, is reported. The content may be
such a list where it is a name a list reaches (`parts = [{"type": "text", ...}, ...]`, then
`"content": parts`; a list joined with `+` or added to with `+=` counts), a parameter annotated as a sequence or given a list by a call of the
project, or what a function of the module returns where it is annotated so or returns a list
(`"content": build_content(path)`); a value the tool cannot see into (another module's
function, a parameter no call gives) is taken for text, as prompts are. Except a chat history
Gradio gives (the second parameter of the function a `ChatInterface` calls, or the parameter an
event gives a `Chatbot`'s value: `.then(fn, inputs=[chatbot])`), however it reaches the call
(sent as it is, joined, copied or added turn by turn, given to a helper of the module that
builds the list): its messages are never what `input` takes as they are (Gradio 6 gives each
content as `[{"type": "text", "text": ...}]`, which Chat takes and `input` does not; Gradio 5
gives pairs, or, told `type="messages"`, dicts with `metadata` and `options` keys besides the
role and the content, which Chat ignores and `input` rejects), so the call is reported. Except
a Gradio 5 history told `type="messages"` without `multimodal=True`, where it is sent or joined
as it is (`messages=[SYSTEM] + history + [...]`, `messages=history`, `[*history]`), the function
adding to it only messages of a role and a text and reading it otherwise only to return it or
count it: it is copied there as roles and texts (`[{"role": turn["role"], "content":
turn["content"]} for turn in history]`), which is what Chat read of it; and where the
function itself copies each message's role and content. A message or a list
of them imported from another module (`messages=[QUESTION]`, `FEW_SHOT + [...]`) is taken as it
is where that module binds it once to a literal of messages of a role and a text, and reported
otherwise: it may hold content parts, a `name`, tool calls or results. A name in the list
holding a message the conversion would change (`messages=[PHOTO]`, `PHOTO` a message with parts
or a `name`) is reported, and so is a constructor's message with anything but a role and a
text.
"""

from functools import partial
from typing import List, Optional, Sequence, Set, Tuple, Union

import libcst as cst

from migrator.rules._history import RULE as TOOL_RESULTS
from migrator.rules._history import TOOL_PARAMETERS, Items, built_history, changed_message_added, followed_history, gradio_history_sent, imported_messages_sent, inline_answer, response_messages, spliced, tool_message
from migrator.model import FixSafety, PassedDict, PassedList
from migrator.passed_values import CONTAINER
from migrator.rule import Block, Example, Import, NewArgument, Rewrite, Rule, UseRewrite
from migrator.shapes import code_of, dict_entries, is_name, is_string_expression, literal_string, one_line, separator, string_like, walk

INPUT_ROLES = frozenset({"system", "developer", "user", "assistant"})
INSTRUCTION_ROLES = frozenset({"system", "developer"})
# Content that is not a literal container: passed on as the message text.
CONTAINER_NODES = (cst.List, cst.Dict, cst.Tuple, cst.Set, cst.ListComp, cst.DictComp, cst.SetComp)
# Annotations of a value that may be a list of content parts rather than a string.
SEQUENCE_TYPES = frozenset({"list", "List", "Sequence", "MutableSequence", "Iterable", "Collection", "tuple", "Tuple"})
MAX_DEPTH = 3  # calls and parameters followed to find what a content may be
# The roles whose content `input` takes as parts (an assistant's holds output parts).
PART_ROLES = frozenset({"system", "developer", "user"})
# What a Chat `file` part's file holds; a Responses `input_file` part holds the same keys.
FILE_KEYS = frozenset({"file_data", "file_id", "filename"})
ANY = Import("typing", "Any")
# Converts, where the call sends it, a content the tool cannot see written: text or Chat parts.
CONTENT_HELPER_NAME = "_responses_content"
CONTENT_HELPER = '''\
def _responses_content(content: Any) -> Any:
    """Chat Completions message content in the Responses shape: a text as it is, parts as input
    parts (`text` as `input_text`, `image_url` as `input_image`, its `detail` "auto" if not given,
    `file` as `input_file`)."""
    if not isinstance(content, (list, tuple)):
        return content
    parts = []
    for part in content:
        image = part.get("image_url") if part.keys() == {"type", "image_url"} and part["type"] == "image_url" else None
        if part.keys() == {"type", "text"} and part["type"] == "text":
            parts.append({"type": "input_text", "text": part["text"]})
        elif isinstance(image, dict) and "url" in image and image.keys() <= {"url", "detail"}:
            parts.append({"type": "input_image", "image_url": image["url"], "detail": image.get("detail", "auto")})
        elif part.keys() == {"type", "file"} and part["type"] == "file" and part["file"] and part["file"].keys() <= {"file_data", "file_id", "filename"}:
            parts.append({"type": "input_file", **part["file"]})
        else:
            raise ValueError(f"a {part.get('type')!r} content part has no Responses shape the migration knows: convert it by hand")
    return parts
'''
# The Chat types' message constructors, by qualified name, with the role each takes.
MESSAGE_CONSTRUCTORS = {
    f"openai.types.chat.ChatCompletion{kind}MessageParam": kind.lower() for kind in ("System", "Developer", "User", "Assistant")
}
INPUT_MESSAGE = Import("openai.types.responses", "EasyInputMessageParam")

RULE = Rule(
    title="`messages` to `input` and `instructions`",
    safety=FixSafety.SAFE,
    needs=("completions",),
    examples=[
        Example(
            before=(
                "from openai import OpenAI\n"
                "client = OpenAI()\n"
                "r = client.chat.completions.create(\n"
                '    model="gpt-4o-mini",\n'
                '    messages=[{"role": "system", "content": "Be brief."}, {"role": "user", "content": q}],\n'
                ")\n"
            ),
            after=(
                "from openai import OpenAI\n"
                "client = OpenAI()\n"
                "r = client.responses.create(\n"
                '    model="gpt-4o-mini",\n'
                '    instructions="Be brief.",\n'
                "    input=q,\n"
                ")\n"
            ),
        ),
        Example(
            before=(
                "from openai import OpenAI\n"
                "client = OpenAI()\n"
                'r = client.chat.completions.create(model="gpt-4o", messages=[{"role": "user", "content": [\n'
                '    {"type": "text", "text": "What is this?"},\n'
                '    {"type": "image_url", "image_url": {"url": url}},\n'
                "]}])\n"
            ),
            after=(
                "from openai import OpenAI\n"
                "client = OpenAI()\n"
                'r = client.responses.create(model="gpt-4o", input=[{"role": "user", "content": [\n'
                '    {"type": "input_text", "text": "What is this?"},\n'
                '    {"type": "input_image", "image_url": url, "detail": "auto"},\n'
                "]}])\n"
            ),
        ),
        Example(
            before=(
                "from openai import OpenAI\n"
                "client = OpenAI()\n"
                'r = client.chat.completions.create(model="gpt-4o", messages=[{"role": "user", "name": "ann", "content": "Hi"}])\n'
            ),
            finding="`name`",
        ),
    ],
)


@RULE.parameter("messages")
def messages(name, value, site) -> Union[Rewrite, Block]:
    # ``value`` may be an updated copy; questions about the module go to the original node.
    original = site.argument(name).value
    if _is_joined(original):
        rewrites: List[UseRewrite] = []
        joined = _joined(value, original, site, rewrites)
        if isinstance(joined, Block):
            return joined
        return Rewrite((NewArgument("input", joined),), elsewhere=tuple(rewrites))
    if not isinstance(value, cst.List):
        elsewhere = _history_of(original, site)
        if isinstance(elsewhere, Block):
            return elsewhere
        return Rewrite((NewArgument("input", value),), elsewhere=elsewhere)
    with_contents = _contents_converted(list(value.elements), original, site)
    if isinstance(with_contents, Block):
        return with_contents
    elements, needs = with_contents
    constructed = _constructed_messages(original, site)
    if isinstance(constructed, Block):
        return constructed
    arguments: List[NewArgument] = []
    if len(elements) > 1 and isinstance(original, cst.List) and _is_instruction(original.elements[0].value, site) and not _may_ask_json_mode(site):
        arguments.append(NewArgument("instructions", _content(elements[0].value)))
        elements = elements[1:]
    if len(elements) == 1 and not needs:
        text = _user_text(elements[0].value)
        if text is not None:
            return Rewrite((*arguments, NewArgument("input", text)))
    elsewhere = _inline_history(original, site)
    if isinstance(elsewhere, Block):
        return elsewhere
    converted = _converted_elements(elements)
    if isinstance(converted, Block):
        return converted
    return Rewrite((*arguments, NewArgument("input", value.with_changes(elements=converted))), elsewhere=(*elsewhere, *constructed, *needs))


def _converted_elements(elements: Sequence[cst.BaseElement]) -> Union[List[cst.BaseElement], Block]:
    """The messages of a list literal as ``input`` items (a history unpacked with ``*`` as it is)."""
    converted: List[cst.BaseElement] = []
    for element in elements:
        message = _convert_message(element.value) if not isinstance(element, cst.StarredElement) else element.value
        if isinstance(message, Block):
            return message
        if isinstance(message, Items):
            converted.extend(spliced(message, element))
        else:
            converted.append(element.with_changes(value=message))
    return converted


def _is_joined(messages: cst.BaseExpression) -> bool:
    """``history + [...]``: lists joined with ``+``."""
    return isinstance(messages, cst.BinaryOperation) and isinstance(messages.operator, cst.Add)


def _joined(
    value: cst.BaseExpression, original: cst.BaseExpression, site, rewrites: List[UseRewrite]
) -> Union[cst.BaseExpression, Block]:
    """``history + [...]`` as ``input``: each list literal joined converted as a ``messages`` list
    is, each other part checked as a ``messages`` expression is (a history followed), the
    rewrites they need added to ``rewrites``. ``value`` is ``original``'s updated copy."""
    if _is_joined(original):
        left = _joined(value.left, original.left, site, rewrites)
        if isinstance(left, Block):
            return left
        right = _joined(value.right, original.right, site, rewrites)
        if isinstance(right, Block):
            return right
        return value.with_changes(left=left, right=right)
    if isinstance(original, cst.List):
        with_contents = _contents_converted(list(value.elements), original, site)
        if isinstance(with_contents, Block):
            return with_contents
        elsewhere = _inline_history(original, site)
        if isinstance(elsewhere, Block):
            return elsewhere
        elements, needs = with_contents
        rewrites.extend((*elsewhere, *needs))
        converted = _converted_elements(elements)
        return converted if isinstance(converted, Block) else value.with_changes(elements=converted)
    history = _history_of(original, site)
    if isinstance(history, Block):
        return history
    rewrites.extend(history)
    return value


def _history_of(messages: cst.BaseExpression, site) -> Union[Tuple[UseRewrite, ...], Block]:
    """What a ``messages`` expression other than a list literal needs: a history held in a name,
    or a list built by a function of the module or copied from a constant, is checked (and
    rewritten where the tool can); another expression is passed through, except to a call that
    can use tools."""
    if isinstance(messages, cst.Name) or (isinstance(messages, cst.Attribute) and is_name(messages.value, "self")):
        return followed_history(messages, site, partial(_convert_message, site=site))
    unread = gradio_history_sent(messages, site.analysis) or imported_messages_sent(messages, site.analysis)
    if unread is not None:
        return unread
    convert = partial(_convert_message, site=site)
    built = built_history(messages, site, convert)
    if built is not None:
        return built
    if any(site.has_argument(p) for p in TOOL_PARAMETERS):
        return _unseen(messages)
    changed = changed_message_added(messages, site.analysis, convert)
    if changed is not None:
        return Block(
            f"`{one_line(code_of(changed), limit=40)}`, added to `{one_line(code_of(messages), limit=40)}` on line"
            f" {site.analysis.nodes.positions[changed].start.line}, is a message `input` takes in another shape, which"
            " the tool converts only in a list it sees whole"
        )
    return ()


def _inline_history(messages: cst.List, site) -> Union[Tuple[UseRewrite, ...], Block]:
    """The histories ``[..., *history]`` unpacks; and, in a call that can use tools, no message
    the tool cannot see into (it may be a tool call or result, which change shape)."""
    rewrites: List[UseRewrite] = []
    opaque = any(dict_entries(element.value) is None for element in messages.elements)
    responses = response_messages(site.analysis) if opaque else {}
    for element in messages.elements:
        if isinstance(element, cst.StarredElement) and isinstance(element.value, cst.Name):
            followed = followed_history(element.value, site, partial(_convert_message, site=site))
            if isinstance(followed, Block):
                return followed
            rewrites.extend(followed)
        elif isinstance(element.value, cst.Name) and imported_messages_sent(element.value, site.analysis) is not None:
            return imported_messages_sent(element.value, site.analysis)
        elif element.value in responses:
            producer, use = responses[element.value]
            answer = inline_answer(use, producer, element, site.call)
            if isinstance(answer, Block):
                return answer
            rewrites.append(answer)
        elif dict_entries(element.value) is None and not _names_a_plain_message(element.value, site) and any(
            site.has_argument(p) for p in TOOL_PARAMETERS
        ):
            return _unseen(element.value)
    return tuple(rewrites)


def _names_a_plain_message(node: cst.BaseExpression, site) -> bool:
    """``SYSTEM`` bound once to ``{"role": "system", "content": "..."}``, a message with a role
    and a string content that ``input`` takes as it is, and read only as an element of lists:
    nothing can make it a tool call or result."""
    definition = site.analysis.bindings.definition(node) if isinstance(node, cst.Name) else None
    entries = dict_entries(definition.value) if definition is not None else None
    if entries is None or set(entries) != {"role", "content"} or _role(entries) not in INPUT_ROLES:
        return False
    content = entries["content"].value
    if isinstance(content, CONTAINER_NODES) or _may_hold_parts(content, site):
        return False
    analysis = site.analysis
    if analysis.nodes.enclosing(definition.statement, (cst.FunctionDef, cst.ClassDef)) is None and analysis.project.importers_of(node.value):
        return False  # other modules may change it
    return all(isinstance(analysis.nodes.parents.get(read), cst.Element) for read in definition.reads)


def _unseen(messages: cst.BaseExpression) -> Block:
    """In a call that can use tools, messages the tool cannot see into may hold tool calls or
    results, which change shape."""
    code = one_line(code_of(messages), limit=40)
    return Block(f"`{code}` cannot be seen into: it may hold tool calls or results, which the Responses API takes in another shape", rule=TOOL_RESULTS)


def _role(entries) -> Optional[str]:
    return literal_string(entries["role"].value) if "role" in entries else None


def _is_instruction(message: cst.BaseExpression, site) -> bool:
    """Is ``message`` (an original node) a system / developer message whose content is a string:
    a literal, or a name bound once to one (``SYSTEM_PROMPT: Final = "..."``)?"""
    entries = dict_entries(message)
    if entries is None or set(entries) != {"role", "content"} or _role(entries) not in INSTRUCTION_ROLES:
        return False
    content = entries["content"].value
    definition = site.analysis.bindings.definition(content) if isinstance(content, cst.Name) else None
    return is_string_expression(definition.value if definition is not None else content)


def _may_ask_json_mode(site) -> bool:
    """Does the call pass a `response_format` that may be `{"type": "json_object"}`? JSON mode
    needs the word "json" in the messages, and the Responses API looks for it in the `input`
    messages only, not in `instructions`: a system prompt saying "reply in JSON" must stay a
    message. Only a format the tool reads as another type (a dict literal, a class of the
    module) lets it move."""
    for written in site.argument_values("response_format"):  # any of them: a request dict may set it on some paths
        made = site.analysis.bindings.bound_values(written)
        if made and all(isinstance(value, cst.ClassDef) for value in made):
            continue  # a class, for `parse`: a schema
        if isinstance(written, cst.Name) and _changed_elsewhere(written, site):
            return True
        for value in made:
            entries = dict_entries(value)
            kind = literal_string(entries["type"].value) if entries is not None and "type" in entries else None
            if kind is None or kind == "json_object":
                return True
    return False


def _changed_elsewhere(name: cst.Name, site) -> bool:
    """May the dict ``name`` holds be changed before the call reads it: not one definition, or
    read other than as a ``response_format=`` (``FMT["type"] = "json_object"``)?"""
    definition = site.analysis.bindings.definition(name)
    if definition is None:
        return True
    parents = site.analysis.nodes.parents
    return not all(
        isinstance(parents.get(read), cst.Arg) and parents[read].keyword is not None and parents[read].keyword.value == "response_format"
        for read in definition.reads
    )


def _content(message: cst.BaseExpression) -> cst.BaseExpression:
    entries = dict_entries(message)
    assert entries is not None, "a message with instructions is a dict literal"
    return entries["content"].value


def _contents_converted(
    elements: List[cst.BaseElement], original: cst.List, site
) -> Union[Tuple[List[cst.BaseElement], Tuple[UseRewrite, ...]], Block]:
    """The messages of a list literal (``elements``, ``original``'s updated copy), each whose
    content may hold parts made elsewhere read through the helper, and what the helper needs."""
    held = _parts_not_written_in(original, site)
    if isinstance(held, Block):
        return held
    if not held:
        return elements, ()
    needs = _content_helper_needs(original, site)
    if isinstance(needs, Block):
        return needs
    return [_with_converted_content(element) if index in held else element for index, element in enumerate(elements)], (needs,)


def _parts_not_written_in(messages: cst.BaseExpression, site) -> Union[Set[int], Block]:
    """The positions in the list literal of the messages whose content may be a list made
    elsewhere (content parts), which the helper converts where the call sends them; a Block for
    such a message the helper cannot take (an assistant's, or one with other keys), or for a name
    holding a message that would change shape (``messages=[PHOTO]``)."""
    held: Set[int] = set()
    for index, element in enumerate(messages.elements if isinstance(messages, cst.List) else ()):
        blocked = _parts_made_elsewhere(element.value, site)
        if blocked is not None and _content_converted_where_sent(element.value):
            held.add(index)
            continue
        if blocked is None and isinstance(element, cst.Element) and isinstance(element.value, cst.Name):
            blocked = _message_held_in_a_name(element.value, site)
        if blocked is not None:
            return blocked
    return held


def _content_converted_where_sent(message: cst.BaseExpression) -> bool:
    """A role and a content, the role one whose content ``input`` takes as parts."""
    entries = dict_entries(message)
    return entries is not None and set(entries) == {"role", "content"} and _role(entries) in PART_ROLES


def _with_converted_content(element: cst.BaseElement) -> cst.BaseElement:
    """The message with its content read through the helper: ``_responses_content(content)``."""
    message = element.value
    content = dict_entries(message)["content"]
    converted = content.with_changes(value=cst.Call(func=cst.Name(CONTENT_HELPER_NAME), args=[cst.Arg(content.value)]))
    return element.with_changes(value=message.with_changes(elements=[converted if each is content else each for each in message.elements]))


def _content_helper_needs(original: cst.BaseExpression, site) -> Union[UseRewrite, Block]:
    """What the helper needs (its definition, ``Any``), added with the call's rewrite."""
    taken = site.analysis.helper_conflict(original, CONTENT_HELPER_NAME, CONTENT_HELPER, (ANY,))
    if taken is not None:
        return Block(f"a message's content is converted by a helper that needs the name `{taken}`, which this module uses for something else")
    return UseRewrite(target=original, build=lambda updated: updated, add_imports=(ANY,), add_definitions=(CONTENT_HELPER,))


def _constructed_messages(messages: cst.List, site) -> Union[Tuple[UseRewrite, ...], Block]:
    """Messages built with the Chat types' constructors (``ChatCompletionUserMessageParam(role=
    "user", content=text)``): dicts at run time, which ``input`` takes as they are when they hold
    a role and a text, but typed as Chat messages. They are built as ``EasyInputMessageParam``."""
    rewrites: List[UseRewrite] = []
    analysis = site.analysis
    for element in messages.elements:
        call = element.value
        if not isinstance(call, cst.Call):
            continue
        names = analysis.imports.imported_as(call.func) & MESSAGE_CONSTRUCTORS.keys()
        if not names:
            continue
        (qualified,) = names
        keywords = {arg.keyword.value: arg.value for arg in call.args if arg.keyword is not None}
        role = literal_string(keywords["role"]) if "role" in keywords else None
        content = keywords.get("content")
        if (
            len(keywords) != len(call.args) or set(keywords) != {"role", "content"} or role != MESSAGE_CONSTRUCTORS[qualified]
            or isinstance(content, CONTAINER_NODES) or _may_hold_parts(content, site)
        ):
            return Block(f"`{one_line(code_of(call), limit=40)}` builds a Chat message the tool converts only from a role and a text")
        if not analysis.imports.can_import(INPUT_MESSAGE.name, f"{INPUT_MESSAGE.module}.{INPUT_MESSAGE.name}", call):
            return Block(f"`{INPUT_MESSAGE.name}`, which the messages' constructors become, means something else in this module")
        rewrites.append(UseRewrite(
            target=call.func,
            build=lambda updated: cst.Name(INPUT_MESSAGE.name),
            add_imports=(INPUT_MESSAGE,),
            remove_unused_imports=(Import("openai.types.chat", qualified.rsplit(".", 1)[1]),),
        ))
    return tuple(rewrites)


def _message_held_in_a_name(name: cst.Name, site) -> Optional[Block]:
    """``PHOTO`` bound to a message that ``input`` takes in another shape (content parts, a
    ``name``), which the tool converts only where it is written in the call."""
    for value in site.analysis.bindings.bound_values(name):
        if dict_entries(value) is None:
            continue
        converted = _convert_message(value, site)
        if isinstance(converted, Block):
            return Block(f"`{name.value}` holds a message the tool cannot convert: {converted.reason}")
        if converted is not value:
            return Block(
                f"`{name.value}` holds a message that `input` takes in another shape, which the tool converts only"
                " where it is written in the call"
            )
    return None


def _parts_made_elsewhere(message: cst.BaseExpression, site) -> Optional[Block]:
    """A message (an original node) whose content may be a list the tool does not see written
    in it (``"content": parts``, ``"content": build_content(path)``): Chat's content parts,
    which ``input`` takes in another shape, and which the tool converts only written there."""
    entries = dict_entries(message)
    content = entries["content"].value if entries is not None and "content" in entries else None
    if content is None or isinstance(content, cst.List) or not _may_hold_parts(content, site):
        return None
    return Block(
        f"the content `{one_line(code_of(content), limit=40)}` may hold content parts, which `input` takes in another shape"
        " (`input_text`, `input_image`): the tool converts them where the call sends them, in a user, system or developer"
        " message with no other key written in the call's list"
    )


def _may_hold_parts(content: cst.BaseExpression, site, depth: int = 0) -> bool:
    """Can ``content`` hold a container rather than a string where it is read? It can when the
    tool sees it bound to one (a list, a comprehension), when it is a parameter annotated as a
    sequence or given one by a call of this module or of another module of the project, or the
    result of a function of this module annotated so or returning one. What the tool cannot see
    into (another module's function, an unannotated parameter no call gives) counts as text, as
    prompts are."""
    if depth > MAX_DEPTH:
        return False
    analysis = site.analysis
    for value in analysis.bindings.reaching_values(content):
        if isinstance(value, CONTAINER_NODES):
            return True
        added = _added_to(value, analysis)
        if added is not None and any(_may_hold_parts(each, site, depth + 1) for each in added):
            return True
        if isinstance(value, cst.Param):
            if value.annotation is not None and _names_a_sequence(value.annotation.annotation):
                return True
            given = ([value.default] if value.default is not None else []) + (analysis.passed_by_every_call(value) or [])
            if any(_may_hold_parts(each, site, depth + 1) for each in given):
                return True
            if any(isinstance(each, (PassedList, PassedDict)) or each == CONTAINER for each in analysis.passed_by_other_modules(value)):
                return True
        elif isinstance(value, cst.Call):
            function = analysis.flow.function_called(value)
            if function is not None and _returns_a_container(function, site, depth):
                return True
    return False


def _added_to(value: cst.CSTNode, analysis) -> Optional[List[cst.BaseExpression]]:
    """What ``parts + more`` joins, or what ``parts += more`` (``value`` being the name it
    binds) adds: a list joined with another may hold content parts either side brings."""
    if isinstance(value, cst.BinaryOperation) and isinstance(value.operator, cst.Add):
        return [value.left, value.right]
    augmented = analysis.nodes.parents.get(value) if isinstance(value, cst.Name) else None
    if isinstance(augmented, cst.AugAssign) and isinstance(augmented.operator, cst.AddAssign) and augmented.target is value:
        return [augmented.value]
    return None


def _returns_a_container(function: cst.FunctionDef, site, depth: int) -> bool:
    if function.returns is not None and _names_a_sequence(function.returns.annotation):
        return True
    returned = [node.value for node in site.analysis.nodes.returns_of(function) if node.value is not None]
    return any(_may_hold_parts(value, site, depth + 1) for value in returned)


def _names_a_sequence(annotation: cst.BaseExpression) -> bool:
    """``list``, ``List[dict]``, ``Sequence[...]``, ``Optional[list]``, ``str | list``..."""
    return any(
        (isinstance(node, cst.Name) and node.value in SEQUENCE_TYPES) or (isinstance(node, cst.Attribute) and node.attr.value in SEQUENCE_TYPES)
        for node in walk(annotation)
    )


def _user_text(message: cst.BaseExpression) -> Optional[cst.BaseExpression]:
    entries = dict_entries(message)
    if entries is None or set(entries) != {"role", "content"} or _role(entries) != "user":
        return None
    content = entries["content"].value
    return None if isinstance(content, CONTAINER_NODES) else content


def _convert_message(message: cst.BaseExpression, site=None) -> Union[cst.BaseExpression, Items, Block]:
    """``message`` as an ``input`` item. Given the call's ``site``, ``message`` is an original
    node (a history's), and its content is checked for parts made elsewhere."""
    entries = dict_entries(message)
    if entries is None:
        return message  # a variable or a call: passed through, like a `messages` expression
    if site is not None:
        made_elsewhere = _parts_made_elsewhere(message, site)
        if made_elsewhere is not None:
            return made_elsewhere
    converted = tool_message(message, entries)
    if converted is not None:
        return converted
    extra = sorted(set(entries) - {"role", "content"})
    if extra:
        return Block(f"a message has {', '.join(f'`{key}`' for key in extra)}, which `input` messages do not take")
    role = _role(entries)  # None when the role is computed: passed through like the content
    if role is not None and role not in INPUT_ROLES:
        return Block(f"a message has the role `{role}`, which `input` does not accept")
    content = entries.get("content")
    if content is None or not isinstance(content.value, cst.List):
        return message
    if role == "assistant":
        text = _only_text_part(content.value)
        if text is None:
            return Block("an assistant message has content parts other than one text, which `input` messages cannot carry")
        # One text part says what a content of that text says; `input` takes an assistant's text so.
        return message.with_changes(elements=[element.with_changes(value=text) if element is content else element for element in message.elements])
    if role is None and "role" in entries:
        # An assistant's parts would be output parts, another's input parts.
        return Block(f"a message whose role is `{one_line(code_of(entries['role'].value), limit=30)}` has content parts, which `input` takes as input parts for a user and as output parts for an assistant")
    parts = []
    for part in content.value.elements:
        converted = _convert_part(part.value)
        if isinstance(converted, Block):
            return converted
        parts.append(part.with_changes(value=converted))
    new_content = content.with_changes(value=content.value.with_changes(elements=parts))
    return message.with_changes(
        elements=[new_content if element is content else element for element in message.elements]
    )


def _only_text_part(parts: cst.List) -> Optional[cst.BaseExpression]:
    """The text of ``[{"type": "text", "text": <text>}]``, a list of one text part; else None."""
    if len(parts.elements) != 1 or not isinstance(parts.elements[0], cst.Element):
        return None
    entries = dict_entries(parts.elements[0].value)
    if not entries or set(entries) != {"type", "text"} or literal_string(entries["type"].value) != "text":
        return None
    return entries["text"].value


def _convert_part(part: cst.BaseExpression) -> Union[cst.BaseExpression, Block]:
    entries = dict_entries(part)
    kind = literal_string(entries["type"].value) if entries and "type" in entries else None
    if kind == "text" and set(entries) == {"type", "text"}:
        return _replace_value(part, entries["type"], string_like(entries["type"].value, "input_text"))
    if kind == "image_url" and set(entries) == {"type", "image_url"}:
        return _image_part(part, entries)
    if kind == "file" and set(entries) == {"type", "file"}:
        return _file_part(part, entries)
    return Block(f"a content part `{kind or '?'}` has no mapping the tool can prove")


def _file_part(part: cst.Dict, entries) -> Union[cst.BaseExpression, Block]:
    """``{"type": "file", "file": {"file_id": i}}`` as ``{"type": "input_file", "file_id": i}``."""
    file = dict_entries(entries["file"].value)
    if not file or not set(file) <= FILE_KEYS:
        return Block("a `file` part is not a literal of `file_data`, `file_id` and `filename`")
    type_entry, file_entry = entries["type"], entries["file"]
    inner = list(entries["file"].value.elements)
    elements = []
    for element in part.elements:
        if element is type_entry:
            elements.append(element.with_changes(value=string_like(type_entry.value, "input_file")))
        elif element is file_entry:
            elements.extend(each.with_changes(comma=separator(part)) for each in inner[:-1])
            elements.append(inner[-1].with_changes(comma=element.comma))
        else:
            elements.append(element)
    return part.with_changes(elements=elements)


def _image_part(part: cst.Dict, entries) -> Union[cst.BaseExpression, Block]:
    image = dict_entries(entries["image_url"].value)
    if image is None or "url" not in image or not set(image) <= {"url", "detail"}:
        return Block("an `image_url` part is not a literal `{\"url\": ..., \"detail\": ...}`")
    type_entry, image_entry = entries["type"], entries["image_url"]
    detail = image["detail"].value if "detail" in image else string_like(type_entry.value, "auto")
    elements = []
    for element in part.elements:
        if element is type_entry:
            elements.append(element.with_changes(value=string_like(type_entry.value, "input_image")))
        elif element is image_entry:
            elements.append(element.with_changes(value=image["url"].value, comma=separator(part)))
            key = string_like(image_entry.key, "detail")
            elements.append(cst.DictElement(key=key, value=detail, comma=element.comma))
        else:
            elements.append(element)
    return part.with_changes(elements=elements)


def _replace_value(node: cst.Dict, entry: cst.DictElement, value: cst.BaseExpression) -> cst.Dict:
    return node.with_changes(
        elements=[e.with_changes(value=value) if e is entry else e for e in node.elements]
    )
