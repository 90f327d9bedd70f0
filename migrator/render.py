"""How the CLI shows what the engine returned: finding lines, diffs, summaries, rule docs.

Everything printed goes through `Output`, which knows the two streams and the user's
-q / -v / --no-color choices. Nothing here runs the engine or decides an exit code.
"""

from __future__ import annotations

import os
import sys
import time
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Iterable, List, Mapping, Optional, Sequence, TextIO, Tuple

from migrator.diffing import diff_path
from migrator.model import FileResult, Finding, Options

if TYPE_CHECKING:
    from rich.console import Console
    from rich.progress import Progress
    from rich.table import Table

    from migrator.probe import Report
    from migrator.rule import Rule

PROGRESS_DELAY = 0.3  # seconds: a run faster than this shows no progress bar
STDIN = Path("-")  # the path `-` stands for standard input, and names it in output

DIFF_LINE_STYLES = (("+++", "bold"), ("---", "bold"), ("@@", "cyan"), ("+", "green"), ("-", "red"))
# The control characters rich drops from any text it prints (bell, backspace, vertical tab,
# form feed, carriage return): a `\r` of a CRLF file quoted in a message among them.
DROPPED_CONTROLS = dict.fromkeys((7, 8, 11, 12, 13))
TAB_SIZE = 8
# Either makes rich treat a stream that is not a terminal as one (https://force-color.org/).
TERMINAL_OVERRIDES = ("FORCE_COLOR", "TTY_COMPATIBLE")

Span = Tuple[str, str]  # a piece of a line, and its style ("" for none)


def shown(path: Path) -> str:
    """`path` as the diff headers spell it: relative to the current directory when inside it.

    Bytes of a file name that are not UTF-8 become U+FFFD rather than crash the output.
    """
    return diff_path(path).encode("utf-8", "surrogateescape").decode("utf-8", "replace")


@dataclass(frozen=True)
class Tally:
    """The counts a summary reports."""

    files: int
    changed: int  # files changed (or, in a dry run, that would change)
    calls_migrated: int
    findings: int
    fixable: int
    errors: int
    unsafe_held_back: int  # findings that --unsafe-fixes would fix

    @classmethod
    def of(cls, results: Sequence[FileResult]) -> "Tally":
        processed = [r for r in results if r.error is None]
        changed = [r for r in processed if r.changed]
        findings = [f for r in processed for f in r.findings]
        return cls(
            files=len(results),
            changed=len(changed),
            calls_migrated=sum(r.result.calls_migrated for r in changed if r.result),
            findings=len(findings),
            fixable=sum(f.fixable for f in findings),
            errors=len(results) - len(processed),
            unsafe_held_back=sum(f.unsafe_fix and not f.fixable for f in findings),
        )

    @property
    def manual(self) -> int:
        return self.findings - self.fixable


def plural(count: int, noun: str) -> str:
    return f"{count} {noun}" if count == 1 else f"{count} {noun}s"


