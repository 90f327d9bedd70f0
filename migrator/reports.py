"""The findings of `check` in the formats other tools read: JSON, SARIF 2.1.0, GitHub annotations.

Each function turns the engine's results into the text to print; nothing here prints, runs
the engine or decides an exit code. The JSON format is versioned and documented in README.md
("Output formats") and by the JSON Schema in schemas/check-report.schema.json.
"""

from __future__ import annotations

import json
from collections import Counter, defaultdict
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Dict, List, Mapping, Optional, Sequence, Set, Tuple
from urllib.parse import quote

import migrator
from migrator import TOOL_NAME
from migrator.model import Confidence, FileResult, Finding, Options, Position
from migrator.notebook import FileLines
from migrator.render import call_note, explanation, plural, rule_counts, shown, store_policy
from migrator.rule import Rule

JSON_FORMAT_VERSION = 1
SARIF_SCHEMA = "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json"


@dataclass(frozen=True)
class Located:
    """A finding with the path it is shown under and, in a notebook, the lines of the file it and its call are on."""

    path: str  # as the text output shows it: relative to the current directory, with "/"
    finding: Finding
    file_line: int  # the line in the file: `finding.line`, or for a notebook cell the line of its JSON
    call_file_line: Optional[int] = None  # the same for the call the finding is about, if any

    @property
    def where(self) -> str:
        """The position as people read it: `line 2, column 5`, in a notebook `cell 4, line 2, column 5`."""
        return _where(self.finding.position)


def _where(position: Position) -> str:
    cell = f"cell {position.cell}, " if position.cell is not None else ""
    return f"{cell}line {position.line}, column {position.column}"


def located(results: Sequence[FileResult]) -> List[Located]:
    """Every finding, sorted by path then position."""
    items: List[Located] = []
    for result in results:
        lines = FileLines(result.result.source) if result.result and _has_cells(result) else None
        for finding in result.findings:
            call_file_line = _file_line(lines, finding.call) if finding.call is not None else None
            items.append(Located(shown(result.path), finding, _file_line(lines, finding.position), call_file_line))
    return sorted(items, key=lambda item: (item.path, item.finding.sort_key()))


def _file_line(lines: Optional[FileLines], position: Position) -> int:
    """The line of the file ``position`` is on: its own line, or in a notebook cell the line of its JSON."""
    if lines is None or position.cell is None:
        return position.line
    return lines.file_line(position.cell, position.line) or 1


def _has_cells(result: FileResult) -> bool:
    return any(finding.cell is not None for finding in result.findings)


def errors(results: Sequence[FileResult]) -> List[Tuple[str, str]]:
    """(path, reason) of each file that could not be processed."""
    return [(shown(result.path), result.error) for result in results if result.error is not None]


# --- JSON ----------------------------------------------------------------------------------------


def json_report(items: Sequence[Located], failed: Sequence[Tuple[str, str]], files: int, rules: Mapping[str, Rule]) -> str:
    findings = [item.finding for item in items]
    report = {
        "version": JSON_FORMAT_VERSION,
        "tool": {"name": TOOL_NAME, "version": migrator.__version__},
        "findings": [_finding_json(item, rules) for item in items],
        "errors": [{"path": path, "message": message} for path, message in failed],
        "summary": {
            "files": files,
            "findings": len(findings),
            "fixable": sum(finding.fixable for finding in findings),
            "unsafe_fixes": sum(finding.unsafe_fix and not finding.fixable for finding in findings),
            "errors": len(failed),
            "rules": {rule: count for rule, count, _ in rule_counts(findings)},
        },
    }
    return json.dumps(report, indent=2, ensure_ascii=False) + "\n"


def _finding_json(item: Located, rules: Mapping[str, Rule]) -> dict:
    finding = item.finding
    rule = rules.get(finding.rule)
    return {
        "path": item.path,
        "cell": finding.cell,
        "line": finding.line,
        "column": finding.column,
        "rule": finding.rule,
        "message": finding.message,
        "call": None if finding.call is None else _position_json(finding.call),
        "fixable": finding.fixable,
        "unsafe_fix": finding.unsafe_fix,
        "fix_safety": rule.safety.value if rule else None,
        "confidence": finding.confidence.value,
    }


