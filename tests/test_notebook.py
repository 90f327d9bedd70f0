"""Notebooks: code cells migrated and checked as one module, IPython syntax and every other byte kept."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path
from typing import List

import pytest
from typer.testing import CliRunner

from migrator import cli
from migrator.engine import run, transform_notebook
from migrator.model import Options, Position
from migrator.notebook import FileLines, Masker, NotebookError, parse

PLAIN_ENV = {"FORCE_COLOR": None, "TTY_COMPATIBLE": None, "NO_COLOR": None, "COLUMNS": "200"}

SETUP = "from openai import OpenAI\n\nclient = OpenAI()"
CALL = 'resp = client.chat.completions.create(model="gpt-4o-mini", messages=[{"role": "user", "content": "Hi"}])'
MIGRATED_CALL = 'resp = client.responses.create(model="gpt-4o-mini", input="Hi")'
READ = "print(resp.choices[0].message.content)"
MIGRATED_READ = "print(resp.output_text)"


def code(source: str, outputs: List[dict] = ()) -> dict:  # type: ignore[assignment]
    return {
        "cell_type": "code",
        "execution_count": 3,
        "id": f"id-{abs(hash(source)) % 10_000}",
        "metadata": {"tags": ["x"], "scrolled": True},
        "outputs": list(outputs),
        "source": source.splitlines(keepends=True),
    }


def markdown(source: str) -> dict:
    return {"cell_type": "markdown", "id": "md", "metadata": {}, "source": source.splitlines(keepends=True)}


def notebook(*cells: dict) -> dict:
    metadata = {"kernelspec": {"display_name": "Python 3", "language": "python", "name": "python3"}}
    return {"cells": list(cells), "metadata": metadata, "nbformat": 4, "nbformat_minor": 5}


def jupyter_bytes(document: dict) -> bytes:
    """A notebook as Jupyter (nbformat) writes it."""
    return (json.dumps(document, sort_keys=True, indent=1, ensure_ascii=False) + "\n").encode("utf-8")


STDOUT = {"name": "stdout", "output_type": "stream", "text": ["Paris\n"]}
SAMPLE = notebook(
    code("%pip install openai\n!ls -la"),
    markdown("# Ask ünïcode questions\nSome *text* with `client.chat.completions.create`."),
    code(SETUP),
    code(f"%%time\n{CALL}\nfiles = !ls\n{READ}", outputs=[STDOUT]),
    code("%%bash\necho client.chat.completions.create"),
    code("print(len(files))  # résumé"),
)


def migrated(data: bytes) -> bytes:
    result = transform_notebook(data, Options())
    return result.output


def test_cells_sharing_names_are_migrated_together_and_the_output_opens_with_json_load():
    after = json.loads(migrated(jupyter_bytes(SAMPLE)))
    assert "".join(after["cells"][3]["source"]) == f"%%time\n{MIGRATED_CALL}\nfiles = !ls\n{MIGRATED_READ}"


def test_only_the_changed_cell_differs():
    before = SAMPLE
    after = json.loads(migrated(jupyter_bytes(SAMPLE)))
    assert after["metadata"] == before["metadata"] and after["nbformat"] == 4
    for number, (old, new) in enumerate(zip(before["cells"], after["cells"]), 1):
        if number == 4:
            assert {k: v for k, v in old.items() if k != "source"} == {k: v for k, v in new.items() if k != "source"}
        else:
            assert new == old, f"cell {number} changed"


def test_the_file_is_what_jupyter_would_write_for_the_migrated_notebook():
    expected = json.loads(json.dumps(SAMPLE))
    expected["cells"][3]["source"] = f"%%time\n{MIGRATED_CALL}\nfiles = !ls\n{MIGRATED_READ}".splitlines(True)
    assert migrated(jupyter_bytes(SAMPLE)) == jupyter_bytes(expected)


def test_bytes_outside_the_changed_source_are_identical_whatever_the_formatting():
    # Not Jupyter's layout: compact separators, non-ASCII escaped, one cell's source a single string.
    document = json.loads(json.dumps(SAMPLE))
    document["cells"][3]["source"] = "".join(document["cells"][3]["source"])
    before = json.dumps(document, separators=(",", ":")).encode("ascii")
    after = migrated(before)
    [cell] = [c for c in parse(before).cells if c.number == 4]
    start, end = cell.span
    assert after[:start] == before[:start]
    assert after[len(after) - (len(before) - end) :] == before[end:]
    assert after.isascii()  # non-ASCII stays escaped, as the file had it
    source = json.loads(after)["cells"][3]["source"]
    assert source == f"%%time\n{MIGRATED_CALL}\nfiles = !ls\n{MIGRATED_READ}"  # still one string


@pytest.mark.parametrize(
    "ipython",
    [
        "%pip install openai",
        "!pip install -q openai",
        "files = !ls {resp}",
        "%time x = 1",
        "resp?",
        "resp.choices[0]??",
        "    %env OPENAI_LOG=debug",
        "pip install openai --upgrade",
        "cd ../data",
    ],
    ids=["line magic", "shell escape", "shell output assigned", "time magic", "help", "help on an item", "indented", "automagic", "automagic alias"],
)
def test_ipython_syntax_is_kept_exactly(ipython):
    source = f"{SETUP}\n{CALL}\nif True:\n    pass\n{ipython}"
    document = notebook(code(source))
    after = json.loads(migrated(jupyter_bytes(document)))
    assert "".join(after["cells"][0]["source"]).endswith(f"\n{ipython}")


@pytest.mark.parametrize("python", ["pip = 1", "cd(path)", "ls", "time.sleep(1)", "env = {}"])
def test_a_line_that_is_python_is_not_taken_for_automagic(python):
    masked = Masker("__m_").cell(parse(jupyter_bytes(notebook(code(python)))).cells[0])
    assert masked is not None and masked.text == python + "\n" and not masked.masks


def test_a_result_used_inside_ipython_syntax_leaves_the_call_alone_and_names_the_cell():
    document = notebook(code(SETUP), code(CALL), code("!echo {resp.choices[0].message.content}"))
    result = transform_notebook(jupyter_bytes(document), Options())
    assert not result.changed
    [finding] = result.findings
    assert (finding.cell, finding.line, finding.column) == (3, 1, 1)
    assert finding.call == Position(line=1, column=8, cell=2)


def test_a_cell_magic_that_is_not_python_is_left_out_and_its_calls_reported_as_text():
    document = notebook(
        code(SETUP),
        code("%%writefile app.py\nfrom openai import OpenAI\nr = OpenAI().chat.completions.create(model=m, messages=q)"),
        code("%%bash\necho hi"),
    )
    result = transform_notebook(jupyter_bytes(document), Options())
    assert not result.changed
    [finding] = result.findings
    assert (finding.rule, finding.cell, finding.line, finding.column) == ("calls_in_text", 2, 3, 13)
    assert "`chat.completions.create` written in a `%%writefile` cell" in finding.message
    assert not transform_notebook(jupyter_bytes(document), Options(ignore=frozenset({"calls_in_text"}))).findings


def test_findings_name_the_cell_and_the_line_in_it():
    document = notebook(code(SETUP), markdown("text"), code(f"x = 1\n{CALL}"))
    [finding] = transform_notebook(jupyter_bytes(document), Options()).findings
    assert (finding.rule, finding.cell, finding.line, finding.column) == ("chat_completions_create", 3, 2, 8)


def test_a_second_run_changes_nothing():
    once = migrated(jupyter_bytes(SAMPLE))
    assert migrated(once) == once


def test_a_notebook_without_legacy_code_is_returned_as_it_is():
    data = jupyter_bytes(notebook(code("%pip install numpy\nimport numpy")))
    assert migrated(data) == data


@pytest.mark.parametrize(
    "data, reason",
    [
        (b'{"cells": [', "invalid JSON at line 1"),
        (b"[]", "no list of cells"),
        (b'{"worksheets": [], "nbformat": 3}', "only nbformat 4"),
        (b'{"cells": [{"source": "x"}]}', "cell 1 has no cell_type"),
        (b'{"cells": [{"cell_type": "code", "source": 3}]}', "source of cell 1 is not text"),
        (b'{"cells": []}\xff', "not UTF-8"),
    ],
    ids=["truncated", "not an object", "old format", "no cell type", "source not text", "not utf-8"],
)
def test_a_malformed_notebook_is_an_error_with_the_reason(data, reason):
    with pytest.raises(NotebookError, match="not a valid notebook") as error:
        parse(data)
    assert reason in str(error.value)


def test_a_cell_that_does_not_parse_is_an_error_naming_the_cell():
    document = notebook(code(SETUP), code(f"{CALL}\ndef broken(:\n    pass"))
    with pytest.raises(NotebookError, match="syntax error in cell 2 at line 2"):
        transform_notebook(jupyter_bytes(document), Options())


def test_file_lines_map_the_json_lines_to_cells():
    data = jupyter_bytes(SAMPLE)
    lines = FileLines(data)
    text_lines = data.decode().splitlines()
    call_line = lines.file_line(4, 2)
    assert call_line is not None and "client.chat.completions.create" in text_lines[call_line - 1]
    assert lines.cell_at(call_line) == 4
    assert lines.cell_at(1) is None  # the opening brace


# --- through the engine and the command line ----------------------------------------------------


def invoke(*args: str):
    return CliRunner().invoke(cli.app, [*args, "--no-cache"], env=PLAIN_ENV)


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "analysis.ipynb").write_bytes(jupyter_bytes(SAMPLE))
    (tmp_path / "broken.ipynb").write_bytes(b'{"cells": [')
    (tmp_path / "script.py").write_text(f"{SETUP}\n{CALL}\n")
    return tmp_path


def test_engine_runs_notebooks_and_reports_a_malformed_one_without_stopping(project: Path):
    results = {result.path.name: result for result in run([project])}
    assert results["analysis.ipynb"].changed
    assert "invalid JSON" in (results["broken.ipynb"].error or "")
    assert results["script.py"].changed


def test_check_names_the_cell_and_a_malformed_notebook_exits_2(project: Path):
    result = invoke("check", ".")
    assert result.exit_code == 2
    assert result.stdout.splitlines() == [
        "analysis.ipynb:cell 4:line 2:col 8: chat_completions_create [*] "
        "`client.chat.completions.create` can move to `responses.create`",
        "script.py:4:8: chat_completions_create [*] `client.chat.completions.create` can move to `responses.create`",
    ]
    assert "broken.ipynb: error: not a valid notebook: invalid JSON at line 1" in result.stderr


BLOCKED_IN_ANOTHER_CELL = notebook(code(SETUP), code(f"x = 1\n{CALL}"), markdown("Keep it."), code(f"{READ}\nhistory.append(resp)"))


def test_a_finding_in_another_cell_than_its_call_names_the_call_s_cell(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "chat.ipynb").write_bytes(jupyter_bytes(BLOCKED_IN_ANOTHER_CELL))
    assert invoke("check", ".").stdout.splitlines() == [
        "chat.ipynb:cell 4:line 2:col 16: untraced_result `client.chat.completions.create` not migrated: "
        "its result is used as `resp` in a way the tool cannot follow (call at cell 2, line 2)"
    ]
    [finding] = json.loads(invoke("check", "--output-format", "json", ".").stdout)["findings"]
    assert (finding["cell"], finding["line"], finding["call"]) == (4, 2, {"cell": 2, "line": 2, "column": 8})


def test_sarif_points_at_the_line_of_the_notebook_file_that_holds_the_call(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    monkeypatch.chdir(tmp_path)
    data = jupyter_bytes(BLOCKED_IN_ANOTHER_CELL)
    (tmp_path / "chat.ipynb").write_bytes(data)
    [result] = json.loads(invoke("check", "--output-format", "sarif", ".").stdout)["runs"][0]["results"]
    call_line = data.decode().splitlines().index(f"    {json.dumps(CALL)}") + 1
    [related] = result["relatedLocations"]
    assert related["physicalLocation"]["region"] == {"startLine": call_line}
    assert related["message"]["text"] == "the call this finding is about, at cell 2, line 2, column 8"


def test_diff_names_the_cell_and_applies_with_git(project: Path):
    (project / "broken.ipynb").unlink()
    patch = invoke("diff", "analysis.ipynb").stdout
    assert "@@ cell 4\n" in patch
    subprocess.run(["git", "init", "-q"], cwd=project, check=True)
    subprocess.run(["git", "apply", "-"], cwd=project, input=patch.encode(), check=True)
    assert (project / "analysis.ipynb").read_bytes() == migrated(jupyter_bytes(SAMPLE))


def test_apply_rewrites_the_notebook(project: Path):
    (project / "broken.ipynb").unlink()
    assert invoke("apply", "--allow-dirty", ".").exit_code == 0
    assert (project / "analysis.ipynb").read_bytes() == migrated(jupyter_bytes(SAMPLE))
    assert invoke("check", ".").exit_code == 0


def test_imports_a_rewrite_adds_go_below_a_leading_pip_install():
    ask = (
        "def ask(q):\n"
        "    r = client.chat.completions.create(model='m', messages=[{'role': 'user', 'content': q}])\n"
        "    return r.choices[0].message.refusal"
    )
    document = notebook(code("%pip install openai"), code(SETUP), code(ask))
    cells = json.loads(migrated(jupyter_bytes(document)))["cells"]
    assert "responses.create" in "".join(cells[2]["source"])
    # A notebook is often run again without its installing cell: what the rewrite adds goes
    # with the first cell's imports.
    assert "".join(cells[0]["source"]) == "%pip install openai"
    setup = "".join(cells[1]["source"])
    assert setup.startswith("from typing import Optional\n") and "def _refusal_of(" in setup
    assert setup.endswith("client = OpenAI()")
