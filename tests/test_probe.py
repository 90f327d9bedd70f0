"""`migrator probe` against servers started here: one that speaks only Chat Completions, a gateway
that answers 502, one that serves Responses but not streams, one that refuses the key, the
project's fake server, and none at all; the requests it sends, checked against the SDK's types;
and no other command opening a socket."""

from __future__ import annotations

import json
import os
import re
import socket
import subprocess
import sys
import threading
import typing
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Callable, Dict, List, Optional, Tuple

import jsonschema
import pytest
from openai.types.chat import completion_create_params
from openai.types.responses import (
    FunctionToolParam,
    ResponseFormatTextJSONSchemaConfigParam,
    ResponseTextConfigParam,
    ToolChoiceOptions,
    response_create_params,
)
from typer.testing import CliRunner

from migrator import cli, probe
from migrator.probe import Answer, Verdict
from migrator.session import PROBE_EXIT_CODES, ExitCode
from tests.equivalence.fake_openai import FakeOpenAI
from tests.equivalence.scenario import JsonAnswer, TextAnswer, ToolCall, ToolCalls

ROOT = Path(__file__).resolve().parent.parent
# Plain output, and no proxy between the probe and the servers on 127.0.0.1.
ENV = {"FORCE_COLOR": None, "TTY_COMPATIBLE": None, "NO_COLOR": None, "COLUMNS": "200", "OPENAI_API_KEY": None,
       "http_proxy": None, "HTTP_PROXY": None, "all_proxy": None, "ALL_PROXY": None}
KEY = "sk-probe-secret-0123456789"
CHAT_ROW = "Chat Completions (POST /chat/completions)"
PLAIN_ROW = "Responses (POST /responses)"
STREAM_ROW = "Responses, streamed (POST /responses)"
TOOL_ROW = "Responses, function tool (POST /responses)"
SCHEMA_ROW = "Responses, text.format json_schema (POST /responses)"
MODELS_ROW = "Model list (GET /models)"
JSON_SCHEMA = ROOT / "schemas" / "probe-report.schema.json"
LM_STUDIO_404 = "Unexpected endpoint or method. (POST /v1/responses)"

Reply = Tuple[int, str, bytes]  # status, content type, body
Route = Callable[[str, str, Optional[dict], Dict[str, str]], Reply]  # method, path, JSON body, headers


# --- servers ------------------------------------------------------------------------------------


class Server:
    """An HTTP server on 127.0.0.1 in a thread, answering every request with `route`; records the requests."""

    def __init__(self, route: Route) -> None:
        self.requests: List[Tuple[str, str, Optional[dict], Dict[str, str]]] = []
        server = self

        class Handler(BaseHTTPRequestHandler):
            def _answer(self) -> None:
                raw = self.rfile.read(int(self.headers.get("Content-Length") or 0))
                request = (self.command, self.path, json.loads(raw) if raw else None, dict(self.headers))
                server.requests.append(request)
                status, content_type, body = route(*request)
                self.send_response(status)
                self.send_header("Content-Type", content_type)
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            do_GET = do_POST = _answer

            def log_message(self, format: str, *args: object) -> None:  # noqa: A002 - the stdlib's name
                """Quiet: `requests` is the record."""

        self._httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self._thread = threading.Thread(target=self._httpd.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True)

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self._httpd.server_address[1]}/v1"

    def __enter__(self) -> "Server":
        self._thread.start()
        return self

    def __exit__(self, *exc_info: object) -> None:
        self._httpd.shutdown()
        self._httpd.server_close()
        self._thread.join()


def as_json(status: int, payload: object) -> Reply:
    return status, "application/json", json.dumps(payload).encode()


CHAT_COMPLETION = {
    "id": "chatcmpl-1", "object": "chat.completion", "created": 0, "model": "local-model",
    "choices": [{"index": 0, "message": {"role": "assistant", "content": "OK"}, "finish_reason": "stop"}],
}
MODEL_LIST = {"object": "list", "data": [{"id": "local-model", "object": "model"}, {"id": "other", "object": "model"}]}


