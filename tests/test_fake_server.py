"""The bench checks itself: the fake server speaks both APIs as the SDK expects, its validator
rejects what the Responses API rejects, and the harness catches wrong migrations."""

from __future__ import annotations

import json
from typing import Any, List

import openai
import pytest
from openai.types import Completion
from openai.types.chat import ChatCompletion, ChatCompletionChunk
from openai.types.responses import Response, ResponseStreamEvent
from pydantic import BaseModel, TypeAdapter

from tests.equivalence.chat_wire import chat_completion, chat_completion_chunks, text_completion, text_completion_chunks
from tests.equivalence.harness import Bench, assert_equivalent, equivalence_problems
from tests.equivalence.responses_wire import RenderedResponse
from tests.equivalence.scenario import (
    ContentFiltered,
    JsonAnswer,
    StreamFailure,
    Refusal,
    TextAnswer,
    ToolCall,
    ToolCalls,
    Truncated,
    Usage,
    turn_from_dict,
)
from tests.equivalence.validation import (
    RESPONSES_PARAMETERS,
    StoredResponse,
    validate_chat_request,
    validate_responses_request,
)
from tests.equivalence.wire import Ids, pieces

WEATHER_CALL = ToolCall("call_weather", "get_weather", '{"city": "Paris", "unit": "celsius"}')
TIME_CALL = ToolCall("call_time", "get_time", '{"timezone": "Europe/Paris"}')
SAMPLE_TURNS = {
    "text": TextAnswer("Paris is the capital of France.", Usage(21, 7)),
    "json": JsonAnswer({"city": "Paris", "country": "France"}),
    "tool_calls": ToolCalls((WEATHER_CALL, TIME_CALL)),
    "refusal": Refusal("I can't help with that."),
    "truncated": Truncated("Once upon a time, there"),
    "content_filter": ContentFiltered("Partial answer"),
    "detailed_usage": TextAnswer("Done.", Usage(1200, 300, cached_tokens=1024, reasoning_tokens=256)),
}
FLAT_TOOL = {"type": "function", "name": "get_weather", "parameters": {"type": "object", "properties": {}}, "strict": False}
RESPONSES_REQUEST = {
    "model": "gpt-4o-mini",
    "instructions": "Be brief.",
    "input": "Where is Paris?",
    "tools": [FLAT_TOOL],
    "tool_choice": "auto",
    "max_output_tokens": 64,
}
CHAT_REQUEST = {"model": "gpt-4o-mini", "messages": [{"role": "user", "content": "Where is Paris?"}]}
turn_ids = pytest.mark.parametrize("turn", SAMPLE_TURNS.values(), ids=SAMPLE_TURNS.keys())
STREAM_EVENT = TypeAdapter(ResponseStreamEvent)


def assert_known_fields(model: Any, where: str = "payload") -> None:
    """The SDK's models accept unknown keys silently: make sure the fake server sends none."""
    if isinstance(model, BaseModel):
        assert not model.model_extra, f"{where} has fields the SDK does not know: {sorted(model.model_extra)}"
        for name in type(model).model_fields:
            assert_known_fields(getattr(model, name), f"{where}.{name}")
    elif isinstance(model, (list, tuple)):
        for index, item in enumerate(model):
            assert_known_fields(item, f"{where}[{index}]")


@pytest.fixture(scope="module")
def bench():
    with Bench() as bench:
        yield bench


@pytest.fixture
def server(bench):
    return bench.server


@pytest.fixture
def client(server):
    with openai.OpenAI(base_url=server.base_url, api_key="test", max_retries=0) as client:
        yield client


# -- scenarios -----------------------------------------------------------------------------------


def test_scenario_json_turns():
    turn = turn_from_dict({"type": "tool_calls", "calls": [{"call_id": "c", "name": "f", "arguments": "{}"}]})
    assert turn == ToolCalls((ToolCall("c", "f", "{}"),))
    assert turn_from_dict({"type": "json", "data": [1]}).text == "[1]"
    with pytest.raises(ValueError, match="unexpected keys"):
        turn_from_dict({"type": "text", "text": "hi", "txet": "typo"})


def test_pieces_rebuild_the_text():
    for text in ["", "one", "  leading and trailing  ", '{"city": "Paris"}', "line\nbreak"]:
        assert "".join(pieces(text)) == text
    assert pieces("Hello there, world.") == ["Hello", " there,", " world."]


