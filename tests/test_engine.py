"""The file-level engine: prefilter, error isolation, ordering, parallel runs."""

from __future__ import annotations

import subprocess
import sys
import tracemalloc
from pathlib import Path

import pytest

from migrator.screen import LEGACY_KINDS, LEGACY_RESOURCES
from migrator.engine import run, transform_source
from migrator.model import Options, Position
from migrator.prefilter import CALL_SITE_TEXT, declarations, declared_needs, is_candidate, needed_texts
from migrator.registry import all_rules
from migrator.screen import needs_libcst
from tests.fixture_cases import all_cases
from tests.sources import THREE_CALLS

ROOT = Path(__file__).resolve().parent.parent
CALL = (ROOT / "fixtures/chat_completions_create/simple_call/before.py").read_bytes()


def test_prefilter_reads_the_same_needs_as_the_rules_declare():
    assert declared_needs() == {rule_id: rule.needs for rule_id, rule in all_rules().items()}


def test_prefilter_knows_which_rules_read_whole_modules_and_which_parts_of_them():
    assert {rule_id: d[1:] for rule_id, d in declarations().items()} == {
        rule_id: (
            bool(rule.module_hooks), rule.needs_imports, rule.needs_in_strings, rule.needs_calls_from,
            rule.needs_strings_sent_to, rule.needs_keywords, rule.needs_calls_of, rule.needs_string_values,
        )
        for rule_id, rule in all_rules().items()
    }


def test_every_legacy_call_goes_through_the_call_site_text():
    assert all(CALL_SITE_TEXT.decode() in resource for resource, _ in LEGACY_RESOURCES)


def test_the_methods_reported_where_handed_on_are_those_the_rules_migrate():
    assert LEGACY_KINDS == {kind for rule in all_rules().values() for kind in rule.calls}


def run_fresh(program: str) -> None:
    """Run ``program`` in a new Python process (what it imports is its own), failing if it fails."""
    subprocess.run([sys.executable, "-c", program], cwd=ROOT, check=True)


def assert_prefilter_keeps(source: bytes, options: Options) -> None:
    """Each finding's rule, alone, must make the file a candidate that the screen passes to
    LibCST; so must all rules for a change."""
    result = transform_source(source, options)
    for finding in result.findings:
        needs = needed_texts(selected=frozenset({finding.rule}))
        assert is_candidate(source, needs) and needs_libcst(source, needs), finding
    if result.changed:
        assert is_candidate(source, needed_texts()) and needs_libcst(source, needed_texts())


@pytest.mark.parametrize("case", all_cases(), ids=lambda c: c.id)
def test_prefilter_keeps_every_fixture_with_a_finding_or_a_change(case):
    assert_prefilter_keeps(case.before, case.options)


@pytest.mark.parametrize(
    "example, options",
    [
        pytest.param(example, Options(**{name: True for name in example.options}), id=f"{rule.id}-{index}")
        for rule in all_rules().values()
        for index, example in enumerate(rule.examples, 1)
    ],
)
def test_prefilter_keeps_every_rule_example_with_a_finding_or_a_change(example, options):
    assert_prefilter_keeps(example.before.encode(), options)


def test_prefilter_respects_rule_selection():
    assert needed_texts(selected=frozenset()) == ((), ())
    assert b"completions" in needed_texts(selected=frozenset({"chat_completions_create"})).at_call_sites


def test_a_common_word_a_rule_needs_makes_no_candidate_without_a_call_site():
    needs = needed_texts()
    assert not is_candidate(b"def function(messages, tools, stream):\n    return parse(stream)\n", needs)
    assert is_candidate(b"client.chat.completions.create(tools=tools)\n", needs)


