"""`[tool.migrator]` in pyproject.toml, end to end: found by walking up, checked, overridden."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import List

import pytest
import tomli
from typer.testing import CliRunner

from migrator import cli, config
from migrator.model import Options
from migrator.prefilter import declared_needs

PLAIN_ENV = {"FORCE_COLOR": None, "TTY_COMPATIBLE": None, "NO_COLOR": None, "COLUMNS": "200"}
# One fixable call (`chat_completions_create`) and one unresolved receiver (`unresolved_client`).
LEGACY = (
    "from openai import OpenAI\n"
    "client = OpenAI()\n"
    'r = client.chat.completions.create(model="m", messages=[{"role": "user", "content": "Hi"}])\n'
    "print(r.choices[0].message.content)\n"
    'other = make().chat.completions.create(model="m", messages=[])\n'
)
LOCAL_SERVER = (
    "from openai import OpenAI\n"
    'client = OpenAI(base_url="http://llm.corp.example/v1")\n'
    'r = client.chat.completions.create(model="m", messages=[{"role": "user", "content": "Hi"}])\n'
    "print(r.choices[0].message.content)\n"
)


@pytest.fixture(autouse=True, params=["tomllib", "tomli"])
def toml_reader(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> str:
    """Every test reads TOML with `tomllib` and again with the backport Python 3.9 and 3.10 use."""
    if request.param == "tomli":
        monkeypatch.setitem(sys.modules, "tomllib", None)  # `import tomllib` now fails, as before 3.11
    elif sys.version_info < (3, 11):
        pytest.skip("tomllib is new in Python 3.11")
    return request.param


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A project folder, the current directory, with one legacy module in `app/`."""
    (tmp_path / "app").mkdir()
    (tmp_path / "app" / "chat.py").write_text(LEGACY)
    monkeypatch.chdir(tmp_path)
    return tmp_path


def configure(folder: Path, table: str, name: str = "pyproject.toml") -> Path:
    path = folder / name
    path.write_text(f"[project]\nname = 'demo'\n\n[tool.migrator]\n{table}")
    return path


def check(*args: str):
    return CliRunner().invoke(cli.app, ["check", "--no-cache", *args], env=PLAIN_ENV)


def rules_reported(result) -> list:
    return [line.split(": ")[1].split()[0] for line in result.stdout.splitlines()]


def test_without_a_configuration_every_rule_runs(project: Path) -> None:
    assert rules_reported(check("app")) == ["chat_completions_create", "unresolved_client"]


def test_the_table_is_found_walking_up_from_the_first_path(project: Path) -> None:
    configure(project, 'ignore = ["unresolved_client"]\n')
    (project / "app" / "pyproject.toml").write_text("[project]\nname = 'no table here'\n")
    assert rules_reported(check("app/chat.py")) == ["chat_completions_create"]


def test_an_unknown_key_exits_2_naming_it(project: Path) -> None:
    configure(project, 'ignore = ["unresolved_client"]\nselct = ["chat_completions_create"]\n')
    result = check("app")
    assert result.exit_code == 2
    assert "unknown key `selct` in [tool.migrator]; did you mean `select`?" in result.stderr
    assert result.stdout == ""


@pytest.mark.parametrize(
    "table, problem",
    [
        pytest.param('unsafe-fixes = "yes"\n', "`unsafe-fixes` must be true or false", id="not-a-boolean"),
        pytest.param('ignore = "unresolved_client"\n', "`ignore` must be a list of strings", id="not-a-list"),
        pytest.param('select = ["chat_completion_create"]\n', "did you mean chat_completions_create?", id="unknown-rule"),
        pytest.param('per-file-ignores = ["tests/*"]\n', "`per-file-ignores` must be a table", id="not-a-table"),
        pytest.param("select = [\n", "not valid TOML", id="bad-toml"),
    ],
)
def test_a_bad_value_exits_2_saying_what_is_wrong(project: Path, table: str, problem: str) -> None:
    configure(project, table)
    result = check("app")
    assert result.exit_code == 2
    assert problem in result.stderr


def test_per_file_ignores_apply_to_the_files_they_match(project: Path) -> None:
    (project / "tests").mkdir()
    (project / "tests" / "test_chat.py").write_text(LEGACY)
    configure(project, '[tool.migrator.per-file-ignores]\n"tests/*" = ["unresolved_client", "chat_completions_create"]\n')
    result = check(".")
    assert [line.split(":")[0] for line in result.stdout.splitlines()] == ["app/chat.py", "app/chat.py"]


def test_per_file_ignores_without_a_slash_match_file_names_anywhere(project: Path) -> None:
    configure(project, 'per-file-ignores = { "chat.py" = ["unresolved_client"] }\n')
    assert rules_reported(check(".")) == ["chat_completions_create"]


def test_the_command_line_overrides_the_configuration_option_by_option(project: Path) -> None:
    configure(project, 'ignore = ["unresolved_client"]\nstore-false = true\n')
    assert rules_reported(check("app")) == ["chat_completions_create"]
    assert rules_reported(check("app", "--ignore", "untraced_result")) == ["chat_completions_create", "unresolved_client"]
    diff = CliRunner().invoke(cli.app, ["diff", "--no-cache", "app"], env=PLAIN_ENV)
    assert "store=False" in diff.stdout
    diff = CliRunner().invoke(cli.app, ["diff", "--no-cache", "--no-store-false", "app"], env=PLAIN_ENV)
    assert "store=False" not in diff.stdout and "responses.create" in diff.stdout


