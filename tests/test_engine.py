"""The file-level engine: prefilter, error isolation, ordering, parallel runs."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from migrator.engine import run, transform_source
from migrator.prefilter import declared_needs, is_candidate, needed_texts
from migrator.registry import all_rules
from tests.fixture_cases import all_cases

ROOT = Path(__file__).resolve().parent.parent
CALL = (ROOT / "fixtures/chat_completions_create/simple_call/before.py").read_bytes()


def test_prefilter_reads_the_same_needs_as_the_rules_declare():
    assert declared_needs() == {rule_id: rule.needs for rule_id, rule in all_rules().items()}


@pytest.mark.parametrize("case", all_cases(), ids=lambda c: c.id)
def test_prefilter_keeps_every_fixture_with_a_finding_or_a_change(case):
    result = transform_source(case.before, case.options)
    if result.findings or result.changed:
        assert is_candidate(case.before, needed_texts())


def test_prefilter_respects_rule_selection():
    assert needed_texts(selected=frozenset()) == ()
    assert b"completions" in needed_texts(selected=frozenset({"chat_completions_create"}))


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

    def explode(source, options):
        raise RuntimeError("boom")

    monkeypatch.setattr(engine, "transform_source", explode)
    (tmp_path / "a.py").write_bytes(CALL)
    [result] = list(run([tmp_path], jobs=1))
    assert result.error.startswith("internal error: RuntimeError: boom")


def test_parallel_and_serial_runs_give_identical_results(tmp_path):
    for index in range(12):
        (tmp_path / f"m{index:02}.py").write_bytes(CALL if index % 3 else b"x = 1\n")
    serial = [(r.path, r.result.output, r.findings) for r in run([tmp_path], jobs=1)]
    parallel = [(r.path, r.result.output, r.findings) for r in run([tmp_path], jobs=2)]
    assert serial == parallel
    assert [p for p, _, _ in serial] == sorted(p for p, _, _ in serial)


def test_files_without_candidates_never_import_libcst(tmp_path):
    (tmp_path / "plain.py").write_text("print('hello')\n")
    code = (
        "import sys; from pathlib import Path; from migrator.engine import run;"
        f"list(run([Path({str(tmp_path)!r})])); print('libcst' in sys.modules)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, check=True)
    assert out.stdout.strip() == "False"