SCREENED_OUT = (
    # `completions` and `messages` in a docstring (no call written), `.choices[` and `openai` in names of another library.
    b'"""Wraps client.chat.completions, which takes messages=[...]."""\n',
    b"from openai_helpers import ask\nprint(ask().choices[0].message.content)\n",
    b"import other.openai\nfrom .openai import Completion\nprint(Completion.create().choices[0])\n",
    # The strings hand-written requests and streams are found by, in a docstring and a comment.
    b'def post():\n    """Posts to /v1/chat/completions and reads up to [DONE]."""\n    # data: [DONE]\n',
    # The endpoint in a module that imports no HTTP library; openai types that are not Chat types.
    b"import json\nURL = 'https://api.openai.com/v1/chat/completions'\n",
    b"from openai.types.responses import Response\nfrom openai.types.beta import Assistant\n",
    # A class called Completion that is not openai's (the 1.0 client imported beside it).
    b"from openai import OpenAI\nfrom .types import Completion\nprint(Completion.create())\n",
    # The endpoint in a module that imports an HTTP library but calls nothing it imports.
    b"import httpx\nURL = 'https://api.openai.com/v1/chat/completions'\nprint(URL)\n",
    # The end of a stream, in a module whose code names no Chat Completions URL.
    b"# read from chat/completions\nif line == b'data: [DONE]': pass\n",
    # The endpoint tested and built in a module that sends it nowhere (a gateway's URL helpers).
    b"import httpx\ndef route(url):\n    if url.endswith('/chat/completions'):\n        return httpx.get('/health')\n"
    b"    return f'{url}/chat/completions'\n",
    # A client's server named but not set (a parameter, a comment), an Azure class not built.
    b"from openai import OpenAI\ndef make(base_url):\n    return OpenAI()  # the caller sets base_url\n",
    b"from openai import AzureOpenAI, OpenAI\nKINDS = (OpenAI, AzureOpenAI)\n",
    # A Chat method read into by a test's fake, not handed on: nothing the rules report.
    b"def test_asks(client):\n    client.chat.completions.create.assert_called_once()\n",
)


@pytest.mark.parametrize("source", SCREENED_OUT)
def test_candidates_without_what_any_rule_reads_are_not_parsed_with_libcst(source):
    assert is_candidate(source, needed_texts()) and not needs_libcst(source, needed_texts())
    program = (
        "import sys\nfrom migrator.engine import transform_source\n"
        f"result = transform_source({source!r})\n"
        "assert result.output == result.source and not result.findings\n"
        "assert 'libcst' not in sys.modules, 'LibCST imported'\n"
    )
    run_fresh(program)


@pytest.mark.parametrize(
    "source",
    [
        b"import openai\nprint(reply.choices[0])\n",
        b"from openai.types.chat import ChatCompletion\n",
        b"from openai.types import chat\n",
        b"import openai.types.responses\ndef f(c: openai.types.chat.ChatCompletion): pass\n",
        b"def f():\n    x = (c.chat).completions.with_raw_response.create()\n",
        b"x = (client.chat\n    .completions  # the resource\n    ).create()\n",  # a call no text search finds
        b"import asyncio\nasyncio.to_thread(client.chat.completions.create, model='m')\n",  # a method handed on uncalled
        b"from \\\n    openai.types.chat import ChatCompletion\n",
        b"import json as j, \\\n    openai\nprint(reply.choices[0])\n",
        b"def f(:\n    client.chat.completions.create()\n",  # Python cannot parse it: LibCST says why
        b'"""Wraps client.chat.completions.create(messages=...)."""\n',  # a call written in a docstring
        b"# before: client.beta.chat.completions.parse(...)\n",
        b"import httpx\nURL = f'{BASE}/v1/chat/completions'\nhttpx.post(URL)\n",
        b"from httpx import AsyncClient as Web\nasync def ask(web: Web): return await web.post('/chat/completions')\n",
        b"import requests\nBASE = 'https://api.openai.com/v1'\nURL = BASE + '/chat/completions'\nTARGET = URL\n"
        b"session = requests.Session()\nsession.request('POST', TARGET, json={})\n",
        b"import openai\nopenai.base_url = 'http://localhost:8000/v1'\n",
        b"import os\nfrom openai import OpenAI\nos.environ['OPENAI_BASE_URL'] = 'http://x'\nclient = OpenAI()\n",
        b"from openai import AzureOpenAI as Client\nclient = Client(api_version='2024-02-01')\n",
        b"import openai\nopenai.api_type = 'azure'\nopenai.api_version = '2024-02-01'\n",
        b"URL = f'{BASE}/chat/completions'\nif line == b'data: [DONE]': pass\n",
    ],
)
def test_the_screen_passes_the_imports_legacy_calls_and_strings_rules_read_and_what_python_cannot_parse(source):
    assert needs_libcst(source, needed_texts())