# -- payload shapes, validated with the SDK's own models -----------------------------------------


@turn_ids
def test_chat_completion_parses(turn):
    completion = ChatCompletion.model_validate(chat_completion(turn, CHAT_REQUEST, Ids()))
    assert_known_fields(completion)
    choice = completion.choices[0]
    assert choice.finish_reason == turn.finish_reason
    assert choice.message.content == turn.text
    assert choice.message.refusal == turn.refusal
    assert [(c.id, c.function.name, c.function.arguments) for c in choice.message.tool_calls or []] == [
        (c.call_id, c.name, c.arguments) for c in turn.tool_calls
    ]
    assert (completion.usage.prompt_tokens, completion.usage.completion_tokens) == (
        turn.usage.input_tokens,
        turn.usage.output_tokens,
    )
    assert completion.usage.prompt_tokens_details.cached_tokens == turn.usage.cached_tokens
    assert completion.usage.completion_tokens_details.reasoning_tokens == turn.usage.reasoning_tokens


def test_legacy_functions_request_gets_a_function_call():
    request = {**CHAT_REQUEST, "functions": [{"name": WEATHER_CALL.name, "parameters": {}}]}
    completion = ChatCompletion.model_validate(chat_completion(ToolCalls((WEATHER_CALL,)), request, Ids()))
    assert_known_fields(completion)
    choice = completion.choices[0]
    assert choice.finish_reason == "function_call" and choice.message.tool_calls is None
    call = choice.message.function_call
    assert (call.name, call.arguments) == (WEATHER_CALL.name, WEATHER_CALL.arguments)
    with pytest.raises(ValueError, match="one function"):
        chat_completion(ToolCalls((WEATHER_CALL, TIME_CALL)), request, Ids())


@turn_ids
@pytest.mark.parametrize("include_usage", [False, True], ids=["no_usage", "include_usage"])
def test_chat_chunks_parse(turn, include_usage):
    request = {**CHAT_REQUEST, "stream": True, "stream_options": {"include_usage": include_usage}}
    chunks = [ChatCompletionChunk.model_validate(raw) for raw in chat_completion_chunks(turn, request, Ids())]
    for chunk in chunks:
        assert_known_fields(chunk)
    assert chunks[0].choices[0].delta.role == "assistant"
    if include_usage:
        *chunks, usage_chunk = chunks
        assert usage_chunk.choices == [] and usage_chunk.usage.total_tokens == turn.usage.total_tokens
    assert all(chunk.usage is None for chunk in chunks)
    assert [chunk.choices[0].finish_reason for chunk in chunks][-1] == turn.finish_reason
    deltas = [chunk.choices[0].delta for chunk in chunks]
    assert "".join(d.content or "" for d in deltas) == (turn.text or "")
    assert "".join(d.refusal or "" for d in deltas) == (turn.refusal or "")
    for index, call in enumerate(turn.tool_calls):
        call_deltas = [tc for d in deltas for tc in d.tool_calls or [] if tc.index == index]
        assert (call_deltas[0].id, call_deltas[0].function.name) == (call.call_id, call.name)
        assert all(tc.id is None for tc in call_deltas[1:])
        assert "".join(tc.function.arguments for tc in call_deltas) == call.arguments


@pytest.mark.parametrize("turn", [SAMPLE_TURNS[k] for k in ("text", "truncated", "content_filter")], ids=["text", "truncated", "content_filter"])
def test_legacy_completion_parses(turn):
    request = {"model": "gpt-3.5-turbo-instruct", "prompt": "Say hi", "stream_options": {"include_usage": True}}
    completion = Completion.model_validate(text_completion(turn, request, Ids()))
    assert_known_fields(completion)
    assert (completion.choices[0].text, completion.choices[0].finish_reason) == (turn.text, turn.finish_reason)
    chunks = text_completion_chunks(turn, request, Ids())
    assert "".join(choice["text"] for chunk in chunks for choice in chunk["choices"]) == turn.text
    # The API streams finish_reason null until the last chunk; the SDK's Completion model types it
    # non-null (stream chunks are constructed, not validated), so only the last two validate.
    finish, usage = (Completion.model_validate(raw) for raw in chunks[-2:])
    assert finish.choices[0].finish_reason == turn.finish_reason
    assert usage.choices == [] and usage.usage.total_tokens == turn.usage.total_tokens


