"""Decisions that need the other modules of a project: the cases of several modules in
fixtures/, what the project index answers, and the cache of results that depend on it."""

from __future__ import annotations

import ast
import json
import shutil
from pathlib import Path
from typing import Dict, List

import pytest

from migrator import engine
from migrator.cache import Cache
from migrator.model import BuiltClient, FileResult, ImportedClient, Options, PassedDict, PassedList, ProjectFacts
from migrator.passed_values import CONTAINER, DEFAULT, EXPRESSION, OPENAI_CLIENT, UNSEEN
from migrator.project import IMPORT_STATEMENT, Project, _import_statements, project_root
from tests.fixture_cases import ProjectCase, finding_line, project_cases

CASES = project_cases()


def _write(root: Path, files: Dict[str, str]) -> None:
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")


def _run(root: Path, paths: List[str], options: Options = Options(), cache: Cache = None) -> List[FileResult]:
    results = list(engine.run([root / p for p in paths], options, jobs=1, cache=cache, project=Project(root=root)))
    assert all(r.error is None for r in results), [r.error for r in results]
    return results


def _finding_lines(root: Path, results: List[FileResult]) -> List[str]:
    return [
        f"{r.path.relative_to(root).as_posix()}:{finding_line(f)}" for r in results for f in r.findings
    ]


def _outputs(root: Path, results: List[FileResult]) -> Dict[str, bytes]:
    outputs = {path.relative_to(root).as_posix(): path.read_bytes() for path in root.rglob("*") if path.is_file()}
    for result in results:
        if result.result.source:
            outputs[result.path.relative_to(root).as_posix()] = result.result.output
    return outputs


def _copy(case: ProjectCase, tmp_path: Path) -> Path:
    root = tmp_path / "project"
    shutil.copytree(case.folder / "before", root)
    return root


@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
def test_project_fixture_output_and_findings(case, tmp_path):
    root = _copy(case, tmp_path)
    results = _run(root, case.paths, case.options)
    assert _outputs(root, results) == case.after_files
    if case.expected_findings is not None:
        assert _finding_lines(root, results) == case.expected_findings


@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
def test_project_fixture_is_idempotent(case, tmp_path):
    root = _copy(case, tmp_path)
    for name, data in _outputs(root, _run(root, case.paths, case.options)).items():
        (root / name).write_bytes(data)
    again = _run(root, case.paths, case.options)
    assert not [r.path for r in again if r.changed]


def test_the_project_cases_cover_what_crosses_modules():
    """The shapes a project phase must get right, each with a case (a case removed fails here)."""
    names = {case.folder.name for case in CASES}
    assert {
        "client_imported_from_another_module",
        "result_returned_to_another_module",
        "result_re_exported_by_a_package",
        "result_wrapped_by_a_package_is_reported",
        "method_read_in_another_module",
        "return_annotation_read_in_another_module",
        "method_results_an_importer_passes_on_are_reported",
        "result_read_outside_the_paths_given",
        "module_imported_dynamically",
        "imported_client_rebound",
        "method_overriding_a_base_in_another_module",
        "signature_called_from_another_module",
        "mocks_name_the_calls_of_the_modules_they_import",
        "helper_read_in_another_module",
        "result_read_unmappably_by_one_of_two_importers",
        "helper_imported_relatively_and_as_a_module",
        "async_helper_awaited_in_another_module",
        "history_given_by_other_modules",
        "history_given_by_other_modules_that_may_hold_other_messages_is_reported",
        "messages_imported_from_another_module_are_reported",
        "plain_messages_imported_from_another_module",
        "tool_call_helper_imported_by_another_module_is_reported",
        "content_parts_given_by_another_module_converted_where_sent",
        "format_parameter_given_by_other_modules",
        "format_parameter_another_module_gives_a_schema_is_reported",
        "max_tokens_given_by_another_module",
        "result_read_through_namespace_packages",
        "history_parameter_other_modules_give_tool_messages_is_reported",
        "result_of_a_call_on_an_imported_client_read_in_another_module",
        "result_of_a_call_on_an_imported_client_read_unmappably_is_reported",
        "modules_under_a_folder_no_import_can_name",
        "parse_whose_importer_handles_openai_errors_is_reported",
        "parse_whose_importer_handles_other_errors_is_migrated",
        "history_parameter_other_modules_give_content_parts_is_reported",
        "content_returned_to_a_module_comparing_it_with_none_is_reported",
        "content_returned_to_a_module_testing_it_for_truth_is_migrated",
        "token_limit_imported_from_another_module_below_16_is_reported",
        "token_limit_imported_from_another_module_of_16_or_more_is_migrated",
        "base_url_variable_set_by_a_dotenv_file_is_reported",
        "clients_under_a_dotenv_file_without_the_variable_are_migrated",
        "clients_declared_where_only_tests_build_one_for_another_server_are_migrated",
        "base_url_variable_set_by_an_imported_module_is_reported",
        "clients_of_modules_importing_no_base_url_variable_are_migrated",
        "clients_declared_where_another_module_builds_one_for_another_server_are_reported",
        "clients_declared_where_another_module_builds_one_for_another_server_are_migrated_when_allowed",
        "clients_declared_where_the_project_builds_only_openais_are_migrated",
        "result_read_by_a_notebook_of_the_project_is_reported",
        "result_of_an_import_bound_again_by_its_importer_is_reported",
        "result_read_by_a_script_putting_its_module_on_the_path_is_reported",
        "result_of_a_module_its_importer_uses_as_a_value_is_reported",
        "factories_imported_keeping_their_client_in_a_global",
        "client_of_a_package_imported_as_its_scripts_name_it",
        "client_of_a_namespace_package_imported_from_the_folder_above",
        "clients_bound_in_each_branch_of_an_if_in_another_module",
        "attribute_of_self_given_a_client_by_an_imported_getter",
        "method_of_a_class_other_modules_call_with_plain_messages",
        "method_of_a_class_other_modules_give_chat_shaped_messages_is_reported",
        "client_other_modules_pass_to_a_parameter",
    } <= names


# --- the crash the project phase prevents ----------------------------------------------------