class Stream:
    """stdout or stderr, written in lines of styled pieces: through rich on a terminal (colour,
    progress bars); elsewhere as plain text, which is what rich writes there too, less the cost
    of importing it (a third of a warm `check`'s start-up). Both get the text with the control
    characters rich drops removed and tabs expanded, so that rich has nothing left to change in
    it: tests/test_render.py compares the two."""

    def __init__(self, stderr: bool, no_color: bool) -> None:
        self._stderr = stderr
        self._no_color = no_color
        self._console: Optional[Console] = None

    @property
    def file(self) -> Optional[TextIO]:
        """Looked up when written to, as rich does: a test or a caller may have replaced it."""
        return sys.stderr if self._stderr else sys.stdout

    @property
    def is_plain(self) -> bool:
        """Certainly not a terminal for rich: not a TTY, and no variable says to treat it as one."""
        try:
            is_tty = self.file.isatty()
        except (AttributeError, ValueError):  # no such method, or closed
            is_tty = False
        return not is_tty and not any(name in os.environ for name in TERMINAL_OVERRIDES)

    @property
    def console(self) -> Console:
        if self._console is None:
            from rich.console import Console

            # soft_wrap: a finding or diff line must stay one line whatever the terminal width.
            self._console = Console(stderr=self._stderr, no_color=self._no_color, highlight=False, soft_wrap=True)
        return self._console

    @property
    def is_terminal(self) -> bool:
        return not self.is_plain and self.console.is_terminal

    def line(self, *spans: Span) -> None:
        printable = _printable(spans)
        if self.is_plain:
            file = self.file
            if file is None:  # no such stream (pythonw): rich writes nowhere too
                return
            file.write("".join(text for text, _ in printable) + "\n")
            file.flush()  # as rich does: lines of stdout and stderr sent to one pipe stay in order
        else:
            from rich.text import Text

            self.console.print(Text.assemble(*printable))


def _printable(spans: Sequence[Span]) -> List[Span]:
    """The pieces of a line less the control characters rich drops, tabs expanded from the
    start of the line (rich counts terminal cells, this code points: after a wide character a
    tab stops at another column)."""
    printable = []
    column = 0
    for text, style in spans:
        text = text.translate(DROPPED_CONTROLS)
        if "\t" in text:  # expanded where the piece starts: after a stand-in for what precedes it
            text = ("." * column + text).expandtabs(TAB_SIZE)[column:]
        line_start = text.rfind("\n") + 1
        column = column + len(text) if line_start == 0 else len(text) - line_start
        printable.append((text, style))
    return printable


class Output:
    """The two streams and the user's choices about them.

    stdout carries a command's product (the patch, the findings of `check`, migrated source
    for `-`); stderr carries everything said about it, so that the product can be piped.
    """

    def __init__(self, quiet: bool = False, verbose: bool = False, no_color: bool = False) -> None:
        self.quiet = quiet
        self.verbose = verbose
        self.no_color = no_color
        self.stdout = Stream(stderr=False, no_color=no_color)
        self.stderr = Stream(stderr=True, no_color=no_color)

    # --- progress and per-file notes -------------------------------------------------

    def collect(self, results: Iterable[FileResult], total: Optional[int] = None) -> List[FileResult]:
        """Drain the engine's results; on a terminal, a run that takes a while shows a progress bar."""
        if self.quiet or not self.stderr.is_terminal:
            return list(results)
        collected: List[FileResult] = []
        started = time.monotonic()
        bar = None
        try:
            for result in results:
                collected.append(result)
                if bar is None and time.monotonic() - started >= PROGRESS_DELAY:
                    bar = progress_bar(self.stderr.console, total)
                if bar is not None:
                    bar.update(bar.task_ids[0], completed=len(collected), path=shown(result.path))
        finally:
            if bar is not None:
                bar.stop()
        return collected

    def file_notes(self, results: Sequence[FileResult], dry_run: bool) -> None:
        """With -v: one line per file saying what happened to it."""
        if not self.verbose:
            return
        for result in results:
            if result.error is not None:
                continue  # `errors` reports it
            if result.changed and result.result:
                verb = "would change" if dry_run else "changed"
                note = f"{verb}, {plural(result.result.calls_migrated, 'call')} migrated"
            else:
                note = "unchanged"
            if result.findings:
                note += f", {plural(len(result.findings), 'finding')}"
            self.stderr.line((f"{shown(result.path)}: {note}", "dim"))
        if any(result.result is not None and result.result.source for result in results):
            # Only a run that read a file with LibCST says how: loading it costs a start-up.
            from migrator.libcst_internals import PUBLIC_API_REASON

            if PUBLIC_API_REASON is not None:
                self.stderr.line((f"analysed through LibCST's public API, about twice as slow ({PUBLIC_API_REASON})", "dim"))

    def errors(self, results: Sequence[FileResult]) -> None:
        """Files that could not be processed, whatever -q says: they are why the exit code is 2."""
        for result in results:
            if result.error is not None:
                self.stderr.line((f"{shown(result.path)}: ", "bold"), ("error: ", "bold red"), (result.error, ""))

    def refuse_dirty(self, paths: Sequence[Path]) -> None:
        """Why `apply` wrote nothing: files it would change have uncommitted changes."""
        self.stderr.line(
            ("error: ", "bold red"),
            (f"not writing anything: {plural(len(paths), 'file')} to change with uncommitted changes ", ""),
            ("(commit or stash them, or pass --allow-dirty):", ""),
        )
        for path in paths:
            self.stderr.line((f"  {shown(path)}", ""))

    # --- findings ---------------------------------------------------------------------

    def findings(self, results: Sequence[FileResult], stream: Stream, manual_only: bool = False) -> None:
        """`path:line:col: RULE-ID [*] message`, sorted by path then position."""
        for path, finding in sorted_findings(results):
            if manual_only and finding.fixable:
                continue
            stream.line(*finding_line(path, finding))

    def document(self, text: str) -> None:
        """A machine-readable report (JSON, SARIF, annotations) on stdout, exactly as given."""
        sys.stdout.write(text)
        sys.stdout.flush()

    # --- diffs ------------------------------------------------------------------------

    def diff(self, patch: bytes) -> None:
        """A unified diff: coloured on a terminal, else the exact bytes (the files' own encoding)."""
        if not (self.stdout.is_terminal and self.stdout.console.color_system and not self.no_color):
            sys.stdout.flush()
            sys.stdout.buffer.write(patch)
            sys.stdout.buffer.flush()
            return
        for line in patch.decode("utf-8", "replace").splitlines():
            style = next((style for prefix, style in DIFF_LINE_STYLES if line.startswith(prefix)), "")
            self.stdout.line((line, style))

    # --- summaries --------------------------------------------------------------------

    def say(self, *lines: str) -> None:
        """Summary lines, on stderr; -q silences them."""
        if not self.quiet:
            for line in lines:
                if line:
                    self.stderr.line((line, ""))