@turn_ids
def test_response_parses(turn):
    response = Response.model_validate(RenderedResponse(turn, RESPONSES_REQUEST, Ids()).response())
    assert_known_fields(response)
    assert response.output_text == (turn.text or "")
    expected_status = {"length": "incomplete", "content_filter": "incomplete"}.get(turn.finish_reason, "completed")
    assert response.status == expected_status
    if expected_status == "incomplete":
        reason = {"length": "max_output_tokens", "content_filter": "content_filter"}[turn.finish_reason]
        assert response.incomplete_details.reason == reason
    else:
        assert response.incomplete_details is None
    calls = [item for item in response.output if item.type == "function_call"]
    assert [(c.call_id, c.name, c.arguments) for c in calls] == [(c.call_id, c.name, c.arguments) for c in turn.tool_calls]
    assert all(c.id.startswith("fc_") for c in calls)
    refusals = [part.refusal for item in response.output if item.type == "message" for part in item.content if part.type == "refusal"]
    assert refusals == ([turn.refusal] if turn.refusal else [])
    usage = response.usage
    assert (usage.input_tokens, usage.output_tokens, usage.total_tokens) == (
        turn.usage.input_tokens,
        turn.usage.output_tokens,
        turn.usage.total_tokens,
    )
    assert usage.input_tokens_details.cached_tokens == turn.usage.cached_tokens
    assert usage.output_tokens_details.reasoning_tokens == turn.usage.reasoning_tokens
    assert (response.instructions, response.max_output_tokens, response.tools[0].name) == ("Be brief.", 64, "get_weather")


@turn_ids
def test_response_events_parse(turn):
    rendered = RenderedResponse(turn, {**RESPONSES_REQUEST, "stream": True}, Ids())
    events = [STREAM_EVENT.validate_python(data) for _, data in rendered.events()]
    for (event_type, _), event in zip(rendered.events(), events):
        assert event.type == event_type
        assert_known_fields(event, event_type)
    assert [event.sequence_number for event in events] == list(range(len(events)))
    assert [event.type for event in events[:2]] == ["response.created", "response.in_progress"]
    assert events[0].response.status == "in_progress" and events[0].response.usage is None
    final = events[-1]
    assert final.type == ("response.completed" if final.response.status == "completed" else "response.incomplete")
    assert final.response == Response.model_validate(rendered.response())
    assert "".join(e.delta for e in events if e.type == "response.output_text.delta") == (turn.text or "")
    assert "".join(e.delta for e in events if e.type == "response.refusal.delta") == (turn.refusal or "")
    added = [e.item for e in events if e.type == "response.output_item.added"]
    done = [e.item for e in events if e.type == "response.output_item.done"]
    assert [item.id for item in added] == [item.id for item in done] == [item.id for item in final.response.output]
    for item in added:
        assert item.status == "in_progress"
        assert (item.arguments == "") if item.type == "function_call" else (item.content == [])
    for item in done:
        arguments = "".join(e.delta for e in events if e.type == "response.function_call_arguments.delta" and e.item_id == item.id)
        assert item.type != "function_call" or arguments == item.arguments


def test_streams_are_framed_like_the_real_ones(server):
    server.load([TextAnswer("Hi there."), TextAnswer("Hi there.")])
    chat_reply, _ = server.handle("POST", "/v1/chat/completions", json.dumps({**CHAT_REQUEST, "stream": True}).encode())
    responses_reply, _ = server.handle("POST", "/v1/responses", json.dumps({**RESPONSES_REQUEST, "stream": True}).encode())
    assert chat_reply.content_type.startswith("text/event-stream")
    assert chat_reply.body.endswith(b"data: [DONE]\n\n") and b"event:" not in chat_reply.body
    frames = responses_reply.body.decode().strip().split("\n\n")
    assert all(frame.startswith("event: response.") and "\ndata: {" in frame for frame in frames)
    assert b"[DONE]" not in responses_reply.body


# -- the SDK against the server ------------------------------------------------------------------


