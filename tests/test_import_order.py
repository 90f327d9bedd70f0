"""Migrated code passes the project's import sorter when the original did: ruff's `I` rules
(isort's default order) on every fixture's output, and on imports added to modules laid out
in each way a sorter leaves them."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Iterable, List, Set

import libcst as cst
import pytest

from migrator.import_placement import add_imports
from migrator.rule import Import
from tests.fixture_cases import all_cases, project_cases


def unsorted(paths: Iterable[Path], cwd: Path) -> Set[Path]:
    """The files among ``paths`` whose imports ruff would sort (run in ``cwd``, where it looks for
    the project's own packages)."""
    run = subprocess.run(
        [sys.executable, "-m", "ruff", "check", "--isolated", "--select", "I", "--output-format", "json",
         "--exit-zero", *map(str, paths)],
        cwd=cwd, capture_output=True, text=True, check=True,
    )
    return {Path(diagnostic["filename"]) for diagnostic in json.loads(run.stdout)}


def test_every_migrated_fixture_is_sorted_when_its_original_is(tmp_path: Path) -> None:
    cases = [case for case in all_cases() if case.after is not None]
    for case in cases:
        folder = tmp_path / case.rule / case.folder.name
        folder.mkdir(parents=True)
        (folder / "before.py").write_bytes(case.before)
        (folder / "after.py").write_bytes(case.after)
    flagged = unsorted((tmp_path / c.rule / c.folder.name / name for c in cases for name in ("before.py", "after.py")), tmp_path)
    sorted_before = [c for c in cases if tmp_path / c.rule / c.folder.name / "before.py" not in flagged]
    assert len(sorted_before) > len(cases) / 2  # the check means something
    assert [c.id for c in sorted_before if tmp_path / c.rule / c.folder.name / "after.py" in flagged] == []


@pytest.mark.parametrize("case", project_cases(), ids=lambda case: case.id)
def test_every_migrated_project_is_sorted_when_its_original_is(tmp_path: Path, case) -> None:
    for name, files in (("before", case.before_files), ("after", case.after_files)):
        for path, content in files.items():
            (tmp_path / name / path).parent.mkdir(parents=True, exist_ok=True)
            (tmp_path / name / path).write_bytes(content)
    originals = {Path(p) for p in case.before_files if p.endswith(".py")}
    sorted_originals = originals - {p.relative_to(tmp_path / "before") for p in unsorted(originals, tmp_path / "before")}
    migrated = {p.relative_to(tmp_path / "after") for p in unsorted(sorted_originals, tmp_path / "after")}
    assert migrated == set()


@pytest.mark.parametrize(
    "source, needed, expected",
    [
        pytest.param(
            "from openai import OpenAI, pydantic_function_tool\n",
            [Import("openai", "DEFAULT_MAX_RETRIES"), Import("openai", "pydantic_responses_function_tool")],
            "from openai import (\n    DEFAULT_MAX_RETRIES,\n    OpenAI,\n    pydantic_function_tool,\n"
            "    pydantic_responses_function_tool,\n)\n",
            id="constants-classes-then-functions-wrapped-when-too-long",
        ),
        pytest.param(
            '"""Doc."""\nfrom __future__ import annotations\n\nimport os\n\nimport pydantic\n\nfrom app import db\n\nx = 1\n',
            [Import("openai.types.responses", "Response")],
            '"""Doc."""\nfrom __future__ import annotations\n\nimport os\n\nimport pydantic\nfrom openai.types.responses import Response\n\n'
            "from app import db\n\nx = 1\n",
            id="no-openai-import-first-absolute-group-is-third-party",
        ),
        pytest.param(
            "import os\n\nimport openai\nimport pydantic\n\nfrom app import db\n",
            [Import("openai.types.responses", n) for n in ("ResponseTextConfigParam", "Response", "ResponseInputParam")],
            "import os\n\nimport openai\nimport pydantic\n"
            "from openai.types.responses import Response, ResponseInputParam, ResponseTextConfigParam\n\nfrom app import db\n",
            id="from-imports-after-plain-ones-in-the-group-holding-openai",
        ),
        pytest.param(
            "import openai\r\n\r\nprint(openai)\r\n",
            [Import("typing", "Optional")],
            "from typing import Optional\r\n\r\nimport openai\r\n\r\nprint(openai)\r\n",
            id="standard-library-first-keeping-crlf",
        ),
    ],
)
def test_added_imports_go_where_the_sorter_puts_them(tmp_path: Path, source: str, needed: List[Import], expected: str) -> None:
    output = add_imports(cst.parse_module(source.encode()), needed).bytes.decode()
    assert output == expected
    (tmp_path / "app").mkdir()  # the project's own package, for ruff
    (tmp_path / "app" / "__init__.py").write_text("")
    (tmp_path / "module.py").write_bytes(output.encode())
    assert unsorted([tmp_path / "module.py"], tmp_path) == set()
