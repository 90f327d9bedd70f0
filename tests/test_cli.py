"""The command line against a fake engine: what it prints, where, and with which exit code.

The engine is replaced by canned results so these tests pin the CLI's own behaviour; the
end-to-end tests with the real engine live elsewhere.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Dict, List, Optional, Sequence

import pytest
from typer.testing import CliRunner

from migrator import cli, engine, gitstate, render
from migrator.model import FileResult, Finding, Options, SourceResult
from migrator.registry import all_rules

ROOT = Path(__file__).resolve().parent.parent
# Rich colours output when these say so, whatever the stream: keep every test plain.
PLAIN_ENV = {"FORCE_COLOR": None, "TTY_COMPATIBLE": None, "NO_COLOR": None, "COLUMNS": "200"}


def finding(
    rule: str, line: int, column: int, message: str = "msg", fixable: bool = False, unsafe_fix: bool = False
) -> Finding:
    return Finding(rule=rule, line=line, column=column, message=message, fixable=fixable, unsafe_fix=unsafe_fix)


def changed(path: str, before: bytes, after: bytes, calls: int = 1, findings: Sequence[Finding] = ()) -> FileResult:
    return FileResult(Path(path), SourceResult(before, after, list(findings), calls_migrated=calls))


def unchanged(path: str, findings: Sequence[Finding] = ()) -> FileResult:
    return FileResult(Path(path), SourceResult(b"x = 1\n", b"x = 1\n", list(findings)))


def failed(path: str, reason: str) -> FileResult:
    return FileResult(Path(path), error=reason)


class FakeEngine:
    """Stands in for `migrator.engine`: hands out canned results and records its calls."""

    def __init__(self) -> None:
        self.results: List[FileResult] = []
        self.run_calls: List[dict] = []
        self.written: List[Path] = []
        self.write_roots: List[Path] = []
        self.write_errors: Dict[Path, str] = {}
        self.stdin_result: Optional[SourceResult] = None

    def run(self, paths, options=Options(), exclude=(), jobs=None, cache=None):
        self.run_calls.append({"paths": list(paths), "options": options, "exclude": list(exclude), "jobs": jobs})
        return engine.Results(len(self.results), iter(self.results))

    def write(self, result: FileResult, root: Path) -> FileResult:
        self.written.append(result.path)
        self.write_roots.append(root)
        error = self.write_errors.get(result.path)
        return FileResult(result.path, error=error) if error else result

    def transform_source(self, source: bytes, options: Options = Options()) -> SourceResult:
        self.run_calls.append({"source": source, "options": options})
        return self.stdin_result or SourceResult(source, source)


@pytest.fixture
def fake(monkeypatch: pytest.MonkeyPatch) -> FakeEngine:
    fake_engine = FakeEngine()
    for name in ("run", "write", "transform_source"):
        monkeypatch.setattr(engine, name, getattr(fake_engine, name))
    monkeypatch.setattr(gitstate, "dirty_files", lambda paths: set())
    return fake_engine


def invoke(*args: str, stdin: Optional[bytes] = None):
    return CliRunner().invoke(cli.app, list(args), input=stdin, env=PLAIN_ENV)


def said(text: str) -> str:
    """Text with rich's panel borders and line wrapping taken out, for matching messages."""
    return " ".join(text.replace("│", " ").split())


# --- check -------------------------------------------------------------------------------


def test_check_clean_exits_0_and_prints_no_finding(fake: FakeEngine) -> None:
    fake.results = [unchanged("a.py"), unchanged("b.py")]
    result = invoke("check", ".")
    assert result.exit_code == 0
    assert result.stdout == ""
    assert said(result.stderr) == "2 files scanned: no findings."


def test_check_prints_one_line_per_finding_sorted_by_path_then_position(fake: FakeEngine) -> None:
    fake.results = [
        unchanged("pkg/b.py", [finding("rule_b", 2, 1, "second"), finding("rule_a", 10, 5, "third")]),
        unchanged("pkg/a.py", [finding("rule_c", 3, 7, "first")]),
        unchanged("pkg/b.py", [finding("rule_a", 2, 1, "before second")]),
    ]
    result = invoke("check", "pkg")
    assert result.exit_code == 1
    assert result.stdout.splitlines() == [
        "pkg/a.py:3:7: rule_c first",
        "pkg/b.py:2:1: rule_a before second",
        "pkg/b.py:2:1: rule_b second",
        "pkg/b.py:10:5: rule_a third",
    ]


