"""Every migrated fixture type-checks against the installed openai SDK (mypy)."""

from __future__ import annotations

import shutil
import subprocess
import sys

import pytest

from tests.fixture_cases import all_cases

pytest.importorskip("openai")
pytest.importorskip("mypy")

# A Response read the Chat way: proves in the same (slow) mypy run that the check can fail.
SENTINEL = (
    "from openai import OpenAI\n"
    "resp = OpenAI().responses.create(model='gpt-4o-mini', input='Hi')\n"
    "print(resp.choices[0].message.content)\n"
)


def test_migrated_fixtures_type_check_against_the_sdk(tmp_path):
    checked = tmp_path / "checked"
    checked.mkdir()
    for case in all_cases():
        if case.after is not None:
            shutil.copyfile(case.folder / "after.py", checked / f"{case.id.replace('/', '__')}.py")
    (checked / "sentinel_chat_read_on_response.py").write_text(SENTINEL)
    result = subprocess.run(
        [sys.executable, "-m", "mypy", "--no-incremental", "--cache-dir", str(tmp_path / "cache"),
         "--check-untyped-defs", "--no-error-summary", "--hide-error-context", str(checked)],
        capture_output=True,
        text=True,
    )
    errors = [line for line in result.stdout.splitlines() if ": error:" in line]
    assert any(line.startswith(str(checked / "sentinel")) and "choices" in line for line in errors), result.stdout
    fixture_errors = [line for line in errors if "sentinel_chat_read_on_response" not in line]
    assert not fixture_errors, "\n".join(fixture_errors) + result.stderr
