"""`check --write-baseline` / `--baseline`: findings matched by content, so moved lines stay accepted."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from migrator import cli

PLAIN_ENV = {"FORCE_COLOR": None, "TTY_COMPATIBLE": None, "NO_COLOR": None, "COLUMNS": "200"}
HEADER = "import openai\n"
LEGACY_CALL = 'r = make().chat.completions.create(model="m", messages=[])\n'  # unresolved_client
OTHER_CALL = 'q = make().chat.completions.create(model="n", messages=[])\n'


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    (tmp_path / "app").mkdir()
    (tmp_path / "app" / "chat.py").write_text(HEADER + LEGACY_CALL)
    monkeypatch.chdir(tmp_path)
    return tmp_path


def check(*args: str):
    return CliRunner().invoke(cli.app, ["check", "--no-cache", *args], env=PLAIN_ENV)


def edit(project: Path, text: str) -> None:
    (project / "app" / "chat.py").write_text(text)


def test_writing_a_baseline_records_the_findings_and_exits_0(project: Path) -> None:
    result = check("--write-baseline", "baseline.json", "app")
    assert result.exit_code == 0
    assert result.stdout == ""
    assert "Recorded 1 finding in baseline.json." in result.stderr
    document = json.loads((project / "baseline.json").read_text())
    assert document["version"] == 1
    [entry] = document["findings"]
    assert {key: entry[key] for key in ("rule", "path", "source", "occurrence")} == {
        "rule": "unresolved_client",
        "path": "app/chat.py",
        "source": LEGACY_CALL.strip(),
        "occurrence": 0,
    }
    assert "not provably an OpenAI client" in entry["message"]


def test_recorded_findings_are_accepted(project: Path) -> None:
    check("--write-baseline", "baseline.json", "app")
    result = check("--baseline", "baseline.json", "app")
    assert result.exit_code == 0
    assert result.stdout == ""
    assert "1 finding accepted by the baseline baseline.json." in result.stderr


def test_a_moved_legacy_call_stays_accepted(project: Path) -> None:
    check("--write-baseline", "baseline.json", "app")
    edit(project, HEADER + "\n\ndef unrelated():\n    return 42\n\n\n" + LEGACY_CALL)
    result = check("--baseline", "baseline.json", "app")
    assert result.exit_code == 0, result.stdout


def test_a_reindented_legacy_call_stays_accepted(project: Path) -> None:
    check("--write-baseline", "baseline.json", "app")
    edit(project, HEADER + "if True:\n    " + LEGACY_CALL.replace(" = ", "  =  "))
    assert check("--baseline", "baseline.json", "app").exit_code == 0


def notebook(*cells: str) -> str:
    return json.dumps(
        {
            "cells": [{"cell_type": "code", "metadata": {}, "outputs": [], "execution_count": None, "source": cell} for cell in cells],
            "metadata": {},
            "nbformat": 4,
            "nbformat_minor": 5,
        }
    )


def test_a_legacy_call_moved_to_another_notebook_cell_stays_accepted(project: Path) -> None:
    (project / "app" / "chat.py").unlink()
    (project / "app" / "demo.ipynb").write_text(notebook(HEADER, LEGACY_CALL))
    check("--write-baseline", "baseline.json", "app")
    assert json.loads((project / "baseline.json").read_text())["findings"][0]["source"] == LEGACY_CALL.strip()
    (project / "app" / "demo.ipynb").write_text(notebook(HEADER, "x = 1\n", "print(x)\n" + LEGACY_CALL))
    assert check("--baseline", "baseline.json", "app").exit_code == 0
    (project / "app" / "demo.ipynb").write_text(notebook(HEADER, LEGACY_CALL, OTHER_CALL))
    result = check("--baseline", "baseline.json", "app")
    assert result.exit_code == 1
    assert result.stdout.startswith("app/demo.ipynb:cell 3:line 1:")


def test_a_new_legacy_call_fails_and_is_the_only_one_reported(project: Path) -> None:
    check("--write-baseline", "baseline.json", "app")
    edit(project, HEADER + OTHER_CALL + LEGACY_CALL)
    result = check("--baseline", "baseline.json", "app")
    assert result.exit_code == 1
    assert [line.split(": ")[0] for line in result.stdout.splitlines()] == ["app/chat.py:2:5"]


def test_one_more_identical_call_is_new(project: Path) -> None:
    check("--write-baseline", "baseline.json", "app")
    edit(project, HEADER + LEGACY_CALL + LEGACY_CALL)
    result = check("--baseline", "baseline.json", "app")
    assert result.exit_code == 1
    assert len(result.stdout.splitlines()) == 1


def test_a_new_file_with_the_same_line_is_new(project: Path) -> None:
    check("--write-baseline", "baseline.json", "app")
    (project / "app" / "copy.py").write_text(HEADER + LEGACY_CALL)
    result = check("--baseline", "baseline.json", "app")
    assert result.exit_code == 1
    assert result.stdout.startswith("app/copy.py:2:5: unresolved_client")


def test_entries_that_match_nothing_any_more_are_counted(project: Path) -> None:
    check("--write-baseline", "baseline.json", "app")
    edit(project, HEADER)
    result = check("--baseline", "baseline.json", "app")
    assert result.exit_code == 0
    assert "0 findings accepted by the baseline baseline.json; 1 of its entries match nothing any more." in result.stderr


def test_paths_are_relative_to_the_baseline_so_it_works_from_any_directory(project: Path, monkeypatch) -> None:
    (project / "ci").mkdir()
    check("--write-baseline", "ci/baseline.json", "app")
    assert json.loads((project / "ci" / "baseline.json").read_text())["findings"][0]["path"] == "../app/chat.py"
    monkeypatch.chdir(project / "app")
    assert check("--baseline", "../ci/baseline.json", ".").exit_code == 0


@pytest.mark.parametrize(
    "content, problem",
    [
        pytest.param("not json", "invalid JSON", id="not-json"),
        pytest.param('{"findings": []}', "not a baseline of version 1", id="no-version"),
        pytest.param('{"version": 1, "findings": [{"rule": "x"}]}', "an entry lacks 'path'", id="incomplete-entry"),
    ],
)
def test_a_bad_baseline_exits_2(project: Path, content: str, problem: str) -> None:
    (project / "baseline.json").write_text(content)
    result = check("--baseline", "baseline.json", "app")
    assert result.exit_code == 2
    assert problem in result.stderr


def test_baseline_and_write_baseline_do_not_go_together(project: Path) -> None:
    (project / "baseline.json").write_text("{}")
    assert check("--baseline", "baseline.json", "--write-baseline", "new.json", "app").exit_code == 2