def test_sdk_parses_both_apis(server, client):
    server.load([SAMPLE_TURNS["text"], SAMPLE_TURNS["text"], SAMPLE_TURNS["text"]])
    completion = client.chat.completions.create(**CHAT_REQUEST)
    response = client.responses.create(model="gpt-4o-mini", input="Where is Paris?")
    legacy = client.completions.create(model="gpt-3.5-turbo-instruct", prompt="Where is Paris?")
    assert completion.choices[0].message.content == response.output_text == legacy.choices[0].text
    assert completion.created == int(response.created_at)
    assert [request.endpoint for request in server.requests] == ["/v1/chat/completions", "/v1/responses", "/v1/completions"]


@pytest.mark.parametrize("event", ["response.failed", "error"])
def test_a_stream_failure_raises_on_chat_and_is_an_event_on_responses(server, client, event):
    """What a stream failing partway looks like: the Chat SDK raises on the error chunk; the
    Responses SDK hands over a well-formed ``error`` or ``response.failed`` event."""
    failure = StreamFailure("The server had an error.", "Once upon", event=event)
    server.load([failure, failure])
    texts = []
    with pytest.raises(openai.APIError, match="The server had an error."):
        for chunk in client.chat.completions.create(**CHAT_REQUEST, stream=True):
            texts.append(chunk.choices[0].delta.content or "")
    events = list(client.responses.create(model="gpt-4o-mini", input="Where is Paris?", stream=True))
    assert "".join(texts) == "".join(e.delta for e in events if e.type == "response.output_text.delta") == "Once upon"
    last = events[-1]
    assert last.type == event
    message = last.message if last.type == "error" else last.response.error.message
    assert message == "The server had an error."
    for data in (data for _, data in RenderedResponse(failure, {**RESPONSES_REQUEST, "stream": True}, Ids()).events()):
        assert_known_fields(STREAM_EVENT.validate_python(data), data["type"])


def test_responses_stream_helper_accumulates(server, client):
    server.load([SAMPLE_TURNS["text"], SAMPLE_TURNS["tool_calls"]])
    with client.responses.stream(model="gpt-4o-mini", input="Where is Paris?") as stream:
        deltas = [event.delta for event in stream if event.type == "response.output_text.delta"]
        final = stream.get_final_response()
    assert "".join(deltas) == final.output_text == SAMPLE_TURNS["text"].text
    assert final.usage.total_tokens == SAMPLE_TURNS["text"].usage.total_tokens
    with client.responses.stream(model="gpt-4o-mini", input="Weather?", tools=[FLAT_TOOL]) as stream:
        final = stream.get_final_response()
    assert [(item.call_id, item.arguments) for item in final.output] == [
        (call.call_id, call.arguments) for call in (WEATHER_CALL, TIME_CALL)
    ]


def test_responses_stream_helper_has_no_final_response_when_incomplete(server, client):
    """An SDK fact a migration must respect: a truncated stream ends with response.incomplete,
    and get_final_response() raises instead of returning it (Chat's get_final_completion() returns)."""
    server.load([SAMPLE_TURNS["truncated"]])
    with client.responses.stream(model="gpt-4o-mini", input="Tell me a story", max_output_tokens=16) as stream:
        with pytest.raises(RuntimeError, match="response.completed"):
            stream.get_final_response()


def test_chat_stream_helper_accumulates(server, client):
    server.load([SAMPLE_TURNS["text"], SAMPLE_TURNS["tool_calls"]])
    with client.chat.completions.stream(**CHAT_REQUEST) as stream:
        types = [event.type for event in stream]
        final = stream.get_final_completion()
    assert {"chunk", "content.delta", "content.done"} <= set(types)
    assert final.choices[0].message.content == SAMPLE_TURNS["text"].text
    with client.chat.completions.stream(**CHAT_REQUEST) as stream:
        types = [event.type for event in stream]
        final = stream.get_final_completion()
    assert types.count("tool_calls.function.arguments.done") == 2
    calls = final.choices[0].message.tool_calls
    assert [(c.id, c.function.name, c.function.arguments) for c in calls] == [
        (c.call_id, c.name, c.arguments) for c in (WEATHER_CALL, TIME_CALL)
    ]
    assert final.choices[0].finish_reason == "tool_calls"


# -- the server's behaviour ----------------------------------------------------------------------