def chat_only(method: str, path: str, body: Optional[dict], headers: Dict[str, str]) -> Reply:
    """LM Studio, llama.cpp, older vLLM and Ollama: models and Chat Completions, 404 for the rest."""
    if (method, path) == ("GET", "/v1/models"):
        return as_json(200, MODEL_LIST)
    if (method, path) == ("POST", "/v1/chat/completions"):
        return as_json(200, CHAT_COMPLETION)
    return as_json(404, {"error": f"Unexpected endpoint or method. ({method} {path})"})


def bad_gateway(method: str, path: str, body: Optional[dict], headers: Dict[str, str]) -> Reply:
    """A gateway whose upstream serves Chat Completions only: `/responses` fails upstream."""
    if path == "/v1/responses":
        return 502, "text/html", b"<html><body><h1>502 Bad Gateway</h1></body></html>"
    return chat_only(method, path, body, headers)


def response_to(body: dict) -> dict:
    """A Response for the request `body`: a function call when it has tools, JSON when it asks for it."""
    if body.get("tools"):
        item = {"type": "function_call", "id": "fc_1", "call_id": "call_1", "name": body["tools"][0]["name"],
                "arguments": "{}", "status": "completed"}
    else:
        text = '{"answer": "OK"}' if "text" in body else "OK"
        item = {"type": "message", "id": "msg_1", "role": "assistant", "status": "completed",
                "content": [{"type": "output_text", "text": text, "annotations": []}]}
    return {"id": "resp_1", "object": "response", "status": "completed", "model": body["model"], "output": [item]}


def responses_without_streams(method: str, path: str, body: Optional[dict], headers: Dict[str, str]) -> Reply:
    """Serves Responses, and answers a streamed request with the whole Response as JSON."""
    if path == "/v1/responses" and body is not None:
        return as_json(200, response_to(body))
    return chat_only(method, path, body, headers)


def key_refused(method: str, path: str, body: Optional[dict], headers: Dict[str, str]) -> Reply:
    """A gateway that checks the key first, and quotes the header it got (some do)."""
    return as_json(401, {"error": {"message": f"Invalid authorization header: {headers.get('Authorization')}"}})


def not_found(method: str, path: str, body: Optional[dict], headers: Dict[str, str]) -> Reply:
    """A base URL without `/v1`, say: nothing is where the probe looks."""
    return 404, "text/plain", b"404 page not found"


def run_probe(*args: str, env: Optional[Dict[str, Optional[str]]] = None):
    return CliRunner().invoke(cli.app, ["probe", "--timeout", "5", *args], env={**ENV, **(env or {})})


def rows(output: str) -> Dict[str, Tuple[str, str]]:
    """The table's rows by request: (status, result)."""
    requests = (MODELS_ROW, CHAT_ROW, PLAIN_ROW, STREAM_ROW, TOOL_ROW, SCHEMA_ROW)
    found = {}
    for line in output.splitlines():
        for request in requests:
            if line.startswith(request + "  "):
                status, result = re.split(r"\s{2,}", line[len(request):].strip(), maxsplit=1)
                found[request] = (status, result)
    return found


def verdict(output: str) -> str:
    [line] = [line for line in output.splitlines() if line.startswith("Verdict: ")]
    return line


# --- the kinds of server ---------------------------------------------------------------------------


def test_a_server_speaking_only_chat_completions_does_not_serve_responses():
    with Server(chat_only) as server:
        result = run_probe("--base-url", server.base_url)
    assert result.exit_code == ExitCode.NO_RESPONSES == 4
    table = rows(result.stdout)
    assert table[MODELS_ROW] == ("200", "ok")
    assert table[CHAT_ROW] == ("200", "ok")
    for row in (PLAIN_ROW, STREAM_ROW, TOOL_ROW, SCHEMA_ROW):
        assert table[row] == ("404", LM_STUDIO_404)
    assert verdict(result.stdout).startswith("Verdict: no-responses: the server does not serve the Responses API")
    # Without --model, the first model listed is asked for.
    assert "model `local-model`" in result.stdout
    assert [body["model"] for method, path, body, headers in server.requests if body] == ["local-model"] * 5