def test_check_marks_fixable_findings_with_a_star(fake: FakeEngine) -> None:
    fake.results = [unchanged("a.py", [finding("rule_a", 1, 1, "can move", fixable=True), finding("rule_b", 2, 1)])]
    assert invoke("check").stdout.splitlines() == ["a.py:1:1: rule_a [*] can move", "a.py:2:1: rule_b msg"]


def test_check_summary_counts_findings_fixable_and_held_back_unsafe_fixes(fake: FakeEngine) -> None:
    fake.results = [
        unchanged("a.py", [finding("r", 1, 1, fixable=True), finding("r", 2, 1, unsafe_fix=True)]),
        unchanged("b.py", [finding("r", 1, 1, unsafe_fix=True), finding("r", 2, 1)]),
        unchanged("c.py"),
    ]
    assert said(invoke("check").stderr) == (
        "3 files scanned: 4 findings (1 fixable with `migrator apply`). "
        "By rule: r 4 (1 fixable). "
        "2 more changes are available with --unsafe-fixes."
    )


def test_check_reports_files_that_failed_and_still_reports_the_others_with_exit_2(fake: FakeEngine) -> None:
    fake.results = [failed("bad.py", "cannot parse: line 3"), unchanged("good.py", [finding("rule_a", 1, 1)])]
    result = invoke("check")
    assert result.exit_code == 2  # the error wins over the finding's 1
    assert result.stdout == "good.py:1:1: rule_a msg\n"
    assert "bad.py: error: cannot parse: line 3" in result.stderr
    assert "1 file could not be processed." in result.stderr


def test_check_quiet_prints_findings_and_errors_but_no_summary(fake: FakeEngine) -> None:
    fake.results = [failed("bad.py", "unreadable"), unchanged("a.py", [finding("rule_a", 1, 1)])]
    result = invoke("check", "-q")
    assert result.stdout == "a.py:1:1: rule_a msg\n"
    assert result.stderr == "bad.py: error: unreadable\n"


def test_verbose_says_what_happened_to_each_file(fake: FakeEngine) -> None:
    fake.results = [changed("a.py", b"a\n", b"b\n", calls=2), unchanged("b.py", [finding("r", 1, 1)])]
    stderr = invoke("diff", "-v").stderr
    assert "a.py: would change, 2 calls migrated" in stderr
    assert "b.py: unchanged, 1 finding" in stderr


def test_paths_are_shown_relative_to_the_current_directory(fake: FakeEngine, tmp_path: Path, monkeypatch) -> None:
    monkeypatch.chdir(tmp_path)
    fake.results = [unchanged(str(tmp_path / "pkg" / "a.py"), [finding("rule_a", 1, 1)])]
    assert invoke("check").stdout == "pkg/a.py:1:1: rule_a msg\n"


def test_a_file_name_that_is_not_utf8_is_shown_with_a_replacement_character(fake: FakeEngine) -> None:
    fake.results = [unchanged(os.fsdecode(b"caf\xe9.py"), [finding("rule_a", 1, 1)])]
    result = invoke("check")
    assert (result.exit_code, result.stdout) == (1, "caf\ufffd.py:1:1: rule_a msg\n")


# --- options -----------------------------------------------------------------------------


def test_common_options_map_into_engine_options(fake: FakeEngine) -> None:
    ids = sorted(all_rules())
    args = ["check", "src", "tests", "--select", f"{ids[0]}, {ids[1]}", "--select", ids[2], "--ignore", ids[1]]
    args += ["--exclude", "gen/*", "--exclude", "*_pb2.py", "--jobs", "3"]
    args += ["--unsafe-fixes", "--store-false", "--assume-openai"]
    invoke(*args)
    [call] = fake.run_calls
    assert call["paths"] == [Path("src"), Path("tests")]
    assert call["options"] == Options(
        select=frozenset(ids[:3]),
        ignore=frozenset({ids[1]}),
        unsafe_fixes=True,
        store_false=True,
        assume_openai=True,
    )
    assert call["exclude"] == ["gen/*", "*_pb2.py"]
    assert call["jobs"] == 3