IMPORTS = (
    b"import openai\nimport openai.types.chat\nimport openai.types.chat as ct, requests\n"
    b"from openai.types.chat import ChatCompletion as C, ChatCompletionChunk\nfrom httpx import *\n"
    b"from . import openai\nfrom .openai import types\nfrom ..x.y import z\n"
    b"def f():\n    import aiohttp.client as c\n    from openai import (OpenAI,\n        AsyncOpenAI)\n"
)


@pytest.mark.parametrize(
    "source", [pytest.param(IMPORTS, id="imports")] + [pytest.param(case.before, id=case.id) for case in all_cases()]
)
def test_the_screen_reads_what_imports_bind_as_the_analysis_does(source):
    import ast

    import libcst as cst

    from migrator.analysis import ModuleAnalysis
    from migrator.screen import bound_by

    screened = [name for node in ast.walk(ast.parse(source)) if isinstance(node, (ast.Import, ast.ImportFrom)) for name in bound_by(node)]
    assert sorted(screened) == sorted(ModuleAnalysis(cst.parse_module(source)).imports.imported)


STRINGS = (
    b'"""Posts to chat/completions."""  " and reads up to [DONE]"\n',  # a docstring written in two parts
    b'("chat/completions"\n    "[DONE]")\n',
    b'x = "a" "/chat/completions" f"{b}[DONE]"\n',
    b'f"{x}/chat/completions" "[DONE]"\n',
    b'"/chat/completions" f"{x}" "[DONE]"\n',
    b"print(b'data: [DONE]', rb'/CHAT/COMPLETIONS')\n",
)


@pytest.mark.parametrize(
    "source", [pytest.param(s, id=f"strings-{n}") for n, s in enumerate(STRINGS)]
    + [pytest.param(case.before, id=case.id) for case in all_cases()],
)
@pytest.mark.parametrize("text", ["chat/completions", "[DONE]"])
def test_the_screen_sees_every_string_in_code_the_analysis_sees(source, text):
    import libcst as cst

    from migrator.analysis import ModuleAnalysis
    from migrator.prefilter import ModuleNeeds, Needs

    held = text.encode() in source and ModuleAnalysis(cst.parse_module(source)).nodes.strings_hold(text)
    rule = ModuleNeeds.declared(needs=(text,), imports=(), in_strings=(text,))
    assert not held or needs_libcst(source, Needs(at_call_sites=(), module_rules=(rule,)))


def test_what_imports_bind_reaches_the_modules_above_and_below_it():
    from migrator.screen import reaches

    chat = ("openai.types.chat",)
    assert reaches(["openai"], chat) and reaches(["openai.types"], chat) and reaches(["openai.types.chat"], chat)
    assert reaches(["openai.types.chat.ChatCompletion"], chat)
    assert not reaches(["openai.types.responses", "openai.OpenAI", "openai.types.chatter"], chat)
    assert not reaches(["openaix", "my.openai"], ("openai",))


def test_the_cycle_collector_is_back_on_after_a_module_whatever_happened_to_it():
    import gc

    import libcst as cst

    assert transform_source(CALL).changed and gc.isenabled()
    with pytest.raises(cst.ParserSyntaxError):
        transform_source(b"def f(:\n    client.chat.completions.create()\n")
    assert gc.isenabled()
    gc.disable()
    try:
        transform_source(CALL)
        assert not gc.isenabled()  # a caller's choice is kept
    finally:
        gc.enable()


