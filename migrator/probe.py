"""`migrator probe`: asks a server whether it serves the Responses API, with real requests.

Whether `http://gpu-box:8000/v1` implements `/v1/responses` is a fact about a deployment, which
no reading of code can tell: `other_servers` can only say that a client talks to another
server. This module sends the smallest requests that show it (Chat Completions, then
Responses: plain, streamed, with a function tool, with a `text.format` json_schema), and
reads what each answer means. It is the only part of the migrator that opens a socket, and it
is loaded only by the `probe` command.

Data in, data out: `probe` returns a `Report` (one `Outcome` per request and a `Verdict`);
printing it and the exit codes are the command line's. The requests follow the installed
SDK's request types (`openai.types.responses.response_create_params`; tests/test_probe.py
checks them against those types and against the fake server's validator). The standard
library's HTTP client is enough for it, and keeps the migrator free of another dependency.
"""

from __future__ import annotations

import enum
import http.client
import json
import re
import socket
import time
import urllib.error
import urllib.request
from dataclasses import dataclass
from typing import Any, Callable, Dict, List, Optional, Sequence, Tuple

DEFAULT_TIMEOUT = 15.0  # seconds: to connect, for each read, and for a whole stream
MAX_BODY = 1 << 20  # bytes read of an answer: enough for any probe's, and bounded for a confused server
MAX_ERROR_TEXT = 300  # characters of a server's error text shown
PROMPT = "Reply with the single word OK."
FUNCTION_NAME = "get_time"
FUNCTION_TOOL = {
    "type": "function",
    "name": FUNCTION_NAME,
    "description": "Returns the current time.",
    "parameters": {"type": "object", "properties": {}, "required": [], "additionalProperties": False},
    "strict": True,
}
SCHEMA_KEY = "answer"
JSON_SCHEMA_FORMAT = {
    "type": "json_schema",
    "name": "probe_answer",
    "schema": {
        "type": "object",
        "properties": {SCHEMA_KEY: {"type": "string"}},
        "required": [SCHEMA_KEY],
        "additionalProperties": False,
    },
    "strict": True,
}
STREAM_EVENTS_NEEDED = ("response.output_text.delta", "response.completed")
STREAM_END_EVENTS = ("response.completed", "response.failed", "response.incomplete", "error")
# Answers that say nothing about the endpoint: the credentials were refused, or the server is busy.
UNDECIDING_STATUSES = (401, 403, 429)
REDACTED = "[API key]"


class Verdict(enum.Enum):
    """Whether migrating code that talks to the server is safe (the command line maps each to an exit code)."""

    SAFE = "safe"  # every Responses request was answered as the Responses API answers it
    PARTIAL = "partial"  # plain Responses requests work, some features do not
    NO_RESPONSES = "no-responses"  # the server answered, but not as the Responses API
    UNREACHABLE = "unreachable"  # no HTTP answer at all
    UNDECIDED = "undecided"  # answers that say nothing about the endpoint (credentials refused, server failing)


@dataclass(frozen=True)
class Answer:
    """What came back for one request: an HTTP status and body, or (status None) why nothing did."""

    status: Optional[int]
    content_type: str = ""
    body: bytes = b""
    events: Tuple[Dict[str, Any], ...] = ()  # a stream's events, decoded
    failure: str = ""  # why there is no answer, or why a stream stopped early

    @property
    def json(self) -> Any:
        try:
            return json.loads(self.body)
        except ValueError:
            return None


@dataclass(frozen=True)
class Check:
    """One request of the probe, and how its answer is judged."""

    id: str  # names it in JSON output
    title: str  # names it in the table
    method: str
    path: str  # below the base URL
    body: Optional[Dict[str, Any]]  # without the model, which `probe` adds
    judge: Callable[[Answer], Optional[str]]  # None when the answer is right, else what is wrong with it

    @property
    def streams(self) -> bool:
        return bool(self.body and self.body.get("stream"))


@dataclass(frozen=True)
class Outcome:
    """One request's row: its status (None: no answer) and, when it failed, the reason."""

    check: Check
    status: Optional[int]
    ok: bool
    detail: str = ""  # the server's error text, what was wrong with the answer, or why it was not sent
    sent: bool = True