def test_base_url_without_v1(server):
    server.load([SAMPLE_TURNS["text"]])
    with openai.OpenAI(base_url=server.base_url.removesuffix("/v1"), api_key="test", max_retries=0) as client:
        client.chat.completions.create(**CHAT_REQUEST)
    (request,) = server.requests
    assert (request.path, request.endpoint) == ("/chat/completions", "/v1/chat/completions")


def test_a_rejected_request_is_not_retried(server):
    server.load([SAMPLE_TURNS["text"]])
    with openai.OpenAI(base_url=server.base_url, api_key="test") as client:  # the SDK's default retries
        with pytest.raises(openai.BadRequestError) as raised:
            client.responses.create(model="gpt-4o-mini", input="Hi", max_output_tokens=5)
    assert raised.value.status_code == 400 and raised.value.code == "integer_below_min_value"
    assert len(server.requests) == 1 and len(server.violations) == 1
    assert server.remaining_turns == 1  # a rejected request consumes no turn


def test_unknown_endpoint_and_exhausted_scenario_are_violations(server, client):
    server.load([])
    with pytest.raises(openai.NotFoundError):
        client.embeddings.create(model="text-embedding-3-small", input="Hi")
    with pytest.raises(openai.BadRequestError, match="no model turn left"):
        client.responses.create(model="gpt-4o-mini", input="Hi")
    assert [violation.error.code for violation in server.violations] == [None, "scenario_exhausted"]


def test_runs_are_deterministic(server):
    bodies = []
    for _ in range(2):
        server.load([SAMPLE_TURNS["tool_calls"]])
        reply, headers = server.handle("POST", "/v1/responses", json.dumps(RESPONSES_REQUEST).encode())
        bodies.append((reply.body, headers))
    assert bodies[0] == bodies[1]


def test_previous_response_id_carries_the_calls(server, client):
    server.load([SAMPLE_TURNS["tool_calls"], SAMPLE_TURNS["text"], SAMPLE_TURNS["tool_calls"]])
    first = client.responses.create(model="gpt-4o-mini", input="Weather and time?", tools=[FLAT_TOOL])
    answers = [{"type": "function_call_output", "call_id": call.call_id, "output": "ok"} for call in first.output]
    second = client.responses.create(model="gpt-4o-mini", previous_response_id=first.id, input=answers)
    assert second.output_text == SAMPLE_TURNS["text"].text
    with pytest.raises(openai.BadRequestError, match="No tool output found for function call call_weather"):
        client.responses.create(model="gpt-4o-mini", previous_response_id=first.id, input=answers[1:])
    unstored = client.responses.create(model="gpt-4o-mini", input="Weather?", store=False)
    with pytest.raises(openai.BadRequestError, match="not found"):
        client.responses.create(model="gpt-4o-mini", previous_response_id=unstored.id, input=answers)


def test_chat_requests_are_checked_lightly():
    assert validate_chat_request(CHAT_REQUEST) is None
    assert validate_chat_request({"model": "m"}).message == "Missing required parameter: 'messages'."
    tool_first = {"model": "m", "messages": [{"role": "user", "content": "Hi"}, {"role": "tool", "tool_call_id": "x", "content": "1"}]}
    assert "must be a response to a preceeding message with 'tool_calls'" in validate_chat_request(tool_first).message
    calls = [{"id": "call_1", "type": "function", "function": {"name": "f", "arguments": "{}"}}]
    unanswered = {"model": "m", "messages": [{"role": "user", "content": "Hi"}, {"role": "assistant", "tool_calls": calls}]}
    assert "did not have response messages: call_1" in validate_chat_request(unanswered).message
    answered = {"model": "m", "messages": [*unanswered["messages"], {"role": "tool", "tool_call_id": "call_1", "content": "1"}]}
    assert validate_chat_request(answered) is None
    json_mode = {"model": "m", "response_format": {"type": "json_object"}}
    assert "must contain the word 'json'" in validate_chat_request({**json_mode, "messages": [USER_HI]}).message
    assert validate_chat_request({**json_mode, "messages": [{"role": "system", "content": "Reply in JSON."}, USER_HI]}) is None


# -- the validator -------------------------------------------------------------------------------

