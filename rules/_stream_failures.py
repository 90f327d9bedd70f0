"""A Responses stream reports a failure as an event, where a Chat Completions stream raised.

When the service fails partway through an answer, a Chat stream sends ``{"error": {...}}``, on
which the SDK raises ``APIError`` in the middle of the loop; a Responses stream sends an
``error`` or ``response.failed`` event, which the SDK hands to the loop like any other. A loop
that picks out the text events would end as if the answer were complete, with the text so far.
So every stream the rules migrate is read through a helper the module gains once, which raises
``APIError`` on those events, as the Chat stream did, and passes the others on. It takes any
iterable of events, as a function the stream is passed to may declare its parameter, and asks
the stream for the request only when it fails: what the migration gives it is the SDK's
``Stream``::

    for event in _stream_events(stream):
        if event.type == "response.output_text.delta":
            print(event.delta, end="")

``events_of`` wraps the stream a migrated loop or comprehension reads, with what the helper
needs, or says why it cannot (a name it needs already means something else in the module).
"""

from __future__ import annotations

from typing import Tuple, Union

import libcst as cst

from migrator.analysis import ModuleAnalysis
from migrator.rule import Block, Import

HELPER_NAME = "_stream_events"
ASYNC_HELPER_NAME = "_stream_events_async"
HELPER = '''\
def _stream_events(stream: Iterable[ResponseStreamEvent]) -> Iterator[ResponseStreamEvent]:
    """The events of a Responses stream; a failure raises `APIError`, as a Chat Completions stream did."""
    for event in stream:
        if event.type == "error":
            request = cast(Stream[ResponseStreamEvent], stream).response.request
            raise APIError(event.message, request, body=event.to_dict())
        if event.type == "response.failed":
            error = event.response.error
            message = error.message if error is not None else "An error occurred during streaming"
            request = cast(Stream[ResponseStreamEvent], stream).response.request
            raise APIError(message, request, body=error.to_dict() if error is not None else None)
        yield event
'''
ASYNC_HELPER = (
    HELPER.replace("def _stream_events(", "async def _stream_events_async(")
    .replace("Stream[", "AsyncStream[")
    .replace("Iterable[", "AsyncIterable[")
    .replace("Iterator[", "AsyncIterator[")
    .replace("    for event in", "    async for event in")
)
IMPORTS = (
    Import("openai", "APIError"),
    Import("openai", "Stream"),
    Import("openai.types.responses", "ResponseStreamEvent"),
    Import("typing", "Iterable"),
    Import("typing", "Iterator"),
    Import("typing", "cast"),
)
ASYNC_IMPORTS = (
    Import("openai", "APIError"),
    Import("openai", "AsyncStream"),
    Import("openai.types.responses", "ResponseStreamEvent"),
    Import("typing", "AsyncIterable"),
    Import("typing", "AsyncIterator"),
    Import("typing", "cast"),
)

# Where a name the helper annotates with may already come from, meaning the same.
SAME_CLASSES = {
    Import("typing", name): "collections.abc" for name in ("Iterable", "Iterator", "AsyncIterable", "AsyncIterator")
}

Needs = Tuple[Tuple[Import, ...], Tuple[str, ...]]
# How a module importing only `OpenAI` from openai starts once migrated: for rules' examples.
EXAMPLE_HEADER = (
    "from typing import Iterable, Iterator, cast\n\nfrom openai import APIError, OpenAI, Stream\n"
    f"from openai.types.responses import ResponseStreamEvent\n\n\n{HELPER}\n\n"
)


def helper_needs(analysis: ModuleAnalysis, where: cst.CSTNode, asynchronous: bool) -> Union[Needs, Block]:
    """The imports and the definition a stream read at ``where`` through the helper needs."""
    name, helper, imports = (ASYNC_HELPER_NAME, ASYNC_HELPER, ASYNC_IMPORTS) if asynchronous else (HELPER_NAME, HELPER, IMPORTS)
    needed = tuple(each for each in imports if not _imported_otherwise(analysis, each, where))
    taken = analysis.helper_conflict(where, name, helper, needed)
    if taken is not None:
        return Block(f"the stream's events are read through a helper that needs the name `{taken}`, which this module uses for something else")
    return needed, (helper,)


def _imported_otherwise(analysis: ModuleAnalysis, needed: Import, where: cst.CSTNode) -> bool:
    """Is the name ``needed`` binds already an import of the same class from elsewhere
    (``Iterator`` from collections.abc), which serves the helper as well?"""
    same = SAME_CLASSES.get(needed)
    can_import = analysis.imports.can_import
    return same is not None and not can_import(needed.name, f"{needed.module}.{needed.name}", where) and can_import(needed.name, f"{same}.{needed.name}", where)


def events_of(stream: cst.BaseExpression, asynchronous: bool) -> cst.Call:
    """``stream`` read through the helper."""
    name = ASYNC_HELPER_NAME if asynchronous else HELPER_NAME
    return cst.Call(func=cst.Name(name), args=[cst.Arg(stream)])