@dataclass(frozen=True)
class Report:
    """What `probe` found: whom it asked, with what, each request's outcome, and the verdict."""

    base_url: str
    model: Optional[str]  # None: none given, and the server did not list one
    api_key_env: str  # the variable the key was read from (the key itself is kept out of reports)
    api_key_set: bool
    outcomes: List[Outcome]
    verdict: Verdict
    reason: str  # the verdict in a sentence


# --- how answers are judged ---------------------------------------------------------------


def _is_chat_completion(answer: Answer) -> Optional[str]:
    body = answer.json
    if isinstance(body, dict) and isinstance(body.get("choices"), list):
        return None
    return "the answer is not a chat completion (no `choices`)"


def _response(answer: Answer) -> Tuple[Optional[dict], Optional[str]]:
    """The Response the answer holds, or why it holds none."""
    body = answer.json
    if not (isinstance(body, dict) and body.get("object") == "response" and isinstance(body.get("output"), list)):
        return None, "the answer is not a Response (no `object: \"response\"` with an `output` list)"
    if body.get("status") == "failed":
        error = body.get("error") if isinstance(body.get("error"), dict) else {}
        return None, f"the response failed: {error.get('message') or 'no reason given'}"
    return body, None


def _is_response(answer: Answer) -> Optional[str]:
    return _response(answer)[1]


def _calls_the_tool(answer: Answer) -> Optional[str]:
    response, problem = _response(answer)
    if response is None:
        return problem
    if any(isinstance(item, dict) and item.get("type") == "function_call" for item in response["output"]):
        return None
    return "no `function_call` item in the output, though the tool was required: the server ignores `tools`"


def _follows_the_schema(answer: Answer) -> Optional[str]:
    response, problem = _response(answer)
    if response is None:
        return problem
    text = "".join(
        part.get("text") or ""
        for item in response["output"]
        if isinstance(item, dict) and item.get("type") == "message"
        for part in item.get("content") or []
        if isinstance(part, dict) and part.get("type") == "output_text"
    )
    try:
        data = json.loads(text)
    except ValueError:
        data = None
    if isinstance(data, dict) and isinstance(data.get(SCHEMA_KEY), str):
        return None
    return f"the output text is not JSON following the schema: the server ignores `text.format` ({_shortened(text)!r})"


def _streams_events(answer: Answer) -> Optional[str]:
    if not answer.content_type.startswith("text/event-stream"):
        return f"the answer is `{answer.content_type or 'untyped'}`, not an event stream: the server ignores `stream`"
    types = [event.get("type") for event in answer.events]
    for event in answer.events:
        if event.get("type") in ("error", "response.failed"):
            # `error` events carry the message; `response.failed` carries the response, with its error.
            failure = event.get("response") if event.get("type") == "response.failed" else event
            return f"the stream reports an error: {_error_text(json.dumps(failure).encode())}"
    missing = [name for name in STREAM_EVENTS_NEEDED if name not in types]
    if missing:
        seen = ", ".join(dict.fromkeys(str(name) for name in types)) or "none"
        stopped = f"; {answer.failure}" if answer.failure else ""
        return f"no `{'` or `'.join(missing)}` event in the stream (events seen: {seen}){stopped}"
    return None


def _lists_models(answer: Answer) -> Optional[str]:
    return None if _first_model(answer) else "the answer lists no model (`data[0].id`): pass --model"


def _first_model(answer: Answer) -> Optional[str]:
    body = answer.json
    models = body.get("data") if isinstance(body, dict) else None
    if isinstance(models, list) and models and isinstance(models[0], dict) and isinstance(models[0].get("id"), str):
        return models[0]["id"]
    return None


