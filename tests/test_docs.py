"""README.md stays true to the code: its rule table, its CLI options and its first commands.

`python -m tests.test_docs` rewrites the rule table from the registry.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import List, Set, Tuple

import typer.main

from migrator import cli, render
from migrator.registry import all_rules

README = Path(__file__).resolve().parent.parent / "README.md"
TABLE_START = "<!-- rules-table:start -->\n"
TABLE_END = "<!-- rules-table:end -->"
FRESH_MACHINE_COMMANDS = [
    "pip install . && migrator diff examples/quickstart.py",
    "pip install '.[test]' && python -m pytest -n auto",
]


def readme() -> str:
    return README.read_text(encoding="utf-8")


def table_span(text: str) -> Tuple[int, int]:
    """Where the generated rule table sits in README.md's text, between its markers."""
    return text.index(TABLE_START) + len(TABLE_START), text.index(TABLE_END)


def test_readme_rule_table_is_the_registry() -> None:
    text = readme()
    start, end = table_span(text)
    assert text[start:end] == render.rules_markdown(all_rules()), (
        "README.md's rule table is out of date: run `python -m tests.test_docs` to regenerate it"
    )


def cli_options() -> List[str]:
    """Every long option of every command."""
    group = typer.main.get_command(cli.app)
    options: Set[str] = set()
    for command in group.commands.values():  # type: ignore[attr-defined]
        for parameter in command.params:
            options.update(opt for opt in parameter.opts if opt.startswith("--") and opt != "--help")
    return sorted(options)


def test_readme_documents_every_cli_option() -> None:
    text = readme()
    missing = [option for option in cli_options() if f"`{option}" not in text]
    assert not missing, f"README.md does not document {', '.join(missing)}"


def test_readme_starts_with_the_commands_that_work_on_a_fresh_machine() -> None:
    first_block = re.search(r"```\w*\n(.*?)```", readme(), re.DOTALL)
    assert first_block is not None
    assert first_block.group(1).splitlines() == FRESH_MACHINE_COMMANDS


if __name__ == "__main__":
    text = readme()
    start, end = table_span(text)
    README.write_text(text[:start] + render.rules_markdown(all_rules()) + text[end:], encoding="utf-8")


def readme_workflows() -> List[dict]:
    """The GitHub Actions workflows README shows in full (a YAML block that starts with `name:`)."""
    import yaml

    blocks = re.findall(r"```yaml\n(.*?)```", readme(), re.DOTALL)
    return [yaml.safe_load(block) for block in blocks if block.startswith("name:")]


def test_readme_workflows_have_what_github_requires() -> None:
    workflows = readme_workflows()
    assert len(workflows) == 2
    for workflow in workflows:
        # YAML 1.1 reads the key `on` as true.
        assert workflow.get("on", workflow.get(True)), f"{workflow['name']}: no `on`"
        assert workflow["jobs"], f"{workflow['name']}: no jobs"
        for name, job in workflow["jobs"].items():
            assert job["runs-on"], f"{name}: no runs-on"
            assert job["steps"] and all(("uses" in step) != ("run" in step) for step in job["steps"]), name


def test_readme_workflows_call_options_that_exist() -> None:
    options = set(cli_options())
    commands = [step["run"] for w in readme_workflows() for job in w["jobs"].values() for step in job["steps"] if "run" in step]
    used = {word for command in commands if command.startswith("migrator ") for word in command.split() if word.startswith("--")}
    assert used and used <= options, sorted(used - options)