@pytest.mark.parametrize(
    "name, program, turns",
    [
        ("result_returned_to_another_module", "from rag.llm import summary\nfrom rag.service import answer\n\nprint(answer('Why?'))\nprint(summary('text'))\n", 2),
        ("result_re_exported_by_a_package", "import sys\n\nsys.argv = ['cli', 'Why?']\nimport cli\nfrom report import report\n\nprint(report('text'))\n", 2),
        ("method_read_in_another_module", "import sys\n\nsys.argv = ['cli', 'Hi']\nimport main\nimport cli\n", 4),
    ],
)
def test_a_helper_whose_result_another_module_reads_still_runs_after_migration(tmp_path, name, program, turns):
    """Migrated alone, `complete()` would return a Response to a module reading `.choices`:
    the program would crash with AttributeError. Run both against the fake server."""
    from tests.equivalence.harness import Bench
    from tests.equivalence.scenario import load_scenario

    case = next(c for c in CASES if c.folder.name == name)
    original = _copy(case, tmp_path / "original")
    migrated = _copy(case, tmp_path / "migrated")
    for path, data in _outputs(migrated, _run(migrated, ["."])).items():
        (migrated / path).write_bytes(data)
    for root in (original, migrated):
        (root / "program.py").write_text(program, encoding="utf-8")
    scenario = tmp_path / "scenario.json"
    scenario.write_text(json.dumps({"turns": [{"type": "text", "text": f"Answer {n}."} for n in range(turns)]}))
    with Bench() as bench:
        before = bench.run(original / "program.py", load_scenario(scenario))
        after = bench.run(migrated / "program.py", load_scenario(scenario))
    assert before.exit_code == 0, before.stderr
    assert (after.exit_code, after.stdout) == (0, before.stdout), after.stderr
    assert "/v1/responses" in after.endpoints  # what could be migrated was


# --- what the index answers ------------------------------------------------------------------


LLM = "from openai import OpenAI\n\nclient = OpenAI()\n\n\ndef complete(q):\n    return client.chat.completions.create(model='m', messages=[{'role': 'user', 'content': q}])\n"


def _facts(root: Path, path: str, exported=(), imported=(), chat_calls=False, built_clients=False) -> ProjectFacts:
    file = root / path
    return Project(root=root).facts(file, file.read_bytes(), list(exported), list(imported), chat_calls=chat_calls, built_clients=built_clients)


@pytest.mark.parametrize(
    "importer, expected",
    [
        pytest.param("from pkg.llm import complete\n", ["main.py:1"], id="absolute"),
        pytest.param("import pkg.llm as llm\nllm.complete('x')\n", ["main.py:1"], id="module-alias"),
        pytest.param("from pkg import llm\nllm.complete('x')\n", ["main.py:1"], id="module-from-package"),
        pytest.param("from pkg import llm\nllm.other('x')\n", [], id="module-without-the-name"),
        pytest.param("from pkg.llm import *\ncomplete('x')\n", ["main.py:1"], id="star"),
        pytest.param("import importlib\nm = importlib.import_module('pkg.llm')\nm.complete('x')\n", ["main.py:2"], id="dynamic"),
        pytest.param("import importlib\nm = importlib.import_module(f'pkg.{name}')\n", ["main.py:2"], id="dynamic-prefix"),
        pytest.param("import importlib\nNAME = 'pkg.llm'\nm = importlib.import_module(NAME)\n", ["main.py:3"], id="dynamic-name-in-a-string"),
        pytest.param("import importlib\nm = importlib.import_module(f'other.{name}')\n", [], id="dynamic-elsewhere"),
        pytest.param("EXAMPLE = 'importlib.import_module(\"pkg.llm\")'\n", [], id="dynamic-import-written-in-a-string"),
        pytest.param("from other.llm import complete\n", [], id="another-module-of-the-same-name"),
        pytest.param("def complete():\n    pass\n", [], id="same-name-not-imported"),
    ],
)
def test_importers_of_a_function(tmp_path, importer, expected):
    _write(tmp_path, {"pkg/__init__.py": "", "pkg/llm.py": LLM, "main.py": importer, "other/__init__.py": "", "other/llm.py": ""})
    assert _facts(tmp_path, "pkg/llm.py", exported=["complete"]).importers_of("complete") == tuple(expected)


def test_importers_through_a_package_that_re_exports(tmp_path):
    _write(tmp_path, {
        "pkg/__init__.py": "from .llm import complete\n",
        "pkg/llm.py": LLM,
        "app/main.py": "from pkg import complete\n",
    })
    assert _facts(tmp_path, "pkg/llm.py", exported=["complete"]).importers_of("complete") == ("pkg/__init__.py:1", "app/main.py:1")


def test_relative_imports_resolve_against_the_importers_package(tmp_path):
    _write(tmp_path, {
        "pkg/__init__.py": "",
        "pkg/llm.py": LLM,
        "pkg/sub/__init__.py": "",
        "pkg/sub/use.py": "from ..llm import complete\n",
        "pkg/sibling.py": "from .llm import complete\n",
        "pkg/sub/llm.py": "",
        "pkg/sub/near.py": "from .llm import complete\n",  # pkg.sub.llm, not pkg.llm
    })
    found = _facts(tmp_path, "pkg/llm.py", exported=["complete"]).importers_of("complete")
    assert sorted(found) == ["pkg/sibling.py:1", "pkg/sub/use.py:1"]


def test_relative_imports_above_the_regular_packages_resolve_by_folder(tmp_path):
    """Folders without ``__init__.py`` are namespace packages, where relative imports are valid:
    the module a relative import names is found by its path."""
    _write(tmp_path, {
        ".git/HEAD": "",
        "main/client/ai/llm.py": LLM,
        "main/client/use.py": "from .ai.llm import complete\n",
        "main/client/ai/near.py": "from .llm import complete\n",
        "main/client/ai/whole.py": "from . import llm\nllm.complete('x')\n",
        "main/other/far.py": "from ..client.ai.llm import complete\n",
        "main/other/llm.py": "",
        "main/other/elsewhere.py": "from .llm import complete\n",  # main/other/llm.py
    })
    found = _facts(tmp_path, "main/client/ai/llm.py", exported=["complete"]).importers_of("complete")
    assert sorted(found) == ["main/client/ai/near.py:1", "main/client/ai/whole.py:1", "main/client/use.py:1", "main/other/far.py:1"]


def test_absolute_imports_through_folders_without_init_resolve_by_path(tmp_path):
    _write(tmp_path, {
        ".git/HEAD": "",
        "agent/llm.py": LLM,
        "main.py": "from agent.llm import complete\n",
        "cli.py": "import agent.llm as llm\nllm.complete('x')\n",
        "web.py": "from agent import llm\nllm.complete('x')\n",
        "other.py": "from elsewhere.llm import complete\n",
        "tools/run.py": "from agent.llm import complete\n",  # run from the project's root
    })
    found = _facts(tmp_path, "agent/llm.py", exported=["complete"]).importers_of("complete")
    assert sorted(found) == ["cli.py:1", "main.py:1", "tools/run.py:1", "web.py:1"]


def test_a_client_factory_imported_relatively_through_namespace_packages(tmp_path):
    _write(tmp_path, {
        ".git/HEAD": "",
        "main/client/client.py": "from openai import OpenAI\n\ndef get_client():\n    return OpenAI()\n",
        "main/client/ai/use.py": "from ..client import get_client\n",
    })
    assert _facts(tmp_path, "main/client/ai/use.py", imported=["get_client"]).client("get_client") == ImportedClient("get_client", "factory")