def progress_bar(console: Console, total: Optional[int]) -> Progress:
    """A started, transient bar of files done out of `total` (a pulsing bar when unknown)."""
    from rich import progress  # only runs long enough to show it pay for importing it

    bar = progress.Progress(
        progress.BarColumn(),
        progress.MofNCompleteColumn(),
        progress.TimeElapsedColumn(),
        progress.TextColumn("{task.fields[path]}", style="dim"),
        console=console,
        transient=True,
    )
    bar.add_task("files", total=total, path="")
    bar.start()
    return bar


def patch(result: FileResult) -> bytes:
    """The unified diff of a changed file; in a notebook, each hunk names the cell it changes."""
    from migrator.diffing import unified_diff_bytes
    from migrator.engine import NOTEBOOK_SUFFIX
    from migrator.notebook import FileLines

    assert result.result is not None
    before, after = result.result.source, result.result.output
    if result.path.suffix != NOTEBOOK_SUFFIX:
        return unified_diff_bytes(diff_path(result.path), before, after)
    lines = FileLines(before)

    def heading(line: int) -> str:
        cell = lines.cell_at(line)
        return f"cell {cell}" if cell is not None else ""

    return unified_diff_bytes(diff_path(result.path), before, after, heading)


def sorted_findings(results: Sequence[FileResult]) -> List[Tuple[str, Finding]]:
    lines = [(shown(result.path), finding) for result in results for finding in result.findings]
    return sorted(lines, key=lambda item: (item[0], item[1].sort_key()))


def finding_line(path: str, finding: Finding) -> List[Span]:
    line = [(f"{location(path, finding)}: ", "bold"), (finding.rule, "red")]
    if finding.fixable:
        line.append((" [*]", "cyan"))
    line.append((f" {finding.message}{call_note(finding)}", ""))
    return line