def test_a_gateway_answering_502_does_not_serve_responses():
    with Server(bad_gateway) as server:
        result = run_probe("--base-url", server.base_url, "--model", "gpt-oss")
    assert result.exit_code == ExitCode.NO_RESPONSES
    table = rows(result.stdout)
    assert MODELS_ROW not in table  # the model was given
    assert table[CHAT_ROW] == ("200", "ok")
    assert table[PLAIN_ROW] == ("502", "502 Bad Gateway")  # the page's text, without its markup's spacing
    assert [path for method, path, body, headers in server.requests] == ["/v1/chat/completions"] + ["/v1/responses"] * 4


def test_a_server_that_does_not_stream_responses_is_partial():
    with Server(responses_without_streams) as server:
        result = run_probe("--base-url", server.base_url, "--model", "m")
    assert result.exit_code == ExitCode.PARTIAL == 3
    table = rows(result.stdout)
    assert table[PLAIN_ROW] == table[TOOL_ROW] == table[SCHEMA_ROW] == ("200", "ok")
    assert table[STREAM_ROW] == ("200", "the answer is `application/json`, not an event stream: the server ignores `stream`")
    assert verdict(result.stdout) == (
        "Verdict: partial: the server serves plain Responses requests, but not: Responses, streamed; migrated code"
        " that uses these would break, code that uses none of them can migrate (--allow-other-servers)"
    )
    streamed = [headers for method, path, body, headers in server.requests if body and body.get("stream")]
    assert [headers["Accept"] for headers in streamed] == ["text/event-stream"]


def test_the_fake_openai_server_is_safe_and_every_request_is_valid():
    turns = [TextAnswer("OK"), TextAnswer("OK"), TextAnswer("OK"), ToolCalls((ToolCall("call_1", "get_time", "{}"),)),
             JsonAnswer({"answer": "OK"})]
    with FakeOpenAI() as server:
        server.load(turns)
        result = run_probe("--base-url", server.base_url, "--model", "gpt-4o-mini")
        assert server.violations == []
        assert server.remaining_turns == 0
    assert result.exit_code == ExitCode.CLEAN == 0
    assert set(rows(result.stdout).values()) == {("200", "ok")}
    assert verdict(result.stdout).startswith("Verdict: safe: the server serves the Responses API")


def test_the_fake_openai_server_without_a_function_call_is_partial():
    """A server that accepts `tools` but answers with text has not served the tool."""
    with FakeOpenAI() as server:
        server.load([TextAnswer("OK")] * 4 + [JsonAnswer({"answer": "OK"})])
        result = run_probe("--base-url", server.base_url, "--model", "gpt-4o-mini")
    assert result.exit_code == ExitCode.PARTIAL
    status, result_text = rows(result.stdout)[TOOL_ROW]
    assert status == "200" and result_text.startswith("no `function_call` item in the output")


def test_no_server_at_all_is_unreachable_and_nothing_more_is_sent():
    with socket.socket() as unused:
        unused.bind(("127.0.0.1", 0))
        port = unused.getsockname()[1]
    result = run_probe("--base-url", f"http://127.0.0.1:{port}/v1", "--model", "m")
    assert result.exit_code == ExitCode.UNREACHABLE == 5
    table = rows(result.stdout)
    assert table[CHAT_ROW][0] == "no answer" and table[CHAT_ROW][1].startswith("cannot connect:")
    assert table[PLAIN_ROW] == ("-", "not sent: the server did not answer an earlier request")
    assert verdict(result.stdout).startswith("Verdict: unreachable: the server did not answer `POST /chat/completions`")