def test_the_clients_other_modules_build_for_other_servers(tmp_path):
    """What a client declared by an annotation may be: any client the project builds for
    another server, but the asker's own (its rule reads those itself)."""
    _write(tmp_path, {
        ".git/HEAD": "",
        "asker.py": "from openai import OpenAI\nown = OpenAI(base_url='http://localhost:8000/v1')\n",
        "config.py": "import os\nos.environ['OPENAI_BASE_URL'] = 'http://localhost:11434/v1'\n",
        "local.py": "import config\nfrom openai import OpenAI\nclient = OpenAI()\n",
        "hosts.py": (
            "from openai import AzureOpenAI, OpenAI\nregional = OpenAI(base_url='https://eu.api.openai.com/v1')\n"
            "hosted = OpenAI()\nazure = AzureOpenAI(api_version='2025-03-01-preview')\n"
        ),
        "settings.py": "import openai\n\ndef build(**settings):\n    return openai.OpenAI(**settings)\n",
        "later.py": (
            "from openai import OpenAI\n\nclass Bot:\n    def __init__(self, url):\n        self.client = OpenAI()\n"
            "        self.client.base_url = url\n        self.base_url = url\n"
        ),
        "sub.py": "import os\nfrom openai import OpenAI\n\nclass Local(OpenAI):\n    def __init__(self):\n        super().__init__(base_url=os.environ['URL'])\n",
        "api.py": "import openai\n\nclass Api:\n    def __init__(self, url):\n        self.base_url = url\n",
    })
    assert _facts(tmp_path, "asker.py", built_clients=True).built_clients == (
        BuiltClient("hosts.py:2", "`https://eu.api.openai.com/v1`", "https://eu.api.openai.com/v1"),
        BuiltClient("later.py:6", "the URL `url` holds at run time"),
        BuiltClient("local.py:3", "the URL the `OPENAI_BASE_URL` environment variable holds"),
        BuiltClient("settings.py:4", "a URL the arguments it is built with may hold"),
        BuiltClient("sub.py:4", "the URL `Local` gives its client"),
    )
    assert _facts(tmp_path, "asker.py").built_clients == ()


def test_a_declared_client_migrates_where_the_project_builds_clients_only_for_hosts_declared_openais(tmp_path):
    _write(tmp_path, {
        "main.py": "from openai import OpenAI\nfrom ask import ask\n\nprint(ask(OpenAI(base_url='https://llm.corp.example/v1'), 'Hi'))\n",
        "ask.py": (
            "from openai import OpenAI\n\ndef ask(client: OpenAI, q: str) -> str:\n"
            "    r = client.chat.completions.create(model='m', messages=[{'role': 'user', 'content': q}])\n"
            "    return r.choices[0].message.content or ''\n"
        ),
    })
    assert "other_servers" in {f.rule for r in _run(tmp_path, ["ask.py"]) for f in r.findings}
    declared = Options(openai_hosts=("*.corp.example",))
    assert [f.rule for r in _run(tmp_path, ["ask.py"], declared) for f in r.findings] == ["chat_completions_create"]


CALLS = "from openai import OpenAI\nclient = OpenAI()\nclient.chat.completions.create(model='m', messages=[])\n"


@pytest.mark.parametrize(
    "test, expected",
    [
        pytest.param("from app.llm import complete\n", ["app/llm.py:3"], id="name-from-a-module"),
        pytest.param("from app import llm\n", ["app/llm.py:3"], id="module-from-a-package"),
        pytest.param("import app.llm\n", ["app/llm.py:3"], id="whole-module"),
        pytest.param("from app.views import answer\n", ["app/views.py:2", "app/llm.py:3"], id="through-another-module-nearest-first"),
        pytest.param("from app import answer\n", ["app/views.py:2", "app/llm.py:3"], id="through-the-package"),
        pytest.param("from app.util import shout\nimport json\n", [], id="modules-without-calls"),
        pytest.param("from openai import OpenAI\n", [], id="no-project-module"),
    ],
)
def test_chat_calls_of_the_modules_a_test_imports(tmp_path, test, expected):
    _write(tmp_path, {
        "app/__init__.py": "from .views import answer\n",
        "app/llm.py": CALLS,
        "app/views.py": "from .llm import client\nclient.chat.completions.create(model='m', messages=[])\nfrom .util import shout\n",
        "app/util.py": "def shout(text):\n    return text.upper()\n",
        "tests/test_app.py": test,
    })
    assert _facts(tmp_path, "tests/test_app.py", chat_calls=True).chat_calls == tuple(expected)
    assert _facts(tmp_path, "tests/test_app.py").chat_calls == ()  # not asked


@pytest.mark.parametrize(
    "llm, expected",
    [
        pytest.param("from openai import OpenAI\nclient = OpenAI(timeout=5)\n", ImportedClient("client", "client"), id="made-here"),
        pytest.param("import openai\nclient = openai.AsyncOpenAI()\n", ImportedClient("client", "client"), id="module-spelling"),
        pytest.param("from openai import AzureOpenAI\nclient = AzureOpenAI(azure_endpoint=URL)\n", ImportedClient("client", "client", azure=True), id="azure"),
        pytest.param(
            "from openai import OpenAI\nclient = OpenAI(base_url='http://localhost:8000/v1')\n",
            ImportedClient("client", "client", "`http://localhost:8000/v1`"),
            id="other-server",
        ),
        pytest.param(
            "import os\nfrom openai import OpenAI\nclient = OpenAI()\nos.environ['OPENAI_BASE_URL']\n",
            ImportedClient("client", "client", "the URL the `OPENAI_BASE_URL` environment variable holds"),
            id="environment",
        ),
        pytest.param("from groq import Groq\nclient = Groq()\n", None, id="another-sdk"),
        pytest.param("from openai import OpenAI\nclient = OpenAI()\nclient = make()\n", None, id="bound-twice"),
        pytest.param("from openai import OpenAI\nclient = OpenAI()\ndef reset():\n    global client\n    client = make()\n", None, id="global"),
        pytest.param("from .base import client\n", ImportedClient("client", "client"), id="re-exported"),
    ],
)
def test_clients_made_in_another_module(tmp_path, llm, expected):
    _write(tmp_path, {
        "app/__init__.py": "",
        "app/llm.py": llm,
        "app/base.py": "from openai import OpenAI\nclient = OpenAI()\n",
        "app/use.py": "from .llm import client\n",
    })
    assert _facts(tmp_path, "app/use.py", imported=["client"]).client("client") == expected


def test_client_factories_in_another_module(tmp_path):
    _write(tmp_path, {
        "llm.py": (
            "from openai import AsyncOpenAI, AzureOpenAI, OpenAI\n\n"
            "def make():\n    return OpenAI()\n\n"
            "async def make_async():\n    return AsyncOpenAI()\n\n"
            "def maybe(flag):\n    if flag:\n        return OpenAI()\n    return other()\n\n"
            "def either(flag):\n    if flag:\n        return OpenAI()\n    return AzureOpenAI()\n"
        ),
        "use.py": "from llm import either, make, make_async, maybe\n",
    })
    facts = _facts(tmp_path, "use.py", imported=["make", "make_async", "maybe", "either"])
    assert facts.client("make") == ImportedClient("make", "factory")
    assert facts.client("make_async") == ImportedClient("make_async", "async factory")
    assert facts.client("maybe") is None
    assert facts.client("either") == ImportedClient("either", "factory", azure=True)  # its version is not read there