def test_a_run_without_candidates_starts_no_process_pool(tmp_path):
    for number in range(12):  # enough files for a parallel run
        (tmp_path / f"m{number}.py").write_text("def answer(question):\n    return 42\n")
    program = (
        "import sys\nfrom pathlib import Path\nfrom migrator.engine import run\n"
        f"results = list(run([Path({str(tmp_path)!r})], jobs=2))\n"
        "assert len(results) == 12 and not any(r.findings or r.error for r in results)\n"
        "assert 'concurrent.futures.process' not in sys.modules, 'process pool loaded'\n"
    )
    run_fresh(program)


def test_a_migration_that_changes_no_import_leaves_libcst_matchers_unloaded():
    # They cost more to load than LibCST itself, in every process that parses a candidate.
    program = (
        "import sys\nfrom migrator.engine import transform_source\n"
        f"assert transform_source({CALL!r}).changed\n"
        "assert 'libcst.matchers' not in sys.modules, 'matchers imported'\n"
    )
    run_fresh(program)


def test_bad_files_are_reported_and_the_run_goes_on(tmp_path):
    (tmp_path / "a_syntax.py").write_text("def f(:\n    client.chat.completions.create()\n")
    (tmp_path / "b_encoding.py").write_bytes(b"x = '\xff\xfe completions'\n")
    (tmp_path / "c_good.py").write_bytes(CALL)
    results = {r.path.name: r for r in run([tmp_path])}
    assert "syntax error" in results["a_syntax.py"].error
    assert results["b_encoding.py"].error
    assert results["c_good.py"].error is None and results["c_good.py"].changed


def test_missing_path_is_an_error_result(tmp_path):
    [result] = list(run([tmp_path / "nope.py"]))
    assert result.error and result.result is None


def test_internal_errors_are_isolated(tmp_path, monkeypatch):
    import migrator.engine as engine

    def explode(*arguments):
        raise RuntimeError("boom")

    monkeypatch.setattr(engine, "transform_source", explode)
    (tmp_path / "a.py").write_bytes(CALL)
    [result] = list(run([tmp_path], jobs=1))
    assert result.error.startswith("internal error: RuntimeError: boom")