def test_a_refused_key_leaves_it_undecided_and_the_key_is_never_printed():
    with Server(key_refused) as server:
        result = run_probe("--base-url", server.base_url, "--model", "m", "--api-key-env", "PROBE_KEY",
                           env={"PROBE_KEY": KEY})
        sent = {headers.get("Authorization") for method, path, body, headers in server.requests}
    assert sent == {f"Bearer {KEY}"}
    assert result.exit_code == ExitCode.UNDECIDED == 6
    assert rows(result.stdout)[PLAIN_ROW] == ("401", "Invalid authorization header: Bearer [API key]")
    assert KEY not in result.output
    assert "API key ($PROBE_KEY): sent" in result.stdout
    assert verdict(result.stdout) == (
        "Verdict: undecided: `/responses` answered 401, which says nothing about whether the server implements it"
    )


def test_nothing_where_chat_completions_should_be_leaves_it_undecided():
    with Server(not_found) as server:
        result = run_probe("--base-url", server.base_url.removesuffix("/v1"), "--model", "m")
    assert result.exit_code == ExitCode.UNDECIDED
    assert rows(result.stdout)[PLAIN_ROW] == ("404", "404 page not found")
    assert "check the base URL (it usually ends in `/v1`)" in verdict(result.stdout)


def test_without_a_model_given_or_listed_nothing_else_is_sent():
    with Server(not_found) as server:
        result = run_probe("--base-url", server.base_url)
    assert result.exit_code == ExitCode.UNDECIDED
    assert rows(result.stdout) == {MODELS_ROW: ("404", "404 page not found")}
    assert [path for method, path, body, headers in server.requests] == ["/v1/models"]
    assert verdict(result.stdout) == "Verdict: undecided: no model given (--model), and the server lists none to use"


def test_no_key_is_sent_when_the_variable_is_not_set():
    with Server(chat_only) as server:
        result = run_probe("--base-url", server.base_url + "/", "--model", "m")
    assert "API key ($OPENAI_API_KEY): not set, so none sent" in result.stdout
    assert all("Authorization" not in headers for method, path, body, headers in server.requests)
    assert {path for method, path, body, headers in server.requests} == {"/v1/chat/completions", "/v1/responses"}


def test_json_output_holds_the_rows_the_verdict_and_the_exit_code():
    with Server(responses_without_streams) as server:
        result = run_probe("--base-url", server.base_url, "--output-format", "json")
    document = json.loads(result.stdout)
    schema = json.loads(JSON_SCHEMA.read_text())
    jsonschema.validate(document, schema)
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate({**document, "verdict": "fine"}, schema)
    ids = schema["properties"]["requests"]["items"]["properties"]["id"]["enum"]
    assert ids == [check.id for check in (probe.MODELS, *probe.CHECKS)]
    assert result.exit_code == document["exit_code"] == ExitCode.PARTIAL
    assert document["version"] == 1 and document["verdict"] == "partial" and document["model"] == "local-model"
    assert document["api_key"] == {"variable": "OPENAI_API_KEY", "sent": False}
    assert [(row["id"], row["status"], row["ok"]) for row in document["requests"]] == [
        ("models", 200, True), ("chat_completions", 200, True), ("responses", 200, True),
        ("responses_stream", 200, False), ("responses_function_tool", 200, True), ("responses_json_schema", 200, True),
    ]


# --- how answers are judged ------------------------------------------------------------------------


def sse(*events: dict) -> Answer:
    return Answer(200, "text/event-stream; charset=utf-8", events=events)


@pytest.mark.parametrize(
    "answer, problem",
    [
        pytest.param(sse({"type": "response.created"}, {"type": "response.output_text.delta"}, {"type": "response.completed"}),
                     None, id="a complete stream"),
        pytest.param(sse({"type": "response.created"}, {"type": "response.completed"}),
                     "no `response.output_text.delta` event in the stream (events seen: response.created, response.completed)",
                     id="no text deltas"),
        pytest.param(sse({"type": "response.output_text.delta"}),
                     "no `response.completed` event in the stream (events seen: response.output_text.delta)",
                     id="cut short"),
        pytest.param(sse({"type": "error", "message": "streaming is not supported"}),
                     "the stream reports an error: streaming is not supported", id="an error event"),
        pytest.param(sse({"type": "response.failed", "response": {"error": {"message": "model crashed"}}}),
                     "the stream reports an error: model crashed", id="a failed response"),
    ],
)
def test_streams_are_judged_by_their_events(answer: Answer, problem: Optional[str]):
    assert probe.RESPONSES_STREAM.judge(answer) == problem