USER = PassedDict((("role", "user"), ("content", EXPRESSION)))
USER_X = PassedDict((("role", "user"), ("content", "x")))


@pytest.mark.parametrize(
    "caller, expected",
    [
        pytest.param("def ask(q):\n    return run([{'role': 'user', 'content': q}])\n", (PassedList((USER,)),), id="list-in-the-call"),
        pytest.param(
            "def ask(q):\n    m = [{'role': 'system', 'content': 'Hi'}]\n    m.append({'role': 'user', 'content': q})\n    return run(m)\n",
            (PassedList((PassedDict((("role", "system"), ("content", "Hi"))), USER)),),
            id="name-bound-right-before",
        ),
        pytest.param("def ask(q):\n    m = [{'role': 'user', 'content': q}]\n    run(m)\n    print(m)\n", (PassedList((USER,), shared=True),), id="read-after"),
        pytest.param("def ask(q):\n    m = [{'role': 'user', 'content': q}]\n    run(m)\n    run(m)\n", (PassedList((USER,), shared=True),), id="given-twice"),
        pytest.param("def ask(qs):\n    m = []\n    for q in qs:\n        run(m)\n", (PassedList((), shared=True),), id="bound-outside-the-loop"),
        pytest.param("def ask(q):\n    m = [{'role': 'user', 'content': q}]\n    return [run(m) for _ in range(2)]\n", (PassedList((USER,), shared=True),), id="in-a-comprehension"),
        pytest.param("m = [{'role': 'user', 'content': 'x'}]\nrun(m)\n", (CONTAINER,), id="module-level-name"),
        pytest.param("def ask(m):\n    return run(m)\n", (EXPRESSION,), id="callers-list"),
        pytest.param("def ask(q):\n    global m\n    m = [{'role': 'user', 'content': q}]\n    return run(m)\n", (CONTAINER,), id="global"),
        pytest.param(
            "def ask(url):\n    parts = [{'type': 'text', 'text': 'What?'}]\n    return run([{'role': 'user', 'content': parts}])\n",
            (PassedList((PassedDict((("role", "user"), ("content", CONTAINER))),)),),
            id="content-bound-to-a-list",
        ),
        pytest.param(
            "def ask(parts: list):\n    return run([{'role': 'user', 'content': parts}])\n",
            (PassedList((PassedDict((("role", "user"), ("content", CONTAINER))),)),),
            id="content-annotated-a-list",
        ),
        pytest.param(
            "def build():\n    return [{'type': 'text', 'text': 'x'}]\n\ndef ask():\n    return run([{'role': 'user', 'content': build()}])\n",
            (PassedList((PassedDict((("role", "user"), ("content", CONTAINER))),)),),
            id="content-a-function-returns",
        ),
        pytest.param(
            "def build(q):\n    m = [{'role': 'system', 'content': 'Be brief.'}]\n    m.append({'role': 'user', 'content': q})\n    return m\n\n"
            "def ask(q):\n    prompt = build(q)\n    return run(prompt)\n",
            (PassedList((PassedDict((("role", "system"), ("content", "Be brief."))), USER)),),
            id="list-a-function-of-the-module-builds",
        ),
        pytest.param("def build(q):\n    return [{'role': 'user', 'content': q}]\n\ndef ask(q):\n    return run(build(q))\n", (PassedList((USER,)),), id="list-a-function-returns"),
        pytest.param(
            "def build(q):\n    return [{'role': 'user', 'content': q}]\n\n"
            "def ask(q):\n    prompt = build(q)\n    prompt.append({'role': 'tool', 'tool_call_id': 'c', 'content': 'x'})\n    return run(prompt)\n",
            (EXPRESSION,),
            id="list-a-function-returns-added-to-before-the-call",
        ),
        pytest.param("KEPT = []\n\ndef build(q):\n    return KEPT\n\ndef ask(q):\n    return run(build(q))\n", (EXPRESSION,), id="list-a-function-keeps"),
        pytest.param("HANDLERS = [run]\n", (UNSEEN,), id="read-as-a-value"),
        pytest.param("def ask(kw):\n    return run(**kw)\n", (UNSEEN,), id="unpacked"),
        pytest.param("def ask():\n    return run()\n", (DEFAULT,), id="left-out"),
    ],
)
def test_what_other_modules_give_a_functions_parameter(tmp_path, caller, expected):
    _write(tmp_path, {"agent.py": "def run(messages=None):\n    return messages\n", "main.py": "from agent import run\n\n" + caller})
    assert _facts(tmp_path, "agent.py", exported=["run"]).passed_to("run", "messages") == expected


@pytest.mark.parametrize(
    "caller, expected",
    [
        pytest.param("Bot().run(5)\n", (5,), id="made-and-called"),
        pytest.param("def go():\n    bot = Bot()\n    bot.run(limit=6)\n", (6,), id="name-of-a-function"),
        pytest.param("bot = Bot()\n\ndef go():\n    bot.run(7)\n", (7,), id="module-name-read-in-a-function"),
        pytest.param("class App:\n    def __init__(self):\n        self.bot = Bot()\n\n    def go(self):\n        return self.bot.run(8)\n", (8,), id="attribute-of-self"),
        pytest.param("shared.run(9)\n", (9,), id="instance-the-module-makes"),
        pytest.param("Bot().run()\n", (DEFAULT,), id="left-out"),
        pytest.param("Bot().other(1)\n", (), id="another-method"),
        pytest.param("def go(limit: int, bot: Bot):\n    return limit\n", (), id="annotation"),
        pytest.param("bot = Bot()\nhandle(bot)\n", (UNSEEN,), id="instance-handed-on"),
        pytest.param("class Mine(Bot):\n    pass\n", (UNSEEN,), id="subclassed"),
        pytest.param("def go(other):\n    bot = Bot()\n    bot = other\n    bot.run(1)\n", (UNSEEN,), id="name-bound-to-something-else"),
        pytest.param("bot = Bot()\n\ndef go(q):\n    global bot\n    bot = q\n", (UNSEEN,), id="global"),
        pytest.param("Bot().run(*[1])\n", (UNSEEN,), id="unpacked"),
    ],
)
def test_what_other_modules_give_a_methods_parameter(tmp_path, caller, expected):
    _write(tmp_path, {
        "agent.py": "class Bot:\n    def run(self, limit=3):\n        return limit\n\n\nshared = Bot()\n",
        "main.py": "from agent import Bot, shared\n\n" + caller,
    })
    assert _facts(tmp_path, "agent.py", exported=["Bot.run"]).passed_to("Bot.run", "limit") == expected