CHAT_ONLY_PARAMETERS = {
    "messages", "max_tokens", "max_completion_tokens", "response_format", "stop", "n", "seed",
    "frequency_penalty", "presence_penalty", "logit_bias", "functions", "function_call", "reasoning_effort",
}  # fmt: skip


def test_parameters_are_derived_from_the_sdk():
    assert {"model", "input", "instructions", "max_output_tokens", "previous_response_id", "text", "tools", "stream"} <= RESPONSES_PARAMETERS
    assert not RESPONSES_PARAMETERS & CHAT_ONLY_PARAMETERS
    assert not {"self", "timeout", "extra_headers", "extra_query", "extra_body"} & RESPONSES_PARAMETERS
    # The rejected names are real Chat parameters: the two sets are read from the same SDK.
    import inspect

    from openai.resources.chat.completions import Completions

    assert CHAT_ONLY_PARAMETERS <= set(inspect.signature(Completions.create).parameters)


EARLIER_CALL = {"type": "function_call", "id": "fc_0001", "call_id": "call_1", "name": "get_weather", "arguments": "{}", "status": "completed"}
ANSWER = {"type": "function_call_output", "call_id": "call_1", "output": "18 C"}
ASSISTANT_OUTPUT = {
    "id": "msg_0001", "type": "message", "role": "assistant", "status": "completed",
    "content": [{"type": "output_text", "text": "Hi", "annotations": [], "logprobs": []}],
}  # fmt: skip
VALID_BODIES = {
    "string_input": {"model": "m", "input": "Hi", "instructions": "Be brief.", "max_output_tokens": 16},
    "message_list": {"model": "m", "input": [{"role": "system", "content": "Be brief."}, {"role": "user", "content": "Hi"}]},
    "output_items_sent_back": {"model": "m", "input": [{"role": "user", "content": "Hi"}, ASSISTANT_OUTPUT, EARLIER_CALL, ANSWER]},
    "content_parts": {"model": "m", "input": [{"role": "user", "content": [{"type": "input_text", "text": "Hi"}]}]},
    "flat_tools": {"model": "m", "input": "Hi", "tools": [FLAT_TOOL], "tool_choice": {"type": "function", "name": "get_weather"}},
    "json_schema": {"model": "m", "input": "Hi", "text": {"format": {"type": "json_schema", "name": "x", "schema": {}, "strict": True}}},
    "stream_options": {"model": "m", "input": "Hi", "stream": True, "stream_options": {"include_obfuscation": False}},
    "answer_to_stored_call": {"model": "m", "previous_response_id": "resp_0001", "input": [ANSWER]},
    "json_mode_asked_in_a_system_message": {
        "model": "m",
        "input": [{"role": "system", "content": "Answer in JSON."}, {"role": "user", "content": "Hi"}],
        "text": {"format": {"type": "json_object"}},
    },
}
STORED = {"resp_0001": StoredResponse(frozenset({"call_1"}), ("call_1",))}


@pytest.mark.parametrize("body", VALID_BODIES.values(), ids=VALID_BODIES.keys())
def test_validator_accepts_correct_requests(body):
    assert validate_responses_request(body, STORED) is None