MODELS = Check("models", "Model list", "GET", "/models", None, _lists_models)
CHAT = Check(
    "chat_completions", "Chat Completions", "POST", "/chat/completions",
    {"messages": [{"role": "user", "content": PROMPT}]}, _is_chat_completion,
)
RESPONSES = Check("responses", "Responses", "POST", "/responses", {"input": PROMPT}, _is_response)
RESPONSES_STREAM = Check(
    "responses_stream", "Responses, streamed", "POST", "/responses", {"input": PROMPT, "stream": True}, _streams_events
)
RESPONSES_TOOL = Check(
    "responses_function_tool", "Responses, function tool", "POST", "/responses",
    {"input": f"Call the {FUNCTION_NAME} function.", "tools": [FUNCTION_TOOL], "tool_choice": "required"},
    _calls_the_tool,
)
RESPONSES_JSON_SCHEMA = Check(
    "responses_json_schema", "Responses, text.format json_schema", "POST", "/responses",
    {"input": f"Answer OK in the `{SCHEMA_KEY}` field.", "text": {"format": JSON_SCHEMA_FORMAT}},
    _follows_the_schema,
)
# In this order: a server that plays scripted turns (the tests' fake server) answers them in turn.
CHECKS = (CHAT, RESPONSES, RESPONSES_STREAM, RESPONSES_TOOL, RESPONSES_JSON_SCHEMA)
RESPONSES_FEATURES = (RESPONSES_STREAM, RESPONSES_TOOL, RESPONSES_JSON_SCHEMA)


# --- probing -------------------------------------------------------------------------------


def probe(
    base_url: str,
    model: Optional[str] = None,
    api_key: Optional[str] = None,
    api_key_env: str = "OPENAI_API_KEY",
    timeout: Optional[float] = None,
) -> Report:
    """Send the checks to the server at `base_url` (such as `http://localhost:8000/v1`) and judge
    the answers. Without `model`, the first model the server lists is used. Once a request gets
    no answer at all, the others are not sent: they would only wait out the same timeout."""
    base_url = base_url.rstrip("/")
    send = _Sender(base_url, api_key, timeout or DEFAULT_TIMEOUT)
    outcomes: List[Outcome] = []
    checks: Sequence[Check] = CHECKS
    if model is None:
        answer = send(MODELS, None)
        outcomes.append(_outcome(MODELS, answer, api_key))
        model = _first_model(answer)
        if model is None:
            checks = ()
    for check in checks:
        if any(outcome.status is None for outcome in outcomes):
            outcomes.append(Outcome(check, None, False, "not sent: the server did not answer an earlier request", sent=False))
        else:
            outcomes.append(_outcome(check, send(check, model), api_key))
    verdict, reason = _verdict(outcomes)
    return Report(base_url, model, api_key_env, api_key is not None, outcomes, verdict, reason)


def _outcome(check: Check, answer: Answer, api_key: Optional[str]) -> Outcome:
    if answer.status is None:
        detail, ok = answer.failure, False
    elif not 200 <= answer.status < 300:
        detail, ok = _error_text(answer.body), False
    else:
        problem = check.judge(answer)
        detail, ok = problem or "", problem is None
    # A server may quote the request's headers in an error; the key is never shown.
    return Outcome(check, answer.status, ok, detail.replace(api_key, REDACTED) if api_key else detail)


def _verdict(outcomes: Sequence[Outcome]) -> Tuple[Verdict, str]:
    by_check = {outcome.check.id: outcome for outcome in outcomes}
    plain = by_check.get(RESPONSES.id)
    unanswered = next((outcome for outcome in outcomes if outcome.status is None), None)
    if unanswered is not None and (plain is None or plain.status is None):
        request = f"{unanswered.check.method} {unanswered.check.path}"
        return Verdict.UNREACHABLE, f"the server did not answer `{request}`: {unanswered.detail}"
    if plain is None:  # no model to send it with
        return Verdict.UNDECIDED, "no model given (--model), and the server lists none to use"
    if plain.status in UNDECIDING_STATUSES:
        return Verdict.UNDECIDED, (
            f"`{RESPONSES.path}` answered {plain.status}, which says nothing about whether the server implements it"
        )
    if not plain.ok and not by_check[CHAT.id].ok:  # a wrong URL or model, a server down: no sign either way
        return Verdict.UNDECIDED, (
            "Chat Completions failed too, so the failure says nothing about the Responses API: check the base URL"
            " (it usually ends in `/v1`) and the model"
        )
    if not plain.ok:
        return Verdict.NO_RESPONSES, (
            "the server does not serve the Responses API: migrated code would fail on every call; keep the code that"
            " talks to it on Chat Completions"
        )
    failing = [check.title for check in RESPONSES_FEATURES if not by_check[check.id].ok]
    if failing:
        return Verdict.PARTIAL, (
            f"the server serves plain Responses requests, but not: {', '.join(failing)}; migrated code that uses"
            " these would break, code that uses none of them can migrate (--allow-other-servers)"
        )
    return Verdict.SAFE, (
        "the server serves the Responses API, streamed, with function tools and json_schema output: migrating code"
        " that talks to it is safe (--allow-other-servers, or `openai-hosts` for its host)"
    )