@pytest.mark.parametrize(
    "caller, expected",
    [
        pytest.param("run(OpenAI())\n", OPENAI_CLIENT, id="built-in-the-call"),
        pytest.param("client = OpenAI(timeout=30)\n\ndef go():\n    run(client)\n", OPENAI_CLIENT, id="module-name"),
        pytest.param("def go():\n    client = OpenAI()\n    run(client)\n", OPENAI_CLIENT, id="function-name"),
        pytest.param("client = OpenAI(base_url='http://localhost:8000/v1')\nrun(client)\n", EXPRESSION, id="another-server"),
        pytest.param("client = AzureOpenAI(api_version='2024-02-01')\nrun(client)\n", EXPRESSION, id="azure"),
        pytest.param("client = Groq()\nrun(client)\n", EXPRESSION, id="another-sdk"),
        pytest.param("client = OpenAI()\n\ndef swap(other):\n    global client\n    client = other\n\nrun(client)\n", EXPRESSION, id="rebound-through-global"),
        pytest.param("def go(client):\n    run(client)\n", EXPRESSION, id="a-parameter"),
    ],
)
def test_what_other_modules_give_a_client_parameter(tmp_path, caller, expected):
    _write(tmp_path, {
        "agent.py": "def run(client):\n    return client\n",
        "main.py": "from groq import Groq\nfrom openai import AzureOpenAI, OpenAI\n\nfrom agent import run\n\n" + caller,
    })
    assert _facts(tmp_path, "agent.py", exported=["run"]).passed_to("run", "client") == (expected,)


@pytest.mark.parametrize(
    "importer, expected",
    [
        pytest.param("import agent\n\nagent.run([{'role': 'user', 'content': 'x'}])\n", (PassedList((USER_X,)),), id="called-through-it"),
        pytest.param("import agent as a\n\na.run([{'role': 'user', 'content': 'x'}])\n", (PassedList((USER_X,)),), id="renamed"),
        pytest.param("import agent\n\nBACKENDS = {'agent': agent}\nagent.run([{'role': 'user', 'content': 'x'}])\n", (UNSEEN,), id="used-as-a-value"),
        pytest.param("import agent\n\nrun = agent.run\nrun([])\n", (UNSEEN,), id="function-read-as-a-value"),
    ],
)
def test_a_module_importing_the_whole_module_gives_what_its_calls_through_it_pass(tmp_path, importer, expected):
    _write(tmp_path, {"agent.py": "def run(messages):\n    return messages\n", "main.py": importer})
    assert _facts(tmp_path, "agent.py", exported=["run"]).passed_to("run", "messages") == expected


def test_the_project_is_found_up_from_the_file_or_from_its_packages(tmp_path):
    _write(tmp_path, {"repo/pyproject.toml": "", "repo/src/pkg/__init__.py": "", "repo/src/pkg/a.py": "", "loose/pkg/__init__.py": "", "loose/pkg/b.py": ""})
    assert project_root(tmp_path / "repo/src/pkg/a.py") == (tmp_path / "repo").resolve()
    assert project_root(tmp_path / "loose/pkg/b.py") == (tmp_path / "loose").resolve()


def test_a_tree_without_questions_is_never_indexed(tmp_path, monkeypatch):
    """Only a module whose result depends on others makes the project read: most runs never do."""
    _write(tmp_path, {"a.py": "from openai import OpenAI\nc = OpenAI()\nr = c.chat.completions.create(model='m', messages=[])\n"})
    monkeypatch.setattr("migrator.project._python_files", lambda *args, **kwargs: pytest.fail("the project was indexed"))
    _run(tmp_path, ["."])


def test_a_project_given_whole_whose_modules_hold_no_call_is_not_followed(tmp_path, monkeypatch):
    """A run given the folder of a project reads all its modules anyway: when none holds a
    legacy call, no module's imports can reach one, and none is followed."""
    files = {
        "pkg/__init__.py": "",
        "pkg/llm.py": "def ask(q):\n    return q\n",
        "main.py": "from pkg.llm import ask\n\nprint(ask('x').choices[0].message.content)\n",
    }
    _write(tmp_path, files)
    followed = []
    monkeypatch.setattr("migrator.project._Tree.imported_origins", lambda self, module: followed.append(module) or iter(()))
    _run(tmp_path, ["."])
    assert followed == []
    (tmp_path / "pkg/llm.py").write_text("from openai import OpenAI\n\ndef ask(q):\n    return OpenAI().chat.completions.create(model='m', messages=[])\n")
    _run(tmp_path, ["."])
    assert followed


def test_a_module_transformed_for_a_module_importing_it_is_not_transformed_again_with_the_same_facts(tmp_path, monkeypatch):
    _write(tmp_path, {
        "a_main.py": "from llm import ask\n\nprint(ask('x').choices[0].message.content)\n",
        "llm.py": "from openai import OpenAI\n\ndef ask(q):\n    return OpenAI().chat.completions.create(model='m', messages=[{'role': 'user', 'content': q}])\n",
    })
    transformed = []
    transform_source = engine.transform_source
    monkeypatch.setattr(engine, "transform_source", lambda source, options, facts: transformed.append((source, facts)) or transform_source(source, options, facts))
    results = _run(tmp_path, ["."])
    assert sum(r.result.calls_migrated for r in results) == 1
    # Once alone, once with what the module importing it says: never twice with the same facts.
    assert [source for source, _ in transformed].count((tmp_path / "llm.py").read_bytes()) == 2
    assert len(set(transformed)) == len(transformed)


@pytest.mark.parametrize(
    "text",
    [
        "import os\nfrom . import (\n    a,\n    important,\n)\nx = 'import y'\n",
        "import a, \\\n    b\nfrom x import y  # import z\n\timport q\r\nfrom .m import n\n",
        "def f():\n    from a.b import (c as d)\n    import_module('x')\n    important = 1\n",
        '"""\nimport inside a docstring\n"""\nfrom a import b; import c\nimports = 1\nfrom a import (\nimport_x)\n',
        "from x import y\\\nimport z\nimport",
    ],
)
def test_import_statements_are_found_as_the_expression_finds_them(text):
    expected = [(match.span(), 1 + text.count("\n", 0, match.start())) for match in IMPORT_STATEMENT.finditer(text)]
    assert [(match.span(), line) for match, line in _import_statements(text)] == expected


# --- the cache ---------------------------------------------------------------------------------


def test_a_change_in_an_imported_module_invalidates_a_cached_result(tmp_path):
    _write(tmp_path, {
        "llm.py": "from openai import OpenAI\nclient = OpenAI()\n",
        "use.py": "from llm import client\nr = client.chat.completions.create(model='m', messages=[{'role': 'user', 'content': 'x'}])\nprint(r.choices[0].message.content)\n",
    })
    cache = lambda: Cache(tmp_path / ".cache", Options())  # noqa: E731 (a fresh one per run, as per process)

    def migrated() -> int:
        return sum(r.result.calls_migrated for r in _run(tmp_path, ["use.py"], cache=cache()))

    assert migrated() == 1
    assert migrated() == 1  # from the cache
    (tmp_path / "llm.py").write_text("from groq import Groq\nclient = Groq()\n")
    assert migrated() == 0