def _position_json(position: Position) -> dict:
    return {"cell": position.cell, "line": position.line, "column": position.column}


@dataclass(frozen=True)
class RuleCalls:
    """What `check --statistics` says of one rule."""

    rule: str
    calls: int  # the calls its findings are about, each once; a finding about no call counts as one
    findings: int
    fixable: int  # findings `apply` fixes


def calls_per_rule(results: Sequence[FileResult]) -> List[RuleCalls]:
    """Per rule, the calls it reports: the most first, then by id. A call blocked by three reads
    is one call to migrate, however many lines the rule reports it on."""
    calls: Dict[str, Set[Tuple[Path, Position]]] = defaultdict(set)
    about_no_call: Counter = Counter()
    findings: List[Finding] = []
    for result in results:
        for finding in result.findings:
            findings.append(finding)
            if finding.call is None:
                about_no_call[finding.rule] += 1
            else:
                calls[finding.rule].add((result.path, finding.call))
    rows = [
        RuleCalls(rule, len(calls[rule]) + about_no_call[rule], count, fixable)
        for rule, count, fixable in rule_counts(findings)
    ]
    return sorted(rows, key=lambda row: (-row.calls, row.rule))


def statistics_json(results: Sequence[FileResult], rules: Mapping[str, Rule]) -> str:
    # `count` and `fixable` count findings: version 1 of the format changes no field's meaning,
    # so the calls are a field of their own.
    rows = [
        {
            "rule": row.rule,
            "title": _title(rules, row.rule),
            "calls": row.calls,
            "count": row.findings,
            "fixable": row.fixable,
        }
        for row in calls_per_rule(results)
    ]
    return json.dumps({"version": JSON_FORMAT_VERSION, "statistics": rows}, indent=2, ensure_ascii=False) + "\n"


def statistics_lines(results: Sequence[FileResult], rules: Mapping[str, Rule]) -> List[str]:
    """Under a header, one line per rule, as ruff's --statistics: the calls it reports, rule,
    `[*]` if all its findings are fixable (`[-]` if some), title."""
    rows = calls_per_rule(results)
    if not rows:
        return []
    width = max(len(row.rule) for row in rows)
    lines = [f"{'calls':>5}  {'rule':<{width}}  fix title"]
    for row in rows:
        mark = "[*]" if row.fixable == row.findings else "[-]" if row.fixable else "   "
        lines.append(f"{row.calls:>5}  {row.rule:<{width}}  {mark} {_title(rules, row.rule)}")
    return lines


def _title(rules: Mapping[str, Rule], rule_id: str) -> str:
    rule = rules.get(rule_id)
    return rule.title if rule else rule_id


# --- SARIF 2.1.0 -------------------------------------------------------------------------------


def sarif_report(items: Sequence[Located], failed: Sequence[Tuple[str, str]], rules: Mapping[str, Rule]) -> str:
    """A SARIF 2.1.0 log: one run, every rule with its documentation, one result per finding."""
    index = {rule_id: position for position, rule_id in enumerate(rules)}
    run = {
        "tool": {
            "driver": {
                "name": TOOL_NAME,
                "version": migrator.__version__,
                "semanticVersion": migrator.__version__,
                "rules": [_sarif_rule(rule, explanation(rule)) for rule in rules.values()],
            }
        },
        "invocations": [
            {
                "executionSuccessful": not failed,
                "toolExecutionNotifications": [
                    {
                        "level": "error",
                        "message": {"text": f"could not be processed: {message}"},
                        "locations": [{"physicalLocation": {"artifactLocation": _artifact(path)}}],
                    }
                    for path, message in failed
                ],
            }
        ],
        "columnKind": "unicodeCodePoints",
        "results": [_sarif_result(item, index) for item in items],
    }
    log = {"$schema": SARIF_SCHEMA, "version": "2.1.0", "runs": [run]}
    return json.dumps(log, indent=2, ensure_ascii=False) + "\n"