USER_HI = {"role": "user", "content": "Hi"}
# Keyword arguments of responses.create, as a wrong migration writes them, and the error the server answers.
# Chat-only names go through extra_body: responses.create() itself refuses them (see the TypeError test).
WRONG_MIGRATIONS = {
    "leftover_messages": (
        {"extra_body": {"messages": [USER_HI]}},
        "Unsupported parameter: 'messages'. In the Responses API, this parameter has moved to 'input'.",
    ),
    "max_tokens": (
        {"input": "Hi", "extra_body": {"max_tokens": 100}},
        "Unsupported parameter: 'max_tokens'. In the Responses API, this parameter has moved to 'max_output_tokens'.",
    ),
    "response_format_top_level": (
        {"input": "Hi", "extra_body": {"response_format": {"type": "json_object"}}},
        "Unsupported parameter: 'response_format'. In the Responses API, this parameter has moved to 'text.format'.",
    ),
    "stop": ({"input": "Hi", "extra_body": {"stop": ["END"]}}, "Unknown parameter: 'stop'."),
    "nested_tool": (
        {"input": "Hi", "tools": [{"type": "function", "function": {"name": "get_weather", "parameters": {}}}]},
        "Missing required parameter: 'tools[0].name'.",
    ),
    "tool_role_input": (
        {"input": [USER_HI, {"role": "tool", "tool_call_id": "call_1", "content": "18 C"}]},
        "Invalid value: 'tool'. Supported values are: 'assistant', 'developer', 'system', 'user'.",
    ),
    "tool_calls_key": (
        {"input": [USER_HI, {"role": "assistant", "content": "", "tool_calls": [{"id": "call_1"}]}]},
        "Unknown parameter: 'input[1].tool_calls'.",
    ),
    "nested_json_schema": (
        {"input": "Hi", "text": {"format": {"type": "json_schema", "json_schema": {"name": "city", "schema": {}}}}},
        "Missing required parameter: 'text.format.name'.",
    ),
    "max_output_tokens_5": (
        {"input": "Hi", "max_output_tokens": 5},
        "Invalid 'max_output_tokens': integer below minimum value. Expected a value >= 16, but got 5 instead.",
    ),
    "stream_options_include_usage": (
        {"input": "Hi", "stream": True, "stream_options": {"include_usage": True}},
        "Unknown parameter: 'stream_options.include_usage'.",
    ),
    "nested_tool_choice": (
        {"input": "Hi", "tools": [FLAT_TOOL], "tool_choice": {"type": "function", "function": {"name": "get_weather"}}},
        "Missing required parameter: 'tool_choice.name'.",
    ),
    "orphan_function_call_output": (
        {"input": [USER_HI, ANSWER]},
        "No tool call found for function call output with call_id call_1.",
    ),
    "unanswered_function_call": (
        {"input": [USER_HI, EARLIER_CALL]},
        "No tool output found for function call call_1.",
    ),
    "call_id_as_item_id": (
        {"input": [{**EARLIER_CALL, "id": "call_1"}, ANSWER]},
        "Invalid 'input[0].id': 'call_1'. Expected an ID that begins with 'fc_'.",
    ),
    "json_mode_asked_in_the_instructions_only": (
        {"instructions": "Answer in JSON.", "input": "Hi", "text": {"format": {"type": "json_object"}}},
        "Response input messages must contain the word 'json' in some form to use 'text.format' of type 'json_object'.",
    ),
    "function_strict_by_default_with_an_open_schema": (
        {"input": "Hi", "tools": [{"type": "function", "name": "lookup", "parameters": {"type": "object", "properties": {"q": {"type": "string"}}}}]},
        "Invalid schema for function 'lookup': In context=(), 'additionalProperties' is required to be supplied and to be false.",
    ),
    "chat_content_part": (
        {"input": [{"role": "user", "content": [{"type": "text", "text": "Hi"}]}]},
        "Invalid value: 'text'. Supported values are: 'input_file', 'input_image', 'input_text', 'output_text', 'refusal'.",
    ),
}
ORIGINAL = """\
from openai import OpenAI

completion = OpenAI().chat.completions.create(model="gpt-4o-mini", messages=[{"role": "user", "content": "Hi"}])
print(completion.choices[0].message.content)
"""


def migrated_source(arguments: dict, read: str = "response.output_text") -> str:
    """A one-call "migrated" program: responses.create(**arguments), then print(read)."""
    keywords = "".join(f", {name}={value!r}" for name, value in arguments.items())
    return (
        "from openai import OpenAI\n\n"
        f'response = OpenAI().responses.create(model="gpt-4o-mini"{keywords})\n'
        f"print({read})\n"
    )


GREETING = [TextAnswer("Hello!")]


@pytest.fixture(scope="module")
def original_run(bench, tmp_path_factory):
    program = tmp_path_factory.mktemp("original") / "program.py"
    program.write_text(ORIGINAL)
    return bench.run(program, GREETING)


def run_source(bench, tmp_path, source: str, turns: List = GREETING):
    program = tmp_path / "migrated.py"
    program.write_text(source)
    return bench.run(program, turns)


@pytest.mark.parametrize("arguments, message", WRONG_MIGRATIONS.values(), ids=WRONG_MIGRATIONS.keys())
def test_wrong_migration_is_caught(bench, original_run, tmp_path, arguments, message):
    run = run_source(bench, tmp_path, migrated_source(arguments))
    assert [violation.error.message for violation in run.violations] == [message]
    assert len(run.requests) == 1  # the program saw the 400 at once: no retry
    assert run.exit_code == 1 and "openai.BadRequestError" in run.stderr and message in run.stderr
    problems = "\n".join(equivalence_problems(original_run, run))
    assert message in problems and "exit code 0 before migration, 1 after" in problems