def test_without_options_every_rule_runs_on_the_current_directory(fake: FakeEngine) -> None:
    invoke("diff")
    [call] = fake.run_calls
    assert call == {"paths": [Path(".")], "options": Options(), "exclude": [], "jobs": None}


@pytest.mark.parametrize("option", ["--select", "--ignore"])
def test_an_unknown_rule_id_is_a_usage_error_naming_it(fake: FakeEngine, option: str) -> None:
    known = sorted(all_rules())[0]
    result = invoke("check", option, f"{known},{known}x")
    assert result.exit_code == 2
    assert f"unknown rule id '{known}x'; did you mean {known}" in said(result.stderr)
    assert fake.run_calls == []


def test_an_unknown_option_is_a_usage_error(fake: FakeEngine) -> None:
    assert invoke("check", "--no-such-option").exit_code == 2


# --- diff --------------------------------------------------------------------------------


def test_diff_prints_the_patch_bytes_exactly_and_findings_on_stderr(fake: FakeEngine) -> None:
    before, after = b"s = '\xe9'\nx = 1\n", b"s = '\xe9'\nx = 2\n"  # latin-1, not UTF-8
    fake.results = [changed("a.py", before, after, findings=[finding("rule_b", 1, 1, "left alone")])]
    result = invoke("diff")
    assert result.exit_code == 0
    assert result.stdout_bytes == (
        b"--- a/a.py\n+++ b/a.py\n@@ -1,2 +1,2 @@\n s = '\xe9'\n-x = 1\n+x = 2\n"
    )
    assert "a.py:1:1: rule_b left alone" in result.stderr


def test_diff_shows_only_findings_the_patch_does_not_fix(fake: FakeEngine) -> None:
    fixed, left = finding("rule_a", 1, 1, "fixed", fixable=True), finding("rule_b", 2, 1, "left")
    fake.results = [changed("a.py", b"a\n", b"b\n", findings=[fixed, left])]
    stderr = invoke("diff").stderr
    assert "a.py:2:1: rule_b left" in stderr
    assert "rule_a" not in stderr


@pytest.mark.parametrize(
    ("results", "exit_code"),
    [
        pytest.param([changed("a.py", b"a\n", b"b\n")], 1, id="changes"),
        pytest.param([unchanged("a.py", [finding("r", 1, 1)])], 0, id="findings-but-no-changes"),
        pytest.param([changed("a.py", b"a\n", b"b\n"), failed("b.py", "boom")], 2, id="error-wins"),
    ],
)
def test_diff_exit_code_option(fake: FakeEngine, results: List[FileResult], exit_code: int) -> None:
    fake.results = results
    assert invoke("diff", "--exit-code").exit_code == exit_code


def test_diff_without_exit_code_option_exits_0_on_changes(fake: FakeEngine) -> None:
    fake.results = [changed("a.py", b"a\n", b"b\n")]
    assert invoke("diff").exit_code == 0


def test_diff_summary_says_what_would_change(fake: FakeEngine) -> None:
    fake.results = [changed("a.py", b"a\n", b"b\n", calls=3), unchanged("b.py", [finding("r", 1, 1)])]
    assert said(invoke("diff", "--store-false").stderr).endswith(
        "2 files scanned, 1 would change, 3 calls migrated (store=False added). 1 finding left for manual review."
    )


@pytest.mark.skipif(shutil.which("git") is None, reason="needs git")
def test_diff_output_applies_with_git_apply(fake: FakeEngine, tmp_path: Path, monkeypatch) -> None:
    before, after = b"a = 1\r\nb = '\xe9'\n", b"a = 2\r\nb = '\xe9'\n"
    module = tmp_path / "pkg" / "mod.py"
    module.parent.mkdir()
    module.write_bytes(before)
    monkeypatch.chdir(tmp_path)
    fake.results = [changed(str(module), before, after)]
    (tmp_path / "migration.patch").write_bytes(invoke("diff").stdout_bytes)
    subprocess.run(["git", "apply", "migration.patch"], cwd=tmp_path, check=True)
    assert module.read_bytes() == after


