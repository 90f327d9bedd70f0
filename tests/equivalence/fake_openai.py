"""A fake OpenAI HTTP server that plays a scenario of model turns and checks every request.

It serves ``POST /v1/chat/completions``, ``/v1/responses`` and the legacy ``/v1/completions``
(with or without the ``/v1`` prefix), as JSON or as server-sent events when ``"stream": true``.
Each accepted request consumes the next turn of the scenario and gets it rendered in the wire
format of the endpoint it hit. A request the real service would reject gets its HTTP 400 error
body instead, and is recorded in ``violations``. Everything is deterministic: ids come from
counters reset by ``load``, timestamps are fixed.
"""

from __future__ import annotations

import json
import re
import threading
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, Dict, List, Optional, Sequence, Tuple
from urllib.parse import urlsplit

from .chat_wire import chat_completion, chat_completion_chunks, text_completion, text_completion_chunks
from .responses_wire import RenderedResponse
from .scenario import Turn
from .validation import (
    ApiError,
    StoredResponse,
    input_call_ids,
    validate_chat_request,
    validate_completions_request,
    validate_responses_request,
)
from .wire import Ids, sse

CHAT_PATH = "/v1/chat/completions"
RESPONSES_PATH = "/v1/responses"
COMPLETIONS_PATH = "/v1/completions"
AZURE_DEPLOYMENT_PATH = re.compile(r"^/openai/deployments/[^/]+/")


@dataclass(frozen=True)
class RecordedRequest:
    """One request as the server received it."""

    method: str
    path: str  # as sent, without the query string
    body: Any  # the decoded JSON body (None if there was none or it was not JSON)

    @property
    def endpoint(self) -> str:
        """The path with a ``/v1`` prefix, whether or not the client's base_url had one. Azure's
        paths name the same endpoints: ``/openai/deployments/<model>/chat/completions``, which
        ``AzureOpenAI`` calls, and ``/openai/v1/responses`` on its v1 endpoint."""
        path = AZURE_DEPLOYMENT_PATH.sub("/v1/", self.path).replace("/openai/v1/", "/v1/", 1)
        return path if path.startswith("/v1/") else "/v1" + path

    def describe(self) -> str:
        return f"{self.method} {self.path}\n{json.dumps(self.body, indent=2, sort_keys=True)}"


@dataclass(frozen=True)
class Violation:
    """A request the fake server rejected, and the error it answered with."""

    request: RecordedRequest
    error: ApiError

    def describe(self) -> str:
        return f"rejected: {self.error.message} (param={self.error.param!r})\n{self.request.describe()}"


@dataclass(frozen=True)
class _Reply:
    status: int
    content_type: str
    body: bytes
    error: Optional[ApiError] = None  # set when the request is refused


def _json_reply(payload: dict) -> _Reply:
    return _Reply(200, "application/json", json.dumps(payload).encode())


def _error_reply(error: ApiError, status: int = 400) -> _Reply:
    return _Reply(status, "application/json", json.dumps(error.body()).encode(), error)


def _sse_reply(events: List[bytes]) -> _Reply:
    return _Reply(200, "text/event-stream; charset=utf-8", b"".join(events))