def test_a_cached_history_parameter_is_decided_again_when_a_caller_changes(tmp_path):
    agent = (
        "from openai import OpenAI\nclient = OpenAI()\n\n"
        "def run(messages, tools):\n"
        "    r = client.chat.completions.create(model='m', messages=messages, tools=tools)\n"
        "    return r.choices[0].message.content or ''\n"
    )
    caller = "from agent import run\n\ndef ask(q):\n    m = [{'role': 'user', 'content': q}]\n    return run(m, [])\n"
    _write(tmp_path, {"agent.py": agent, "main.py": caller})
    cache = lambda: Cache(tmp_path / ".cache", Options())  # noqa: E731 (a fresh one per run, as per process)

    def migrated() -> int:
        return sum(r.result.calls_migrated for r in _run(tmp_path, ["agent.py"], cache=cache()))

    assert migrated() == 1
    assert migrated() == 1  # from the cache
    (tmp_path / "main.py").write_text(caller.replace("    return run(m, [])\n", "    answer = run(m, [])\n    print(m)\n    return answer\n"))
    assert migrated() == 0


def test_a_mock_cached_names_the_calls_its_imported_modules_make_now(tmp_path):
    _write(tmp_path, {
        "llm.py": CALLS,
        "test_llm.py": "from unittest import mock\nimport llm\nfake_completion = mock.MagicMock(choices=[])\n",
    })
    cache = lambda: Cache(tmp_path / ".cache", Options())  # noqa: E731 (a fresh one per run, as per process)

    def named() -> List[str]:
        (result,) = _run(tmp_path, ["test_llm.py"], cache=cache())
        return [f.message.split("(`")[1].split("`)")[0] for f in result.findings]

    assert named() == ["llm.py:3"]
    assert named() == ["llm.py:3"]  # from the cache
    (tmp_path / "llm.py").write_text("\n" + CALLS)
    assert named() == ["llm.py:4"]


def test_a_read_made_unmappable_in_an_importer_keeps_the_call_on_the_next_run(tmp_path):
    """The call and its reads in another module are decided on the same facts: a cached result
    of the module with the call does not survive a change in the module that reads it."""
    service = "from llm import complete\nprint(complete('x').choices[0].message.content)\n"
    _write(tmp_path, {"llm.py": LLM, "service.py": service})
    cache = lambda: Cache(tmp_path / ".cache", Options())  # noqa: E731 (a fresh one per run, as per process)

    def changed() -> List[str]:
        return sorted(r.path.name for r in _run(tmp_path, ["."], cache=cache()) if r.changed)

    assert changed() == ["llm.py", "service.py"]
    assert changed() == ["llm.py", "service.py"]  # from the cache
    (tmp_path / "service.py").write_text(service.replace("choices[0]", "choices[1]"))
    assert changed() == []
    lines = _finding_lines(tmp_path, _run(tmp_path, ["."], cache=cache()))
    assert any(line.startswith("llm.py:7:") and "`service.py:2`" in line for line in lines), lines
    assert any(line.startswith("service.py:2:") and "`llm.py:7`" in line for line in lines), lines


@pytest.mark.parametrize(
    "service, blocked",
    [
        pytest.param(
            "from llm import complete\nHANDLERS = {'answer': complete}\n",
            "`complete` is used other than by calling it",
            id="passed-as-a-value",
        ),
        pytest.param(
            "from llm import complete\nr = complete('x')\nprint(r.choices[0].finish_reason == 'stop')\n",
            "depends on `tools=`, which the call at `llm.py:8` may pass",
            id="read-depending-on-an-argument",
        ),
        pytest.param(
            "from llm import complete\ndef again(q):\n    return complete(q)\n",
            "it is returned from `again`, which other modules import (`main.py:1`)",
            id="returned-on-to-a-third-module",
        ),
    ],
)
def test_an_importer_the_tool_cannot_follow_keeps_the_call(tmp_path, service, blocked):
    llm = LLM.replace("messages=", "tools=TOOLS, messages=").replace("client = OpenAI()", "client = OpenAI()\nTOOLS = []")
    _write(tmp_path, {"llm.py": llm, "service.py": service, "main.py": "from service import again\nprint(again('x').id)\n"})
    results = _run(tmp_path, ["."])
    assert not [r.path.name for r in results if r.changed]
    lines = _finding_lines(tmp_path, results)
    assert any(line.startswith("llm.py:") and blocked in line for line in lines), lines


def test_a_function_returning_the_results_of_two_calls_keeps_them(tmp_path):
    llm = LLM + "    return client.chat.completions.create(model='m', messages=[{'role': 'user', 'content': q + '?'}])\n"
    llm = llm.replace("    return client", "    if q:\n        return client", 1)
    _write(tmp_path, {"llm.py": llm, "service.py": "from llm import complete\nprint(complete('x').choices[0].message.content)\n"})
    results = _run(tmp_path, ["."])
    assert not [r.path.name for r in results if r.changed]
    assert any("returns the results of several calls" in line for line in _finding_lines(tmp_path, results))


def test_two_modules_with_calls_that_import_each_other_are_both_migrated(tmp_path):
    """Each is settled before the other only when it reads what the other returns."""
    helpers = "from llm import complete\nfrom openai import OpenAI\n\nclient = OpenAI()\nSYSTEM = 'Be brief.'\n\n\ndef shout(q):\n    return complete(q).choices[0].message.content.upper()\n"
    helpers += "\n\ndef whisper(q):\n    r = client.chat.completions.create(model='m', messages=[{'role': 'user', 'content': q}])\n    return r.choices[0].message.content.lower()\n"
    _write(tmp_path, {"llm.py": "from helpers import SYSTEM\n" + LLM, "helpers.py": helpers})
    results = _run(tmp_path, ["."])
    assert sorted(r.path.name for r in results if r.changed) == ["helpers.py", "llm.py"]


def test_a_module_written_before_the_call_it_reads_is_decided_still_counts_as_it_was(tmp_path):
    """`apply` writes each result as it comes: the module with the call, decided after its
    importer was written, reads the importer as it was."""
    _write(tmp_path, {"a_service.py": "from z_llm import complete\nprint(complete('x').choices[0].message.content)\n", "z_llm.py": LLM})
    for result in engine.run([tmp_path], Options(), jobs=1, project=Project(root=tmp_path)):
        assert result.error is None, result.error
        if result.changed:
            result.path.write_bytes(result.result.output)
    assert "output_text" in (tmp_path / "a_service.py").read_text()
    assert "responses.create" in (tmp_path / "z_llm.py").read_text()