@pytest.mark.parametrize("jobs", [1, 2])
def test_a_run_holds_a_bounded_number_of_sources_whatever_the_number_of_files(tmp_path, jobs):
    big_line = b"x = 1  # " + b"padding " * 8 + b"\n"
    source = big_line * (50_000 // len(big_line))  # 50 kB, not a candidate

    def peak_while_consuming(count: int) -> int:
        folder = tmp_path / str(count)
        folder.mkdir()
        for index in range(count):
            (folder / f"m{index:03}.py").write_bytes(source)
        tracemalloc.start()
        for _ in run([folder], jobs=jobs):
            pass  # a consumer that keeps nothing
        peak = tracemalloc.get_traced_memory()[1]
        tracemalloc.stop()
        return peak

    small, large = peak_while_consuming(20), peak_while_consuming(200)
    assert large - small < 50 * len(source), (small, large)  # holding them all would add 180 sources


def test_a_slow_candidate_does_not_keep_the_next_candidates_from_starting():
    """In a tree where candidates are rare, the files waiting behind a slow one must not use up
    the window: the other workers would stand idle."""
    from concurrent.futures import Future

    from migrator import engine

    started = []

    class Pipeline:
        def start(self, path):
            if not path.name.startswith("candidate"):
                return engine.FileResult(path=path, result=engine.SourceResult(source=b"", output=b""))
            started.append(path)
            return engine._Transforming(path, b"", None, Future())  # never done: a slow file

        def finish(self, entry):
            raise AssertionError(f"waited for {entry.path} after starting {len(started)} candidates")

    files = [Path(f"{kind}{index}.py") for index in range(20) for kind in ["candidate"] + ["plain"] * 20]
    with pytest.raises(AssertionError, match="waited for candidate0.py after starting 8 candidates"):
        list(engine._in_order(files, Pipeline(), candidates=8, waiting=256))
    started.clear()
    with pytest.raises(AssertionError, match="waited for candidate0.py after starting 3 candidates"):
        list(engine._in_order(files, Pipeline(), candidates=8, waiting=50))  # the bound on sources held


def test_run_knows_how_many_results_there_will_be_before_reading_any_file(tmp_path):
    for name in ("a.py", "b.py", "c.py"):
        (tmp_path / name).write_bytes(CALL)
    results = run([tmp_path, tmp_path / "missing.py"])
    assert results.total == 4
    assert len(list(results)) == 4


def test_parallel_and_serial_runs_give_identical_results(tmp_path):
    for index in range(12):
        (tmp_path / f"m{index:02}.py").write_bytes(CALL if index % 3 else b"x = 1\n")
    serial = [(r.path, r.result.output, r.findings) for r in run([tmp_path], jobs=1)]
    parallel = [(r.path, r.result.output, r.findings) for r in run([tmp_path], jobs=2)]
    assert serial == parallel
    assert [p for p, _, _ in serial] == sorted(p for p, _, _ in serial)


def test_parallel_and_serial_check_print_the_same(tmp_path):
    from typer.testing import CliRunner

    from migrator import cli

    for index in range(12):
        (tmp_path / f"m{index:02}.py").write_bytes(CALL if index % 3 else b"x = 1\n")
    serial, parallel = (
        CliRunner().invoke(cli.app, ["check", "--no-cache", "--jobs", jobs, str(tmp_path)]) for jobs in ("1", "2")
    )
    assert (serial.exit_code, serial.stdout) == (parallel.exit_code, parallel.stdout)
    assert serial.exit_code == 1 and serial.stdout.count("\n") == 8


def test_files_without_candidates_never_import_libcst(tmp_path):
    (tmp_path / "plain.py").write_text("print('hello')\n")
    code = (
        "import sys; from pathlib import Path; from migrator.engine import run;"
        f"list(run([Path({str(tmp_path)!r})])); print('libcst' in sys.modules)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, check=True)
    assert out.stdout.strip() == "False"


@pytest.mark.parametrize(
    "call, spelled",
    [
        ("client.chat.completions.create(model='m', messages=[], max_tokens=5)", "`max_tokens=`"),
        ("params = {'model': 'm', 'messages': [], 'max_tokens': 5}\nclient.chat.completions.create(**params)",
         "`max_tokens` in `**params`"),
    ],
)
def test_a_parameter_whose_rule_is_not_selected_keeps_the_call_and_says_which_rule(call, spelled):
    source = f"from openai import OpenAI\nclient = OpenAI()\n{call}\n".encode()
    options = Options(ignore=frozenset({"request_parameters"}))
    result = transform_source(source, options)
    assert not result.changed
    assert any(f"{spelled} is migrated by rule `request_parameters`, which is not selected" in f.message for f in result.findings), result.findings


@pytest.mark.parametrize(
    "source, reported",
    [
        pytest.param(  # a URL naming the endpoint, in a module that imports no HTTP library
            'from mylib import post\nURL = "https://api.openai.com/v1/chat/completions"\npost(URL)\n',
            [],
            id="endpoint-without-http-library",
        ),
        pytest.param(  # the endpoint in a list of routes, in a module calling nothing of httpx's
            'import httpx\nROUTES = ["/v1/chat/completions"]\ndef f(timeout: float | httpx.Timeout):\n    return ROUTES\n',
            [],
            id="endpoint-without-http-calls",
        ),
        pytest.param(  # the end of a stream, with the endpoint only in a comment
            "import httpx\n# streams from /v1/chat/completions\nif line == 'data: [DONE]':\n    pass\n",
            [],
            id="sentinel-without-endpoint-string",
        ),
        pytest.param(  # openai types, none of them Chat types: the rule reading those is not offered it
            'from openai.types.responses import Response\ndef f(r: "openai.types.responses.Response"): pass\n',
            [],
            id="no-chat-types-reached",
        ),
        pytest.param(  # a string annotation naming openai, without the text the Chat types rule needs
            'import openai\ndef f(client: "openai.OpenAI"):\n    return client.api_key\n',
            [],
            id="without-a-rules-needs",
        ),
        pytest.param(  # an imported Chat type, in a module nothing migrates
            "from openai.types.chat import ChatCompletion\nprint(ChatCompletion.model_fields)\n",
            ["chat_type_imports"],
            id="chat-type-in-unmigrated-module",
        ),
    ],
)
def test_module_rules_answer_without_scopes_where_no_answer_needs_them(source, reported):
    """Scopes cost several parses: a rule asks for them only where its answer depends on them."""
    import libcst as cst

    from migrator.analysis import ModuleAnalysis
    from migrator.planner import plan_module

    analysis = ModuleAnalysis(cst.parse_module(source))
    plan = plan_module(analysis, Options())
    assert [finding.rule for finding in plan.findings] == reported
    assert "scopes" not in vars(analysis.bindings)  # never resolved
    assert reported or "positions" not in vars(analysis.nodes)  # nothing reported: the module never printed




def test_every_finding_about_a_call_carries_where_the_call_starts():
    findings = transform_source(THREE_CALLS.encode()).findings
    assert [(f.rule, f.line, f.call) for f in findings] == [
        ("chat_completions_create", 7, Position(7, 12)),
        ("untraced_result", 15, Position(11, 12)),  # blocked at the read, four lines below the call
        ("chat_completions_create", 20, Position(20, 12)),
    ]


def test_a_note_on_a_migrated_call_carries_where_the_call_starts():
    source = b"from openai import OpenAI\n\ndef third(q):\n    return OpenAI().chat.completions.create(model='m', messages=[])\n"
    findings = transform_source(source).findings
    assert [(f.rule, f.line, f.call) for f in findings] == [
        ("chat_completions_create", 4, Position(4, 12)),
        ("untraced_result", 4, Position(4, 12)),  # `third` will return a Response: its callers outside the project
    ]


def test_findings_about_no_call_carry_none():
    source = b"from openai.types.chat import ChatCompletion\nprint(ChatCompletion.model_fields)\n"
    [finding] = transform_source(source).findings
    assert (finding.rule, finding.call) == ("chat_type_imports", None)


def test_a_call_on_a_client_not_proved_openai_is_the_call_its_finding_is_about():
    source = b"import openai\n\ndef ask(client):\n    return client.chat.completions.create(model='m', messages=[])\n"
    [finding] = transform_source(source).findings
    assert (finding.rule, finding.line, finding.call) == ("unresolved_client", 4, Position(4, 12))


@pytest.mark.skipif(sys.version_info >= (3, 12), reason="this Python compiles quotes reused inside an f-string")
def test_a_rewrite_this_python_cannot_compile_is_refused():
    import libcst as cst

    from migrator.engine import RewriteError, _checked_output

    source = b'print(f"{role}: {text}")\n'
    newer_only = cst.parse_module(b'print(f"{"assistant"}: {text}")\n')  # LibCST reads 3.12's f-strings
    with pytest.raises(RewriteError, match="would not compile with this Python"):
        _checked_output(source, cst.parse_module(source), newer_only)
    assert _checked_output(source, cst.parse_module(source), cst.parse_module(b"print(text)\n")) == b"print(text)\n"


@pytest.mark.parametrize(
    "after, offered",
    [
        ("", True),  # only the printed dump holds the call back: --unsafe-fixes migrates it
        ("log = [resp]\n", False),  # and a use no fix follows: --unsafe-fixes changes nothing
    ],
)
def test_an_unsafe_fix_is_offered_only_where_it_lets_the_call_migrate(after, offered):
    source = (
        "from openai import OpenAI\n\n"
        "client = OpenAI()\n"
        'resp = client.chat.completions.create(model="gpt-4o-mini", messages=[{"role": "user", "content": "Hi"}])\n'
        "print(resp.model_dump())\n" + after
    ).encode()
    findings = transform_source(source).findings
    assert any(f.rule == "whole_response" for f in findings)
    assert any(f.unsafe_fix for f in findings) is offered
    assert (transform_source(source, Options(unsafe_fixes=True)).calls_migrated == 1) is offered