def test_a_response_with_free_text_does_not_follow_the_schema():
    answer = Answer(200, "application/json", json.dumps(response_to({"model": "m"})).encode())
    assert probe.RESPONSES_JSON_SCHEMA.judge(answer) == (
        "the output text is not JSON following the schema: the server ignores `text.format` ('OK')"
    )
    assert probe.RESPONSES.judge(answer) is None


def test_a_chat_completion_is_not_a_response():
    answer = Answer(200, "application/json", json.dumps(CHAT_COMPLETION).encode())
    assert probe.RESPONSES.judge(answer) == 'the answer is not a Response (no `object: "response"` with an `output` list)'
    assert probe.CHAT.judge(answer) is None


@pytest.mark.parametrize(
    "body, text",
    [
        (b'{"error": {"message": "Not Found", "type": "invalid_request_error"}}', "Not Found"),
        (b'{"error": "Unexpected endpoint or method. (POST /v1/responses)"}', LM_STUDIO_404),
        (b'{"object": "error", "message": "The model `x` does not exist.", "code": 404}', "The model `x` does not exist."),
        (b'{"detail": "Not Found"}', "Not Found"),
        (b'{"detail": [{"loc": ["body", "input"], "msg": "field required"}]}',
         '[{"loc": ["body", "input"], "msg": "field required"}]'),
        (b"", "(no error text)"),
        (b"x" * 400, "x" * (probe.MAX_ERROR_TEXT - 1) + "\u2026"),
    ],
)
def test_error_text_is_read_as_each_server_writes_it(body: bytes, text: str):
    assert probe._error_text(body) == text


# --- the requests, against the SDK's types ---------------------------------------------------------


def keys_of(typed_dict: type) -> Tuple[frozenset, frozenset]:
    """(required keys, all keys) of a TypedDict."""
    return typed_dict.__required_keys__, frozenset(typing.get_type_hints(typed_dict))


@pytest.mark.parametrize("check", probe.CHECKS[1:], ids=lambda check: check.id)
def test_responses_requests_are_valid_for_the_sdk(check: probe.Check):
    params = response_create_params.ResponseCreateParamsStreaming if check.streams else response_create_params.ResponseCreateParamsNonStreaming
    required, allowed = keys_of(params)
    assert required <= {"model", *check.body} and set(check.body) <= allowed
    for tool in check.body.get("tools", []):
        required, allowed = keys_of(FunctionToolParam)
        assert required <= set(tool) <= allowed
    if "tool_choice" in check.body:
        assert check.body["tool_choice"] in typing.get_args(ToolChoiceOptions)
    if "text" in check.body:
        assert set(check.body["text"]) <= keys_of(ResponseTextConfigParam)[1]
        required, allowed = keys_of(ResponseFormatTextJSONSchemaConfigParam)
        assert required <= set(check.body["text"]["format"]) <= allowed


def test_the_chat_request_is_valid_for_the_sdk():
    required, allowed = keys_of(completion_create_params.CompletionCreateParamsNonStreaming)
    assert required <= {"model", *probe.CHAT.body} and set(probe.CHAT.body) <= allowed


def test_every_verdict_has_its_own_exit_code():
    assert set(PROBE_EXIT_CODES) == {verdict.value for verdict in Verdict}
    schema = json.loads(JSON_SCHEMA.read_text())["properties"]
    assert schema["verdict"]["enum"] == list(PROBE_EXIT_CODES)
    assert schema["exit_code"]["enum"] == list(PROBE_EXIT_CODES.values())
    assert PROBE_EXIT_CODES["safe"] == ExitCode.CLEAN
    codes = [code for verdict, code in PROBE_EXIT_CODES.items() if verdict != "safe"]
    assert len(set(codes)) == len(codes) and not {ExitCode.FOUND, ExitCode.ERROR} & set(codes)