def test_a_second_run_reads_the_imports_of_changed_modules_only(tmp_path, monkeypatch):
    """Checking one file of a large project stays fast: the index of what its modules import
    is kept in the cache, by each file's status."""
    import migrator.cache as cache_module
    from migrator import project as project_module

    monkeypatch.setattr(cache_module, "RACY_SECONDS", 0)  # the files here were all written just now
    _write(tmp_path, {
        "llm.py": LLM,
        "service.py": "from llm import complete\nprint(complete('x').choices[0].message.content)\n",
        "other.py": "import os\n",
    })
    read = []
    original = project_module._Imports.of
    monkeypatch.setattr(project_module._Imports, "of", classmethod(lambda cls, text: read.append(text) or original(text)))

    def run() -> List[str]:
        read.clear()
        cache = Cache(tmp_path / ".cache", Options())
        results = list(engine.run([tmp_path / "llm.py"], Options(), jobs=1, cache=cache, project=Project(root=tmp_path, cache=cache)))
        return _finding_lines(tmp_path, results)

    first = run()
    assert len(read) == 3 and any("other modules import (`service.py:1`)" in line for line in first)
    (tmp_path / "llm.py").write_text(LLM + "\n")  # the file checked changes: it alone is read again
    assert run() == first and read == [LLM + "\n"]
    (tmp_path / "service.py").write_text("print('no longer imports it')\n")
    assert not any("other modules import" in line for line in run()) and len(read) == 1


def test_a_warm_run_follows_no_imports_while_no_module_returns_a_result(tmp_path, monkeypatch):
    """Following every module's imports costs a warm check of a large project most of its
    time. While the cache knows that no module returns a legacy call's result, no import is
    followed; once one does, the importer's reads migrate with it again."""
    import migrator.cache as cache_module
    from migrator import project as project_module

    monkeypatch.setattr(cache_module, "RACY_SECONDS", 0)  # the files here were all written just now
    printing = LLM.replace("    return client", "    print(client").replace("}])\n", "}]).choices[0].message.content)\n")
    _write(tmp_path, {"llm.py": printing, "service.py": "from llm import complete\nprint(complete('x'))\n"})
    followed = []
    original = project_module._Tree.imported_origins
    monkeypatch.setattr(project_module._Tree, "imported_origins", lambda tree, module: followed.append(module.path.name) or original(tree, module))

    def run() -> List[FileResult]:
        followed.clear()
        cache = Cache(tmp_path / ".cache", Options())
        return list(engine.run([tmp_path], Options(), jobs=1, cache=cache, project=Project(root=tmp_path, cache=cache)))

    first = run()
    assert all(result.error is None for result in first)
    assert run() == first and not followed
    (tmp_path / "llm.py").write_text(LLM)
    (tmp_path / "service.py").write_text("from llm import complete\nprint(complete('x').choices[0].message.content)\n")
    changed = {result.path.name: result for result in run()}
    assert followed and "output_text" in changed["service.py"].result.output.decode()


def test_a_run_on_unchanged_files_takes_what_the_last_one_found_each_file_imports(tmp_path, monkeypatch):
    """Finding what each file's imports return costs a warm check of a large project most of
    its time. A run on the same files takes the last run's answers while no folder or file they
    were read from has changed, and reports what a run without a cache does."""
    import migrator.cache as cache_module
    from migrator import project as project_module

    monkeypatch.setattr(cache_module, "RACY_SECONDS", 0)  # the files here were all written just now
    root = tmp_path / "project"
    reading = "from llm import complete\nprint(complete('x').choices[0].message.content)\n"
    _write(root, {"llm.py": LLM, "service.py": reading, "other.py": "import os\n"})
    asked = []
    original = project_module.Project._imported_results
    monkeypatch.setattr(project_module.Project, "_imported_results", lambda project, path: asked.append(path.name) or original(project, path))

    def run(*paths: str, cache: bool = True) -> List[FileResult]:
        asked.clear()
        store = Cache(tmp_path / "cache", Options()) if cache else None
        return list(engine.run([root / path for path in paths], Options(), jobs=1, cache=store, project=Project(root=root, cache=store)))

    def fresh(*paths: str) -> List[FileResult]:
        return run(*paths, cache=False)

    first = run(".")
    assert first == fresh(".") and sorted(set(asked)) == ["llm.py", "other.py", "service.py"]
    assert run(".") == first and not asked
    assert run("service.py") == fresh("service.py") and asked  # other files: other answers

    # A module outside the files given is added: the folder holding it says so.
    (root / "llm.py").rename(tmp_path / "llm.py")
    without = run("service.py")
    assert run("service.py") == without and not asked
    (tmp_path / "llm.py").rename(root / "llm.py")
    assert run("service.py") == fresh("service.py") != without and asked

    # A file given changes.
    assert run(".") == first
    (root / "service.py").write_text("from llm import complete\nprint(complete('x'))\n")
    assert run(".") == fresh(".") != first and asked


def test_answers_are_not_recorded_from_files_changed_too_recently_to_tell_apart(tmp_path):
    """A file written within the file system's timestamp granularity of the run could change
    again unseen: the answers read from it are not recorded, and the next run finds them again."""
    _write(tmp_path / "project", {"llm.py": LLM, "service.py": "from llm import complete\nprint(complete('x'))\n"})
    cache = Cache(tmp_path / "cache", Options())
    list(engine.run([tmp_path / "project"], Options(), jobs=1, cache=cache, project=Project(root=tmp_path / "project", cache=cache)))
    assert list((tmp_path / "cache").rglob("*.json")) and not list((tmp_path / "cache").rglob("projects/*.json"))


@pytest.mark.parametrize(
    "code",
    [
        "import a.b as c, d", "import a ,b", "import\ta", "import a  # a comment", "import a; b = 1", "import ﬁle",
        "from . import x", "from .x import y as z, w", "from . x import y", "from .import x", "from ...a.b import *",
        "from x import (a,\n    b as c)", "from x import a as \\\n    b", "from x import if", "import a as b as c",
    ],
)
def test_an_import_read_without_parsing_is_what_pythons_parser_reads(code):
    from migrator import project as project_module

    syntax = ast.parse(code) if _parses(code) else None
    statement = syntax.body[0] if syntax is not None and len(syntax.body) == 1 else None
    if isinstance(statement, (ast.Import, ast.ImportFrom)):
        statement.lineno = 3
        expected = project_module._saved_statement(statement)
    else:
        expected = None
    assert project_module._import_entry(code, 3) == expected


def _parses(code: str) -> bool:
    try:
        ast.parse(code)
    except SyntaxError:
        return False
    return True


def test_what_a_module_imports_at_run_time_is_read_only_when_asked(tmp_path, monkeypatch):
    """Finding it parses the whole module: reading a project's imports must not, since most
    projects never ask who imports a module."""
    from migrator import project as project_module

    _write(tmp_path, {"plugins.py": "import importlib\nm = importlib.import_module('pkg.llm')\n"})
    read = []
    original = project_module._DynamicImports.of
    monkeypatch.setattr(project_module._DynamicImports, "of", classmethod(lambda cls, text: read.append(text) or original(text)))
    tree = project_module._Tree(tmp_path, lambda path: path.read_bytes())
    path = tmp_path / "plugins.py"
    assert tree.imports(path).top_names == {"importlib"} and not read
    assert tree.dynamic_imports(path) == tree.dynamic_imports(path) == project_module._DynamicImports({"pkg.llm"}, 2)
    assert len(read) == 1