def call_note(finding: Finding) -> str:
    """Where the call a finding is about starts, when the finding's location does not say:
    ` (call at line 10)`, or ` (call at cell 2, line 10)` when it is in another notebook cell."""
    call = finding.call
    if call is None:
        return ""
    if call.cell != finding.cell:
        return f" (call at cell {call.cell}, line {call.line})"
    if call.line != finding.line:
        return f" (call at line {call.line})"
    return ""


def location(path: str, finding: Finding) -> str:
    """`path:line:col`; in a notebook `path:cell 4:line 2:col 5` (the cell's position among all cells)."""
    if finding.cell is None:
        return f"{path}:{finding.line}:{finding.column}"
    return f"{path}:cell {finding.cell}:line {finding.line}:col {finding.column}"


def rule_counts(findings: Sequence[Finding]) -> List[Tuple[str, int, int]]:
    """(rule id, findings, fixable findings) per rule: the most frequent first, then by id."""
    counts = Counter(finding.rule for finding in findings)
    fixable = Counter(finding.rule for finding in findings if finding.fixable)
    return [(rule, counts[rule], fixable[rule]) for rule in sorted(counts, key=lambda rule: (-counts[rule], rule))]


def by_rule(findings: Sequence[Finding]) -> str:
    """`By rule: a 3 (2 fixable), b 1.` for the summary of `check`."""
    if not findings:
        return ""
    parts = [f"{rule} {count}" + (f" ({fixable} fixable)" if fixable else "") for rule, count, fixable in rule_counts(findings)]
    return f"By rule: {', '.join(parts)}."


def unsafe_hint(tally: Tally) -> str:
    if not tally.unsafe_held_back:
        return ""
    more = "change is" if tally.unsafe_held_back == 1 else "changes are"
    return f"{tally.unsafe_held_back} more {more} available with --unsafe-fixes."


def store_policy(options: Options) -> str:
    return "store=False added" if options.store_false else "store: unchanged"


def check_summary(tally: Tally) -> List[str]:
    scanned = f"{plural(tally.files, 'file')} scanned"
    if tally.findings:
        found = f"{scanned}: {plural(tally.findings, 'finding')} ({tally.fixable} fixable with `migrator apply`)."
    else:
        found = f"{scanned}: no findings."
    return [found, unsafe_hint(tally), errors_summary(tally)]


def change_summary(tally: Tally, options: Options, dry_run: bool) -> List[str]:
    """What `apply` did, or (dry run) what `diff` shows it would do."""
    verb = "would change" if dry_run else "changed"
    changed = (
        f"{plural(tally.files, 'file')} scanned, {tally.changed} {verb}, "
        f"{plural(tally.calls_migrated, 'call')} migrated ({store_policy(options)})."
    )
    manual = f"{plural(tally.manual, 'finding')} left for manual review." if tally.manual else ""
    return [changed, manual, unsafe_hint(tally), errors_summary(tally)]


def errors_summary(tally: Tally) -> str:
    if not tally.errors:
        return ""
    return f"{plural(tally.errors, 'file')} could not be processed."


# --- rules ------------------------------------------------------------------------------


def rules_table(rules: Mapping[str, Rule]) -> Table:
    from rich.table import Table  # only `migrator rules` needs it

    table = Table("Rule", "Title", "Fix safety")
    for rule in rules.values():
        table.add_row(rule.id, rule.title, rule.safety.value)
    return table


def rules_markdown(rules: Mapping[str, Rule]) -> str:
    """The README's rule table."""
    lines = ["| Rule | Title | Fix safety |", "| --- | --- | --- |"]
    for rule in rules.values():
        title = rule.title.replace("|", "\\|")
        lines.append(f"| `{rule.id}` | {title} | {rule.safety.value} |")
    return "\n".join(lines) + "\n"