class _Sender:
    """Sends one check's request; every failure to get an answer becomes an `Answer` with a reason."""

    def __init__(self, base_url: str, api_key: Optional[str], timeout: float) -> None:
        self.base_url = base_url
        self.api_key = api_key
        self.timeout = timeout

    def __call__(self, check: Check, model: Optional[str]) -> Answer:
        headers = {"Accept": "text/event-stream" if check.streams else "application/json"}
        data = None
        if check.body is not None:
            headers["Content-Type"] = "application/json"
            data = json.dumps({"model": model, **check.body}).encode()
        if self.api_key:
            headers["Authorization"] = f"Bearer {self.api_key}"
        request = urllib.request.Request(self.base_url + check.path, data=data, headers=headers, method=check.method)
        deadline = time.monotonic() + self.timeout
        try:
            with urllib.request.urlopen(request, timeout=self.timeout) as reply:
                content_type = reply.headers.get("Content-Type", "")
                if check.streams and content_type.startswith("text/event-stream"):
                    events, failure = _read_events(reply, deadline)
                    return Answer(reply.status, content_type, events=events, failure=failure)
                return Answer(reply.status, content_type, reply.read(MAX_BODY))
        except urllib.error.HTTPError as error:
            with error:
                return Answer(error.code, error.headers.get("Content-Type", ""), _read_quietly(error))
        except urllib.error.URLError as error:
            return Answer(None, failure=f"cannot connect: {error.reason}")
        except (socket.timeout, TimeoutError):
            return Answer(None, failure=f"no answer within {self.timeout:g} s")
        except (OSError, http.client.HTTPException) as error:
            return Answer(None, failure=f"the connection failed: {error or type(error).__name__}")


def _read_quietly(error: urllib.error.HTTPError) -> bytes:
    try:
        return error.read(MAX_BODY)
    except (OSError, http.client.HTTPException):
        return b""


def _read_events(reply: Any, deadline: float) -> Tuple[Tuple[Dict[str, Any], ...], str]:
    """The decoded `data:` payloads of a server-sent event stream, up to its last event, EOF or the
    deadline; and, when it stopped before its last event, why."""
    events: List[Dict[str, Any]] = []
    read = 0
    while time.monotonic() < deadline and read < MAX_BODY:
        try:
            line = reply.readline()
        except (socket.timeout, TimeoutError):
            return tuple(events), "the stream stalled"
        except (OSError, http.client.HTTPException) as error:
            return tuple(events), f"the stream broke off: {error or type(error).__name__}"
        if not line:
            return tuple(events), ""
        read += len(line)
        if not line.startswith(b"data:"):
            continue
        try:
            event = json.loads(line[len(b"data:"):])
        except ValueError:
            continue  # such as Chat Completions' `[DONE]`
        if isinstance(event, dict):
            events.append(event)
            if event.get("type") in STREAM_END_EVENTS:
                return tuple(events), ""
    return tuple(events), "the stream did not end in time"


def _error_text(body: bytes) -> str:
    """The message of an error body, as the servers spell it: OpenAI's `{"error": {"message"}}`,
    LM Studio's `{"error": "..."}`, vLLM's and FastAPI's `{"message"}` / `{"detail"}`, or the
    text itself."""
    try:
        data = json.loads(body)
    except ValueError:
        data = None
    message: Any = None
    if isinstance(data, dict):
        error = data.get("error")
        message = error.get("message") if isinstance(error, dict) else error
        message = message or data.get("message") or data.get("detail")
    if message is None:  # not JSON: text, or an HTML error page whose tags say nothing
        message = re.sub(r"<[^>]*>", " ", body.decode("utf-8", "replace"))
    elif not isinstance(message, str):
        message = json.dumps(message)
    return _shortened(message) or "(no error text)"


def _shortened(text: str) -> str:
    text = " ".join(text.split())
    return text if len(text) <= MAX_ERROR_TEXT else text[: MAX_ERROR_TEXT - 1] + "…"