def _sarif_rule(rule: Rule, help_markdown: str) -> dict:
    return {
        "id": rule.id,
        "name": "".join(part.capitalize() for part in rule.id.split("_")),
        "shortDescription": {"text": rule.title},
        "fullDescription": {"text": rule.summary},
        "help": {"text": rule.doc, "markdown": help_markdown},
        "defaultConfiguration": {"level": "error"},
        "properties": {"fixSafety": rule.safety.value},
    }


def _sarif_result(item: Located, index: Mapping[str, int]) -> dict:
    finding = item.finding
    region: Dict[str, int] = {"startLine": item.file_line}
    message = finding.message + call_note(finding)
    if finding.cell is None:
        region["startColumn"] = finding.column
    else:  # the region is the line of the notebook's JSON; the message says where in the cell
        message = f"{item.where}: {message}"
    result: dict = {
        "ruleId": finding.rule,
        "level": _level(finding),
        "message": {"text": message},
        "locations": [{"physicalLocation": {"artifactLocation": _artifact(item.path), "region": region}}],
        "properties": {
            "fixable": finding.fixable,
            "unsafeFix": finding.unsafe_fix,
            "confidence": finding.confidence.value,
            **({"cell": finding.cell, "cellLine": finding.line, "cellColumn": finding.column} if finding.cell else {}),
        },
    }
    if finding.call is not None and item.call_file_line is not None:
        result["relatedLocations"] = [_sarif_call_location(item.path, finding.call, item.call_file_line)]
    if finding.rule in index:
        result["ruleIndex"] = index[finding.rule]
    return result


def _sarif_call_location(path: str, call: Position, file_line: int) -> dict:
    """Where the call a finding is about starts, as a related location (placed like the finding)."""
    region: Dict[str, int] = {"startLine": file_line}
    message = "the call this finding is about"
    if call.cell is None:
        region["startColumn"] = call.column
    else:
        message = f"{message}, at {_where(call)}"
    return {
        "physicalLocation": {"artifactLocation": _artifact(path), "region": region},
        "message": {"text": message},
    }


def _artifact(path: str) -> dict:
    return {"uri": quote(path), "uriBaseId": "%SRCROOT%"}


def _level(finding: Finding) -> str:
    """Errors for what the tool is sure of; warnings for patterns it could not trace to a client."""
    return "warning" if finding.confidence is Confidence.LOW else "error"


# --- GitHub Actions workflow commands ----------------------------------------------------------


def github_annotations(items: Sequence[Located], failed: Sequence[Tuple[str, str]]) -> str:
    """`::error file=...,line=...,col=...,title=...::message`, one line per finding and failed file."""
    lines = []
    for item in items:
        finding = item.finding
        properties = {"file": item.path, "line": str(item.file_line)}
        if finding.cell is None:
            properties["col"] = str(finding.column)
        properties["title"] = f"{finding.rule}{' [*]' if finding.fixable else ''}"
        message = finding.message + call_note(finding)
        if finding.cell is not None:
            message = f"{item.where}: {message}"
        lines.append(_command(_level(finding), properties, message))
    for path, message in failed:
        lines.append(_command("error", {"file": path, "title": "migrator: not processed"}, message))
    return "".join(line + "\n" for line in lines)


def _command(level: str, properties: Mapping[str, str], message: str) -> str:
    listed = ",".join(f"{name}={_escape_property(value)}" for name, value in properties.items())
    return f"::{level} {listed}::{_escape_data(message)}"


def _escape_data(text: str) -> str:
    """As GitHub's toolkit escapes a command's message."""
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def _escape_property(text: str) -> str:
    """As GitHub's toolkit escapes a command's property values."""
    return _escape_data(text).replace(":", "%3A").replace(",", "%2C")


# --- choosing -----------------------------------------------------------------------------------