# --- apply -------------------------------------------------------------------------------


def test_apply_writes_only_changed_files_and_summarises(fake: FakeEngine) -> None:
    fake.results = [
        changed("a.py", b"a\n", b"b\n", calls=2, findings=[finding("r", 1, 1, fixable=True)]),
        unchanged("b.py", [finding("r", 4, 2, "needs a person"), finding("r", 5, 2, unsafe_fix=True)]),
    ]
    result = invoke("apply")
    assert result.exit_code == 0
    assert fake.written == [Path("a.py")]
    assert result.stdout == ""
    assert said(result.stderr) == (
        "b.py:4:2: r needs a person b.py:5:2: r msg "
        "2 files scanned, 1 changed, 2 calls migrated (store: unchanged). "
        "2 findings left for manual review. "
        "1 more change is available with --unsafe-fixes."
    )


def test_apply_writes_within_the_tree_each_file_was_found_in(fake: FakeEngine, tmp_path: Path, monkeypatch) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "src").mkdir()
    fake.results = [changed("src/pkg/a.py", b"a\n", b"b\n"), changed("tools/b.py", b"a\n", b"b\n")]
    invoke("apply", "src", "tools/b.py")
    # A symlink may be written through only within that tree: the directory argument, or
    # for a file argument its own directory.
    assert fake.write_roots == [Path("src"), Path("tools")]


def test_apply_reports_a_failed_write_with_exit_2(fake: FakeEngine) -> None:
    fake.results = [changed("a.py", b"a\n", b"b\n"), changed("b.py", b"a\n", b"b\n")]
    fake.write_errors[Path("a.py")] = "permission denied"
    result = invoke("apply")
    assert result.exit_code == 2
    assert fake.written == [Path("a.py"), Path("b.py")]
    assert "a.py: error: permission denied" in result.stderr
    assert "2 files scanned, 1 changed" in result.stderr


def test_apply_refuses_to_overwrite_uncommitted_changes(fake: FakeEngine, monkeypatch) -> None:
    fake.results = [changed("a.py", b"a\n", b"b\n"), changed("b.py", b"a\n", b"b\n"), unchanged("c.py")]
    asked: List[Path] = []

    def dirty_files(paths: List[Path]) -> set:
        asked.extend(paths)
        return {Path("b.py")}

    monkeypatch.setattr(gitstate, "dirty_files", dirty_files)
    result = invoke("apply")
    assert result.exit_code == 2
    assert asked == [Path("a.py"), Path("b.py")]  # only the files it would change
    assert fake.written == []
    assert "b.py" in result.stderr and "--allow-dirty" in said(result.stderr)


def test_apply_allow_dirty_writes_without_asking_git(fake: FakeEngine, monkeypatch) -> None:
    fake.results = [changed("a.py", b"a\n", b"b\n")]
    monkeypatch.setattr(gitstate, "dirty_files", lambda paths: pytest.fail("asked git"))
    assert invoke("apply", "--allow-dirty").exit_code == 0
    assert fake.written == [Path("a.py")]


# --- standard input ----------------------------------------------------------------------


def test_apply_stdin_writes_the_migrated_module_to_stdout(fake: FakeEngine) -> None:
    fake.stdin_result = SourceResult(b"old\n", b"new\n", [finding("rule_a", 1, 1, "left")], calls_migrated=1)
    result = invoke("apply", "-", "--store-false", stdin=b"old\n")
    assert result.exit_code == 0
    assert result.stdout_bytes == b"new\n"
    assert fake.run_calls == [{"source": b"old\n", "options": Options(store_false=True)}]
    assert fake.written == []
    assert "-:1:1: rule_a left" in result.stderr


def test_check_stdin_names_findings_with_path_dash(fake: FakeEngine) -> None:
    fake.stdin_result = SourceResult(b"src\n", b"src\n", [finding("rule_a", 2, 3, "here")])
    result = invoke("check", "-", stdin=b"src\n")
    assert result.exit_code == 1
    assert result.stdout == "-:2:3: rule_a here\n"