def explanation(rule: Rule) -> str:
    """A rule's doc and its examples, as markdown."""
    parts = [f"# {rule.id}: {rule.title}", rule.doc, f"Fix safety: **{rule.safety.value}**."]
    if rule.examples:
        parts.append("## Examples")
    for example in rule.examples:
        flags = " ".join(f"`--{option.replace('_', '-')}`" for option in example.options)
        parts.append(f"Before{f' (with {flags})' if flags else ''}:\n\n```python\n{example.before.strip()}\n```")
        if example.after is not None:
            parts.append(f"After:\n\n```python\n{example.after.strip()}\n```")
        else:
            reported = f", and reported: {example.finding}" if example.finding else "."
            parts.append(f"Left as it is{reported}")
    return "\n\n".join(part for part in parts if part) + "\n"


def markdown(console: Console, text: str) -> None:
    """Rendered on a terminal, raw when piped (so it can be pasted or grepped)."""
    if console.is_terminal:
        from rich.markdown import Markdown  # imports a markdown parser: only `explain` needs it

        console.print(Markdown(text))
    else:
        console.file.write(text)


# --- probe ------------------------------------------------------------------------------

PROBE_COLUMNS = ("Request", "Status", "Result")
VERDICT_STYLES = {"safe": "bold green", "partial": "bold yellow"}  # the others: bold red


def probe_lines(report: Report) -> List[List[Span]]:
    """`migrator probe`'s table: what was asked of whom, a row per request, and the verdict."""
    model = f"model `{report.model}`" if report.model else "no model"
    key = "sent" if report.api_key_set else "not set, so none sent"
    lines: List[List[Span]] = [
        [(f"Probe of {report.base_url}, {model}; API key (${report.api_key_env}): {key}", "bold")],
        [("", "")],
    ]
    rows = [
        (
            f"{outcome.check.title} ({outcome.check.method} {outcome.check.path})",
            str(outcome.status) if outcome.status is not None else ("no answer" if outcome.sent else "-"),
            "ok" if outcome.ok else outcome.detail,
            outcome.ok,
        )
        for outcome in report.outcomes
    ]
    widths = [max(len(row[column]) for row in [(*PROBE_COLUMNS, True), *rows]) for column in range(2)]
    lines.append([(f"{PROBE_COLUMNS[0]:<{widths[0]}}  {PROBE_COLUMNS[1]:<{widths[1]}}  {PROBE_COLUMNS[2]}", "bold")])
    for request, status, result, ok in rows:
        lines.append([(f"{request:<{widths[0]}}  {status:<{widths[1]}}  ", ""), (result, "green" if ok else "red")])
    verdict = report.verdict.value
    lines += [[("", "")], [("Verdict: ", "bold"), (verdict, VERDICT_STYLES.get(verdict, "bold red")), (f": {report.reason}", "")]]
    return lines


def probe_json(report: Report, exit_code: int) -> str:
    """`migrator probe --output-format json`, documented by schemas/probe-report.schema.json: version 1
    only gains fields, as `check`'s JSON does."""
    import json  # only `probe` needs it here

    import migrator

    document = {
        "version": 1,
        "tool": {"name": migrator.TOOL_NAME, "version": migrator.__version__},
        "base_url": report.base_url,
        "model": report.model,
        "api_key": {"variable": report.api_key_env, "sent": report.api_key_set},
        "requests": [
            {
                "id": outcome.check.id,
                "title": outcome.check.title,
                "method": outcome.check.method,
                "path": outcome.check.path,
                "sent": outcome.sent,
                "status": outcome.status,
                "ok": outcome.ok,
                "detail": outcome.detail,
            }
            for outcome in report.outcomes
        ],
        "verdict": report.verdict.value,
        "reason": report.reason,
        "exit_code": exit_code,
    }
    return json.dumps(document, indent=2, ensure_ascii=False) + "\n"