def test_exclude_globs_are_relative_to_the_configuration(project: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (project / "legacy").mkdir()
    (project / "legacy" / "old.py").write_text(LEGACY)
    configure(project, 'exclude = ["legacy/*"]\n')
    assert {line.split(":")[0] for line in check(".").stdout.splitlines()} == {"app/chat.py"}
    monkeypatch.chdir(project / "app")  # the table is found from `..`; the glob still means <project>/legacy
    assert {line.split(":")[0] for line in check("..").stdout.splitlines()} == {"chat.py"}


def test_config_option_names_the_file(project: Path) -> None:
    configure(project, 'ignore = ["unresolved_client"]\n')
    other = project / "strict.toml"
    other.write_text("ignore = []\n")  # a file of its own: the keys at the top level
    assert rules_reported(check("--config", str(other), "app")) == ["chat_completions_create", "unresolved_client"]


def test_a_named_pyproject_without_the_table_is_an_error(project: Path) -> None:
    (project / "pyproject.toml").write_text("[project]\nname = 'demo'\n")
    result = check("--config", "pyproject.toml", "app")
    assert result.exit_code == 2
    assert "no [tool.migrator] table" in result.stderr


def test_other_servers_are_migrated_when_allowed_or_declared_openai(project: Path) -> None:
    (project / "app" / "chat.py").write_text(LOCAL_SERVER)
    assert "other_servers" in rules_reported(check("app"))
    configure(project, 'openai-hosts = ["*.corp.example"]\n')
    assert rules_reported(check("app")) == ["chat_completions_create"]
    configure(project, "allow-other-servers = true\n")
    assert rules_reported(check("app")) == ["chat_completions_create"]
    assert "other_servers" in rules_reported(check("app", "--no-allow-other-servers"))


def test_the_loaded_options_are_engine_options(tmp_path: Path) -> None:
    path = configure(
        tmp_path,
        'select = ["chat_completions_create"]\nunsafe-fixes = true\nassume-openai = true\n'
        'openai-hosts = ["proxy.example"]\n[tool.migrator.per-file-ignores]\n"tests/*" = ["untraced_result"]\n',
    )
    settings = config.load(path, declared_needs().keys())
    assert Options(**settings) == Options(
        select=frozenset({"chat_completions_create"}),
        unsafe_fixes=True,
        assume_openai=True,
        openai_hosts=("proxy.example",),
        per_file_ignores=((f"{tmp_path}/tests/*", frozenset({"untraced_result"})),),
    )


def other_pythons() -> List[str]:
    """The Python 3.9 and 3.10 interpreters of this machine (on PATH, or installed by pyenv) that run."""
    found = []
    for version in ("3.9", "3.10"):
        pyenv = Path(os.environ.get("PYENV_ROOT", Path.home() / ".pyenv")) / "versions"
        candidates = [shutil.which(f"python{version}"), *map(str, sorted(pyenv.glob(f"{version}.*/bin/python{version}")))]
        for candidate in filter(None, candidates):
            if subprocess.run([candidate, "-c", "pass"], capture_output=True).returncode == 0:
                found.append(candidate)
                break
    return found


@pytest.mark.parametrize("python", other_pythons())
def test_python_3_9_and_3_10_read_the_configuration_with_tomli(tmp_path: Path, python: str) -> None:
    """The backport, given to an older interpreter as its pure-Python sources (the installed wheel
    may be compiled for this interpreter), reads the table into the same options as `tomllib`."""
    path = configure(tmp_path, 'select = ["chat_completions_create"]\nstore-false = true\nopenai-hosts = ["proxy.example"]\n')
    backport = tmp_path / "site" / "tomli"
    backport.mkdir(parents=True)
    for source in Path(tomli.__file__).parent.glob("*.py"):
        shutil.copy(source, backport)
    code = (
        f"import json, sys; sys.path[:0] = [{str(Path(config.__file__).parents[1])!r}, {str(backport.parent)!r}];"
        "from pathlib import Path; from migrator import config;"
        f"print(json.dumps(config.load(Path({str(path)!r}), ['chat_completions_create']), default=sorted))"
    )
    run = subprocess.run([python, "-I", "-c", code], capture_output=True, text=True)
    assert run.returncode == 0, run.stderr
    expected = config.load(path, ["chat_completions_create"])
    assert json.loads(run.stdout) == json.loads(json.dumps(expected, default=sorted))


def test_per_file_options_add_the_ignores_of_the_matching_globs(tmp_path: Path) -> None:
    options = Options(
        ignore=frozenset({"a"}),
        per_file_ignores=((f"{tmp_path}/tests/*", frozenset({"b"})), ("conftest.py", frozenset({"c"}))),
    )
    assert options.for_path(tmp_path / "tests" / "unit" / "test_x.py").ignore == {"a", "b"}
    assert options.for_path(tmp_path / "src" / "conftest.py").ignore == {"a", "c"}
    assert options.for_path(tmp_path / "src" / "app.py") == options