def test_diff_stdin_heads_the_patch_with_dash(fake: FakeEngine) -> None:
    fake.stdin_result = SourceResult(b"a\n", b"b\n", calls_migrated=1)
    assert invoke("diff", "-", stdin=b"a\n").stdout_bytes == b"--- a/-\n+++ b/-\n@@ -1 +1 @@\n-a\n+b\n"


def test_stdin_that_does_not_parse_is_an_error_and_prints_no_source(monkeypatch) -> None:
    monkeypatch.setattr(engine, "run", lambda *args: pytest.fail("walked files"))
    result = invoke("apply", "-", stdin=b"x = client.chat.completions.create(\n")  # the real transform_source
    assert result.exit_code == 2
    assert result.stdout == ""
    assert result.stderr.startswith("-: error: cannot parse")


def test_dash_must_be_the_only_path(fake: FakeEngine) -> None:
    result = invoke("check", "-", "a.py")
    assert result.exit_code == 2
    assert "must be the only path" in said(result.stderr)


# --- rules and explain -------------------------------------------------------------------


def test_rules_lists_every_rule_with_its_safety() -> None:
    result = invoke("rules")
    assert result.exit_code == 0
    for rule in all_rules().values():
        assert rule.id in result.stdout
        assert rule.safety.value in result.stdout


def test_rules_markdown_is_the_readme_table() -> None:
    result = invoke("rules", "--format", "markdown")
    assert result.stdout == render.rules_markdown(all_rules())
    first = next(iter(all_rules().values()))
    assert f"| `{first.id}` | {first.title} | {first.safety.value} |" in result.stdout.splitlines()


def test_explain_prints_the_raw_doc_and_examples_when_piped() -> None:
    rule = next(rule for rule in all_rules().values() if rule.examples)
    result = invoke("explain", rule.id)
    assert result.exit_code == 0
    assert result.stdout.startswith(f"# {rule.id}: {rule.title}\n\n{rule.doc}\n")
    for example in rule.examples:
        assert example.before.strip() in result.stdout
        if example.after is not None:
            assert example.after.strip() in result.stdout


def test_explain_unknown_rule_exits_2_suggesting_close_ids() -> None:
    known = sorted(all_rules())[0]
    result = invoke("explain", known[:-1])
    assert result.exit_code == 2
    assert f"unknown rule id '{known[:-1]}'; did you mean {known}" in said(result.stderr)


# --- process-level behaviour -------------------------------------------------------------


def test_importing_the_cli_does_not_import_libcst() -> None:
    code = "import migrator.cli, sys; assert 'libcst' not in sys.modules, 'libcst imported'"
    subprocess.run([sys.executable, "-c", code], cwd=ROOT, check=True)


def test_check_with_select_on_files_without_candidates_does_not_import_libcst(tmp_path: Path) -> None:
    (tmp_path / "plain.py").write_text("print('no OpenAI here')\n")
    rule_id = sorted(all_rules())[0]
    code = (
        "import sys\n"
        "from migrator.cli import main\n"
        f"sys.argv = ['migrator', 'check', '--select', {rule_id!r}, {str(tmp_path)!r}]\n"
        "try:\n    main()\n"
        "except SystemExit as exit:\n    assert exit.code == 0, exit.code\n"
        "assert 'libcst' not in sys.modules, 'libcst imported'\n"
    )
    subprocess.run([sys.executable, "-c", code], cwd=ROOT, check=True)


def test_python_dash_m_migrator_runs_the_cli() -> None:
    completed = subprocess.run(
        [sys.executable, "-m", "migrator", "--help"], cwd=ROOT, capture_output=True, text=True, check=True
    )
    assert "Usage: migrator" in completed.stdout


def test_a_crash_exits_2_not_1(fake: FakeEngine, monkeypatch, capsys) -> None:
    def crash(*args, **kwargs):
        raise RuntimeError("bug")

    monkeypatch.setattr(engine, "run", crash)
    monkeypatch.setattr(sys, "argv", ["migrator", "check"])
    with pytest.raises(SystemExit) as exit_info:
        cli.main()
    assert exit_info.value.code == 2
    assert "RuntimeError: bug" in capsys.readouterr().err