@pytest.mark.parametrize("arguments, message", WRONG_MIGRATIONS.values(), ids=WRONG_MIGRATIONS.keys())
def test_validator_rejects_wrong_migration(arguments, message):
    body = {"model": "gpt-4o-mini", **arguments}  # the request body the SDK sends for these arguments
    body.update(body.pop("extra_body", {}))
    assert validate_responses_request(body, {}).message == message


def test_chat_only_keyword_fails_in_the_sdk_before_any_request(bench, original_run, tmp_path):
    """responses.create() takes no **kwargs: a leftover Chat keyword is a TypeError, not a 400."""
    run = run_source(bench, tmp_path, migrated_source({"messages": [USER_HI]}))
    assert run.requests == [] and "TypeError" in run.stderr and "'messages'" in run.stderr
    problems = "\n".join(equivalence_problems(original_run, run))
    assert "the model answered 1 request(s) of the original, 0 of the migrated program" in problems


def test_reading_choices_on_a_response_fails_the_comparison(bench, original_run, tmp_path):
    run = run_source(bench, tmp_path, migrated_source({"input": "Hi"}, read="response.choices[0].message.content"))
    assert run.violations == [] and run.endpoints == ["/v1/responses"]
    with pytest.raises(AssertionError) as failure:
        assert_equivalent(original_run, run)
    report = str(failure.value)
    assert "exit code 0 before migration, 1 after" in report and "AttributeError" in report
    assert "-Hello!" in report  # the stdout diff


def test_correct_migration_passes_the_comparison(bench, original_run, tmp_path):
    assert_equivalent(original_run, run_source(bench, tmp_path, migrated_source({"input": "Hi"})))


# -- the harness ---------------------------------------------------------------------------------


def test_programs_run_as_scripts(bench, tmp_path):
    source = "import sys, os\nprint(__name__, os.path.basename(sys.argv[0]), sys.path[0] == os.getcwd())\nsys.exit(3)\n"
    run = run_source(bench, tmp_path, source, turns=[])
    assert (run.exit_code, run.stdout) == (3, "__main__ migrated.py True\n")
    run = run_source(bench, tmp_path, "import sys\nsys.exit('bye')\n", turns=[])
    assert (run.exit_code, run.stderr) == (1, "bye\n")


def test_a_hanging_program_is_killed(bench, tmp_path):
    program = tmp_path / "hang.py"
    program.write_text("import time\nprint('started', flush=True)\ntime.sleep(60)\n")
    run = bench.run(program, [], timeout=1.0)
    assert run.exit_code < 0 and run.stdout == "started\n" and "killed after 1.0 s" in run.stderr


def test_azure_clients_reach_the_same_endpoints(bench, tmp_path):
    """`AzureOpenAI` calls `/openai/deployments/<model>/chat/completions`, and a client on Azure's
    v1 endpoint `/openai/v1/responses`: both are answered, and recorded as the endpoints they are."""
    source = (
        "import os\n"
        "from openai import AzureOpenAI, OpenAI\n"
        "azure = AzureOpenAI(api_version='2024-06-01')\n"
        "chat = azure.chat.completions.create(model='my-deployment', messages=[{'role': 'user', 'content': 'Hi'}])\n"
        "v1 = OpenAI(base_url=os.environ['AZURE_OPENAI_ENDPOINT'] + '/openai/v1/', api_key='key')\n"
        "print(chat.choices[0].message.content, v1.responses.create(model='my-deployment', input='Hi').output_text)\n"
    )
    run = run_source(bench, tmp_path, source, turns=[TextAnswer("one"), TextAnswer("two")])
    assert (run.exit_code, run.stdout, run.violations) == (0, "one two\n", []), run.stderr
    assert [request.path for request in run.requests] == ["/openai/deployments/my-deployment/chat/completions", "/openai/v1/responses"]
    assert [request.endpoint for request in run.requests] == ["/v1/chat/completions", "/v1/responses"]