def test_the_remembered_imports_are_the_imports_read():
    """The index keeps import statements as data, not code to parse again: loaded, each is
    the statement the text holds, with its line."""
    from migrator import project as project_module

    text = (
        "import os, json as j\n"
        "from . import llm\n"
        "from ..pkg.mod import (\n    a,\n    b as c,\n)\n"
        "def f():\n    from openai import *\n"
    )
    read = project_module._Imports.of(text)
    loaded = project_module._Imports.loaded(json.loads(json.dumps(read.saved())))
    assert loaded is not None and len(read.statements) == 4
    assert [(ast.dump(s), s.lineno) for s in loaded.statements] == [(ast.dump(s), s.lineno) for s in read.statements]
    assert project_module._Imports.loaded({**read.saved(), "statements": [["import os", 1]]}) is None


def test_a_folder_without_a_marker_is_read_as_python_would_import_from_it(tmp_path):
    """A script in a folder that is no project (a home folder, say): the modules and packages
    beside it count, not every file below it."""
    _write(tmp_path, {
        "loose/llm.py": LLM,
        "loose/pkg/__init__.py": "",
        "loose/pkg/user.py": "from llm import complete\n",
        "loose/downloads/old_copy.py": "from llm import complete\n",
    })
    file = tmp_path / "loose" / "llm.py"
    facts = Project().facts(file, file.read_bytes(), ["complete"], [])
    assert facts.importers_of("complete") == ("pkg/user.py:1",)


def test_a_client_parameter_of_a_function_other_modules_import_proves_nothing(tmp_path):
    """Every call in its module passes an OpenAI client, but another module passes Groq's."""
    _write(tmp_path, {
        "llm.py": (
            "from openai import OpenAI\n\n"
            "def ask(client, q):\n"
            "    return client.chat.completions.create(model='m', messages=[{'role': 'user', 'content': q}]).choices[0].message.content\n\n"
            "print(ask(OpenAI(), 'x'))\n"
        ),
        "other.py": "from groq import Groq\nfrom llm import ask\nprint(ask(Groq(), 'y'))\n",
    })
    [result] = _run(tmp_path, ["llm.py"])
    assert [(f.rule, f.line) for f in result.findings] == [("unresolved_client", 4)]
    (tmp_path / "other.py").unlink()
    [result] = _run(tmp_path, ["llm.py"])
    assert result.result.calls_migrated == 1


def test_a_file_in_a_folder_the_project_leaves_out_is_its_own_project(tmp_path, monkeypatch):
    """A tree under a hidden folder (a benchmark's downloads, say) is read where it is, without
    walking the project it sits in."""
    from migrator import project as project_module

    _write(tmp_path, {
        "pyproject.toml": "",
        "app.py": "from llm import complete\n",
        ".cache/tree/llm.py": LLM,
        ".cache/tree/user.py": "from llm import complete\n",
    })
    walked = []
    original = project_module._python_files
    monkeypatch.setattr(project_module, "_python_files", lambda root, *args, **kw: walked.append(root) or original(root, *args, **kw))
    file = tmp_path / ".cache/tree/llm.py"
    facts = Project().facts(file, file.read_bytes(), ["complete"], [])
    assert facts.importers_of("complete") == ("user.py:1",)
    assert walked == [(tmp_path / ".cache/tree").resolve()]


def test_chat_calls_are_kept_unless_a_run_migrates_them(tmp_path):
    """Outside a run nothing migrates them; the conftest.py files above a test count as imported."""
    _write(tmp_path, {
        "app/__init__.py": "",
        "app/llm.py": CALLS,
        "tests/conftest.py": "from app.llm import client\n",
        "tests/unit/test_app.py": "import json\n",
    })
    facts = _facts(tmp_path, "tests/unit/test_app.py", chat_calls=True)
    assert facts.chat_calls == ("app/llm.py:3",)
    assert facts.chat_calls_kept == facts.chat_calls


def test_a_folder_given_without_a_project_marker_holds_the_namespace_packages_in_it(tmp_path):
    """A tree with no project marker (a downloaded app): a module in a folder without
    ``__init__.py`` is imported by the modules beside that folder, in the folder the run was
    given; the reads there migrate with the call."""
    root = tmp_path / "app"
    (root / "services").mkdir(parents=True)
    (root / "services" / "llm.py").write_text(
        "from openai import OpenAI\n\nclient = OpenAI()\n\n\ndef ask(question):\n"
        '    return client.chat.completions.create(model="gpt-4o-mini", messages=[{"role": "user", "content": question}])\n'
    )
    (root / "main.py").write_text('from services.llm import ask\n\nprint(ask("hi").choices[0].message.content)\n')
    assert project_root(root / "services" / "llm.py") == root / "services"  # no marker anywhere up
    results = {r.path.name: r for r in engine.run([root], jobs=1)}
    assert all(r.error is None for r in results.values())
    assert results["llm.py"].result.calls_migrated == 1
    assert b"print(ask(\"hi\").output_text)" in results["main.py"].result.output


def test_a_folder_given_without_a_project_marker_holds_the_packages_its_scripts_import(tmp_path):
    """With no project marker, a script beside a package (``run.py`` beside ``src/``) runs from
    that folder, and so do the modules of ``src/services/`` (no ``__init__.py``) that import
    ``src.services.llm``: the client a factory there keeps is found from them."""
    root = tmp_path / "app"
    (root / "src" / "services").mkdir(parents=True)
    (root / "src" / "__init__.py").write_text("")
    (root / "src" / "config.py").write_text('MODEL = "gpt-4o-mini"\n')
    (root / "src" / "services" / "llm.py").write_text(
        "from openai import OpenAI\n\n_client = None\n\n\ndef get_client() -> OpenAI:\n    global _client\n"
        "    if _client is None:\n        _client = OpenAI()\n    return _client\n"
    )
    (root / "src" / "services" / "rating.py").write_text(
        "from src.services.llm import get_client\n\n\ndef rate(text):\n    client = get_client()\n"
        '    res = client.chat.completions.create(model="gpt-4o-mini", messages=[{"role": "user", "content": text}])\n'
        "    return res.choices[0].message.content\n"
    )
    (root / "run.py").write_text('from src.services.rating import rate\n\nprint(rate("hi"))\n')
    assert project_root(root / "src" / "services" / "rating.py") == root / "src" / "services"  # no marker anywhere up
    results = {r.path.name: r for r in engine.run([root], jobs=1)}
    assert all(r.error is None for r in results.values())
    assert results["rating.py"].result.calls_migrated == 1