# --- nothing else talks to the network --------------------------------------------------------------

REFUSE_SOCKETS = """
import sys

def refuse(event, args):
    if event in ("socket.connect", "socket.getaddrinfo", "socket.gethostbyname", "socket.sendto"):
        raise RuntimeError(f"opened a connection: {event} {args}")

sys.addaudithook(refuse)
sys.argv = ["migrator", *sys.argv[1:]]
from migrator.quick import main
main()
"""
PLAIN_SUBPROCESS = {**{name: value for name, value in os.environ.items() if name not in ENV}, "NO_COLOR": "1"}
LOCAL_CLIENT = (
    "from openai import OpenAI\n"
    'client = OpenAI(base_url="http://127.0.0.1:9/v1")\n'
    'resp = client.chat.completions.create(model="m", messages=[{"role": "user", "content": "Hi"}])\n'
    "print(resp.choices[0].message.content)\n"
)


@pytest.fixture
def project(tmp_path: Path) -> Path:
    (tmp_path / "local.py").write_text(LOCAL_CLIENT)
    (tmp_path / "plain.py").write_text("x = 1\n")
    return tmp_path


@pytest.mark.parametrize(
    "args, code",
    [
        (["check", "plain.py"], 0),
        (["check", "local.py"], 1),
        (["check", "--no-cache", "--output-format", "json", "."], 1),
        (["diff", "--allow-other-servers", "."], 0),
        (["apply", "--allow-other-servers", "--allow-dirty", "."], 0),
        (["rules"], 0),
        (["explain", "other_servers"], 0),
    ],
    ids=lambda value: " ".join(value) if isinstance(value, list) else str(value),
)
def test_no_other_command_opens_a_socket(project: Path, args: List[str], code: int):
    completed = subprocess.run(
        [sys.executable, "-c", REFUSE_SOCKETS, *args], cwd=project, capture_output=True, text=True,
        env=PLAIN_SUBPROCESS,
    )
    assert "opened a connection" not in completed.stdout + completed.stderr
    assert completed.returncode == code, completed.stderr


def test_the_hook_in_that_test_catches_a_connection(project: Path):
    """The test above can fail: the same hook stops the probe."""
    completed = subprocess.run(
        [sys.executable, "-c", REFUSE_SOCKETS, "probe", "--base-url", "http://127.0.0.1:9/v1", "--model", "m"],
        cwd=project, capture_output=True, text=True, env=PLAIN_SUBPROCESS,
    )
    assert "opened a connection: socket." in completed.stdout + completed.stderr


def test_the_http_client_is_loaded_only_by_probe(project: Path):
    code = (
        "import sys; from migrator.quick import main; sys.argv = ['migrator', 'check', 'local.py'];\n"
        "try:\n    main()\nexcept SystemExit:\n    pass\n"
        "print(sorted(name for name in ('migrator.probe', 'urllib.request', 'http.client') if name in sys.modules))"
    )
    completed = subprocess.run([sys.executable, "-c", code], cwd=project, capture_output=True, text=True,
                               env=PLAIN_SUBPROCESS)
    assert completed.stdout.splitlines()[-1] == "[]"


# --- the README -------------------------------------------------------------------------------------


def readme_section() -> str:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    return text[text.index("## Probing a server"):text.index("## Configuration")]


def test_the_readme_example_is_what_a_chat_only_server_gets():
    example = re.search(r"```text\n(.*?)```", readme_section(), re.DOTALL).group(1)
    with Server(chat_only) as server:
        result = run_probe("--base-url", server.base_url)
    assert result.stdout.replace(server.base_url, "http://gpu-box:8000/v1") == example


def test_the_readme_gives_each_verdict_its_exit_code():
    documented = dict(re.findall(r"^\| `([a-z-]+)` \| (\d) \|", readme_section(), re.MULTILINE))
    assert documented == {verdict: str(int(code)) for verdict, code in PROBE_EXIT_CODES.items()}