class FakeOpenAI:
    """The server. Use as a context manager (or ``start``/``stop``); ``load`` a scenario before each run."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._httpd: Optional[ThreadingHTTPServer] = None
        self._thread: Optional[threading.Thread] = None
        self.load([])

    # -- lifecycle -------------------------------------------------------------------------

    def start(self) -> "FakeOpenAI":
        self._httpd = ThreadingHTTPServer(("127.0.0.1", 0), _handler_for(self))
        self._thread = threading.Thread(
            target=self._httpd.serve_forever, kwargs={"poll_interval": 0.05}, name="fake-openai", daemon=True
        )
        self._thread.start()
        return self

    def stop(self) -> None:
        if self._httpd is not None:
            self._httpd.shutdown()
            self._httpd.server_close()
            self._thread.join()
            self._httpd = self._thread = None

    def __enter__(self) -> "FakeOpenAI":
        return self.start()

    def __exit__(self, *exc_info: object) -> None:
        self.stop()

    @property
    def base_url(self) -> str:
        """What a client's ``base_url`` / ``OPENAI_BASE_URL`` should be."""
        assert self._httpd is not None, "the server is not started"
        host, port = self._httpd.server_address[:2]
        return f"http://{host}:{port}/v1"

    # -- scenario and records --------------------------------------------------------------

    def load(self, turns: Sequence[Turn]) -> None:
        """Start over with these turns: forget requests, violations, stored responses; reset the ids."""
        with self._lock:
            self._turns: List[Turn] = list(turns)
            self._ids = Ids()
            self._stored: Dict[str, StoredResponse] = {}
            self._requests: List[RecordedRequest] = []
            self._violations: List[Violation] = []

    @property
    def requests(self) -> List[RecordedRequest]:
        """Every request received since ``load``, in order."""
        with self._lock:
            return list(self._requests)

    @property
    def violations(self) -> List[Violation]:
        """Every rejected request since ``load``, in order."""
        with self._lock:
            return list(self._violations)

    @property
    def remaining_turns(self) -> int:
        with self._lock:
            return len(self._turns)

    # -- answering -------------------------------------------------------------------------

    def handle(self, method: str, raw_path: str, raw_body: bytes) -> Tuple[_Reply, Dict[str, str]]:
        """Answer one HTTP request: the reply and its headers. Thread-safe."""
        path = urlsplit(raw_path).path
        try:
            body = json.loads(raw_body) if raw_body else None
            parse_error = None
        except ValueError:
            body, parse_error = None, ApiError("We could not parse the JSON body of your request.")
        request = RecordedRequest(method, path, body)
        with self._lock:
            self._requests.append(request)
            reply = self._reply(request, parse_error)
            if reply.error is not None:
                self._violations.append(Violation(request, reply.error))
            headers = {
                "x-request-id": self._ids.next("req_"),
                "openai-processing-ms": "42",
                "openai-version": "2020-10-01",
                "x-ratelimit-limit-requests": "5000",
                "x-ratelimit-remaining-requests": str(5000 - len(self._requests)),
                # The SDK retries 429/5xx; this server's errors are final, and a retry would only hide them.
                "x-should-retry": "false",
            }
        return reply, headers

    def _reply(self, request: RecordedRequest, parse_error: Optional[ApiError]) -> _Reply:
        if parse_error is not None:
            return _error_reply(parse_error)
        endpoint = request.endpoint
        if request.method != "POST" or endpoint not in (CHAT_PATH, RESPONSES_PATH, COMPLETIONS_PATH):
            return _error_reply(ApiError(f"Invalid URL ({request.method} {request.path})"), 404)
        body = request.body
        if endpoint == RESPONSES_PATH:
            error = validate_responses_request(body, self._stored)
        elif endpoint == CHAT_PATH:
            error = validate_chat_request(body)
        else:
            error = validate_completions_request(body)
        if error is None and not self._turns:
            error = ApiError("Fake server: the scenario has no model turn left for this request.", code="scenario_exhausted")
        if error is not None:
            return _error_reply(error)
        turn = self._turns.pop(0)
        if endpoint == RESPONSES_PATH:
            return self._responses_reply(turn, body)
        render, render_chunks = (
            (chat_completion, chat_completion_chunks) if endpoint == CHAT_PATH else (text_completion, text_completion_chunks)
        )
        if body.get("stream"):
            return _sse_reply([sse(chunk) for chunk in render_chunks(turn, body, self._ids)] + [sse("[DONE]")])
        return _json_reply(render(turn, body, self._ids))

    def _responses_reply(self, turn: Turn, body: dict) -> _Reply:
        rendered = RenderedResponse(turn, body, self._ids)
        if body.get("store", True):
            previous = self._stored.get(body.get("previous_response_id") or "")
            chain = (previous.chain_call_ids if previous else frozenset()) | input_call_ids(body)
            self._stored[rendered.id] = StoredResponse(chain | set(rendered.call_ids()), tuple(rendered.call_ids()))
        if body.get("stream"):
            # Typed events, each with an ``event:`` line; the Responses stream has no [DONE].
            return _sse_reply([sse(data, event=event) for event, data in rendered.events()])
        return _json_reply(rendered.response())


def _handler_for(server: FakeOpenAI) -> type:
    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"  # keep-alive, as the SDK's connection pool expects
        # Headers and body go out in separate writes: without TCP_NODELAY the body waits for the
        # client's delayed ACK, some 40 ms per request.
        disable_nagle_algorithm = True

        def _answer(self) -> None:
            length = int(self.headers.get("Content-Length") or 0)
            reply, headers = server.handle(self.command, self.path, self.rfile.read(length))
            self.send_response(reply.status)
            self.send_header("Content-Type", reply.content_type)
            self.send_header("Content-Length", str(len(reply.body)))
            for name, value in headers.items():
                self.send_header(name, value)
            self.end_headers()
            self.wfile.write(reply.body)

        do_POST = do_GET = do_DELETE = _answer

        def log_message(self, format: str, *args: object) -> None:  # noqa: A002 - the stdlib's name
            """Quiet: the server's record of requests is ``FakeOpenAI.requests``."""

    return Handler