def document(output_format: str, statistics: bool, results: Sequence[FileResult], rules: Callable[[], Mapping[str, Rule]]) -> str:
    """What `check --output-format FORMAT [--statistics]` prints on stdout (not plain text findings).

    ``rules`` gives the registry; it is called only by the formats that describe the rules.
    """
    if statistics:
        if output_format == "json":
            return statistics_json(results, rules())
        return "".join(line + "\n" for line in statistics_lines(results, rules()))
    if output_format == "json":
        return json_report(located(results), errors(results), len(results), rules())
    if output_format == "sarif":
        return sarif_report(located(results), errors(results), rules())
    if output_format == "github":
        return github_annotations(located(results), errors(results))
    raise ValueError(f"no document for the {output_format!r} format")


# --- Markdown, for a pull request -------------------------------------------------------------------

# The options that change what `apply` does, as its command line spells them.
OPTION_FLAGS = (
    ("unsafe_fixes", "--unsafe-fixes"),
    ("store_false", "--store-false"),
    ("assume_openai", "--assume-openai"),
    ("allow_other_servers", "--allow-other-servers"),
)


def markdown_report(
    results: Sequence[FileResult], options: Options, paths: Sequence[str], after: Optional[Sequence[FileResult]] = None
) -> str:
    """A summary for a pull request's description: the calls migrated (or, without ``after``,
    that `apply` would migrate) by rule and by file, what is left for a person with links to
    its lines (in the files as ``after`` finds them once written), the options used, and the
    command that reproduces the change."""
    applied = after is not None
    fixed = [item for item in located(results) if item.finding.fixable]
    left = [item for item in located(after if applied else results) if not item.finding.fixable]
    calls_by_rule = Counter(
        item.finding.rule for item in fixed if item.finding.call is not None and item.finding.call == item.finding.position
    )
    migrated_by_file = [(shown(r.path), r.result.calls_migrated) for r in results if r.result is not None and r.result.calls_migrated]
    left_by_file = Counter(item.path for item in left)
    verb = "migrated" if applied else "that `migrator apply` migrates"
    flags = [flag for field, flag in OPTION_FLAGS if getattr(options, field)]
    lines = [
        "## Chat Completions to Responses",
        "",
        f"**{plural(sum(n for _, n in migrated_by_file), 'call')} {verb}** in {plural(len(migrated_by_file), 'file')}; "
        f"**{plural(len(left), 'finding')} left for review**; {plural(len(results), 'file')} scanned.",
        f"Options: {' '.join(f'`{flag}`' for flag in flags) or 'none'} ({store_policy(options)}).",
    ]
    if calls_by_rule:
        lines += ["", f"### Calls {verb}, by rule", "", "| rule | calls |", "| --- | ---: |"]
        lines += [f"| `{rule}` | {count} |" for rule, count in sorted(calls_by_rule.items(), key=lambda pair: (-pair[1], pair[0]))]
    files = sorted({path for path, _ in migrated_by_file} | set(left_by_file))
    if files:
        migrated = dict(migrated_by_file)
        lines += ["", "### By file", "", "| file | calls migrated | findings left |", "| --- | ---: | ---: |"]
        lines += [f"| `{path}` | {migrated.get(path, 0)} | {left_by_file.get(path, 0)} |" for path in files]
    if left:
        lines += ["", "### Left for review", ""]
        lines += [
            f"- [`{item.path}:{item.file_line}`]({item.path}#L{item.file_line}) `{item.finding.rule}` "
            f"{_markdown_text(item.finding.message)}{call_note(item.finding)}"
            for item in left
        ]
    failed = errors(results)
    if failed:
        lines += ["", "### Not processed", ""] + [f"- `{path}`: {_markdown_text(reason)}" for path, reason in failed]
    command = " ".join(["migrator", "apply", *flags, *paths])
    lines += ["", "### Reproduce", "", "```sh", "pip install responses-migrator", command, "```"]
    return "\n".join(lines) + "\n"


def _markdown_text(text: str) -> str:
    """A message on one line of a Markdown list: its pipes and angle brackets kept as text."""
    return " ".join(text.split()).replace("<", "&lt;").replace(">", "&gt;")
