"""The `migrator` command line: reads the options, runs the engine, renders what it returns.

The engine and the rule registry are imported inside the commands, never at module level:
they import libcst, which a run over files with nothing to migrate should not pay for. What
happens once the options are read is `migrator.session`'s.
"""

from __future__ import annotations

import difflib
import enum
import functools
import inspect
import os
import sys
import traceback
import typing
from pathlib import Path
from typing import Annotated, Any, Callable, Collection, List, Optional, Sequence

import typer
from rich.console import Console

from migrator import render
from migrator.model import FileResult, Options
from migrator.render import STDIN, Output, Tally
from migrator.session import ExitCode, Run, collect, conclude, conclude_check


app = typer.Typer(
    name="migrator",
    help="Migrate Python code from OpenAI Chat Completions to the Responses API.",
    add_completion=False,
    no_args_is_help=True,
    pretty_exceptions_enable=False,  # `main` reports bugs itself, with exit code 2
    rich_markup_mode="markdown",
    context_settings={"help_option_names": ["-h", "--help"]},
)


def shared_options(
    paths: Annotated[
        Optional[List[Path]],
        typer.Argument(
            metavar="PATH",
            help="Files and directories to process (default: the current directory). "
            "`-` alone reads one module from standard input.",
            show_default=False,
        ),
    ] = None,
    select: Annotated[
        Optional[List[str]],
        typer.Option(metavar="RULES", help="Only these rule ids (comma-separated; repeatable)."),
    ] = None,
    ignore: Annotated[
        Optional[List[str]],
        typer.Option(metavar="RULES", help="Not these rule ids (comma-separated; repeatable)."),
    ] = None,
    exclude: Annotated[
        Optional[List[str]],
        typer.Option(metavar="GLOB", help="Skip files and directories matching GLOB (repeatable)."),
    ] = None,
    unsafe_fixes: Annotated[
        Optional[bool],
        typer.Option(
            "--unsafe-fixes/--no-unsafe-fixes",
            help="Also apply fixes that change behaviour (they leave a comment).",
            show_default=False,
        ),
    ] = None,
    store_false: Annotated[
        Optional[bool],
        typer.Option(
            "--store-false/--no-store-false",
            help="Add store=False to migrated calls that do not set `store`.",
            show_default=False,
        ),
    ] = None,
    assume_openai: Annotated[
        Optional[bool],
        typer.Option(
            "--assume-openai/--no-assume-openai",
            help="In files importing openai, treat receivers that cannot be traced as OpenAI clients.",
            show_default=False,
        ),
    ] = None,
    allow_other_servers: Annotated[
        Optional[bool],
        typer.Option(
            "--allow-other-servers/--no-allow-other-servers",
            help="Also migrate calls on clients whose `base_url` is not OpenAI's or Azure's.",
            show_default=False,
        ),
    ] = None,
    openai_host: Annotated[
        Optional[List[str]],
        typer.Option(metavar="HOST", help="Also consider HOST (a glob) OpenAI's, for `base_url` (repeatable)."),
    ] = None,
    config: Annotated[
        Optional[Path],
        typer.Option(
            metavar="FILE",
            help="Read the options from FILE's [tool.migrator] table instead of the nearest pyproject.toml.",
            exists=True,
            dir_okay=False,
        ),
    ] = None,
    jobs: Annotated[
        Optional[int],
        typer.Option(metavar="N", min=1, help="Files processed in parallel (default: the engine's choice)."),
    ] = None,
    no_cache: Annotated[
        bool, typer.Option("--no-cache", help="Neither read nor write the cache of results (`.migrator_cache`).")
    ] = False,
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help="Print only results and errors.")] = False,
    verbose: Annotated[bool, typer.Option("--verbose", "-v", help="Also say what happened to each file.")] = False,
    no_color: Annotated[bool, typer.Option("--no-color", help="Never colour the output.")] = False,
) -> Run:
    """Declares the options `diff`, `apply` and `check` share (see `with_shared_options`)."""
    paths = paths or [Path(".")]
    if STDIN in paths and len(paths) > 1:
        raise typer.BadParameter("`-` (standard input) must be the only path", param_hint="PATH")
    # The command line overrides the configuration, option by option.
    given = {
        "select": frozenset(rule_ids(select, "--select")) if select else None,
        "ignore": frozenset(rule_ids(ignore, "--ignore")) if ignore else None,
        "exclude": exclude or None,
        "unsafe_fixes": unsafe_fixes,
        "store_false": store_false,
        "assume_openai": assume_openai,
        "allow_other_servers": allow_other_servers,
        "openai_hosts": tuple(openai_host) if openai_host else None,
    }
    settings = {**configured(paths, config), **{name: value for name, value in given.items() if value is not None}}
    exclude_globs = settings.pop("exclude", [])
    options = Options(**settings)
    output = Output(quiet=quiet, verbose=verbose, no_color=no_color)
    return Run(paths, options, exclude_globs, jobs, output, use_cache=not no_cache)


def configured(paths: List[Path], config_file: Optional[Path]) -> dict:
    """The options set by `--config FILE`, or by the nearest pyproject.toml's [tool.migrator]
    above the first path; a file that cannot be used is an error (exit 2)."""
    from migrator import config

    try:
        path = config_file or config.find(Path(".") if paths[0] == STDIN else paths[0])
        return config.load(path, known_rule_ids()) if path is not None else {}
    except config.ConfigError as error:
        typer.echo(f"error: {error}", err=True)
        raise typer.Exit(ExitCode.ERROR) from None


def with_shared_options(command: Callable[..., None]) -> Callable[..., None]:
    """Turn `command(run, **own_options)` into a typer command taking its own and the shared options."""
    own = _parameters(command)[1:]  # all but `run`
    shared = _parameters(shared_options)

    @functools.wraps(command)
    def with_run(**values: Any) -> None:
        run = shared_options(**{parameter.name: values.pop(parameter.name) for parameter in shared})
        command(run, **values)

    # Typer reads the parameters from the signature, and their types from __annotations__.
    parameters = [*own, *shared]
    with_run.__signature__ = inspect.Signature(parameters)  # type: ignore[attr-defined]
    with_run.__annotations__ = {parameter.name: parameter.annotation for parameter in parameters}
    return with_run


def _parameters(function: Callable[..., object]) -> List[inspect.Parameter]:
    """`function`'s parameters with evaluated annotations (this module's are strings)."""
    hints = typing.get_type_hints(function, include_extras=True)
    parameters = inspect.signature(function).parameters.values()
    return [parameter.replace(annotation=hints[parameter.name]) for parameter in parameters]


def rule_ids(values: Optional[List[str]], option: str) -> List[str]:
    """The ids in comma-separated, repeatable option values; an unknown id is a usage error."""
    ids = [part.strip() for value in values or [] for part in value.split(",") if part.strip()]
    if ids:
        known = known_rule_ids()
        for rule_id in ids:
            if rule_id not in known:
                raise unknown_rule(rule_id, known, option)
    return ids


def unknown_rule(rule_id: str, known: Collection[str], param_hint: str) -> typer.BadParameter:
    close = difflib.get_close_matches(rule_id, list(known), n=3)
    hint = f"; did you mean {' or '.join(close)}?" if close else "; `migrator rules` lists them"
    return typer.BadParameter(f"unknown rule id {rule_id!r}{hint}", param_hint=param_hint)


def known_rule_ids() -> Collection[str]:
    """Every rule id, read without importing the rules: they import libcst."""
    from migrator.prefilter import declared_needs

    return declared_needs().keys()


def _all_rules() -> dict:
    from migrator.registry import all_rules

    return all_rules()


def finish(run: Run, results: Sequence[FileResult], summary: Sequence[str], found: bool, dry_run: bool) -> None:
    """Report the per-file notes, errors and summary, and exit with the code they call for."""
    raise typer.Exit(conclude(run, results, summary, found, dry_run))


# --- commands ---------------------------------------------------------------------------


@app.command()
@with_shared_options
def diff(
    run: Run,
    exit_code: Annotated[bool, typer.Option("--exit-code", help="Exit 1 if there are changes.")] = False,
) -> None:
    """Print the changes `apply` would make as a patch; write nothing.

    The patch goes to stdout (`git apply` and `patch -p1` take it); findings and the summary go
    to stderr. With `-`, the patch of standard input is headed `a/-` / `b/-`.
    """
    results = collect(run)
    show_patches(run, results)
    summary = render.change_summary(Tally.of(results), run.options, dry_run=True)
    finish(run, results, summary, found=exit_code and any(result.changed for result in results), dry_run=True)


@app.command()
@with_shared_options
def apply(
    run: Run,
    allow_dirty: Annotated[
        bool, typer.Option("--allow-dirty", help="Also rewrite files that have uncommitted git changes.")
    ] = False,
    summary_file: Annotated[
        Optional[Path],
        typer.Option(
            "--summary", metavar="FILE", dir_okay=False,
            help="Also write a Markdown summary of what changed and what is left, for a pull request, to FILE.",
        ),
    ] = None,
) -> None:
    """Rewrite the files; report what is left for manual review.

    With `-`, the migrated module goes to stdout (nothing if it could not be processed) and the
    report to stderr, for editors.
    """
    results = collect(run)
    if run.reads_stdin:
        [result] = results
        if result.result:
            sys.stdout.buffer.write(result.result.output)
    else:
        results = write_changes(run, results, allow_dirty)
    if summary_file is not None:
        from migrator import reports

        # What is left, found again in the files as written: its lines are those a reviewer sees.
        after = collect(run) if not run.reads_stdin else results
        summary_file.write_text(reports.markdown_report(results, run.options, _shown_paths(run), after=after), encoding="utf-8")
    if not run.output.quiet:
        run.output.findings(results, run.output.stderr, manual_only=True)
    summary = render.change_summary(Tally.of(results), run.options, dry_run=False)
    finish(run, results, summary, found=False, dry_run=False)


def write_changes(run: Run, results: List[FileResult], allow_dirty: bool) -> List[FileResult]:
    """Write every changed file, unless (without --allow-dirty) one has uncommitted changes."""
    from migrator import engine
    from migrator.gitstate import dirty_files

    changed = [result.path for result in results if result.changed]
    dirty = set() if allow_dirty else dirty_files(changed)
    if dirty:
        run.output.errors(results)
        run.output.refuse_dirty(sorted(dirty))
        raise typer.Exit(ExitCode.ERROR)
    return [
        engine.write(result, write_root(result.path, run.paths)) if result.changed else result
        for result in results
    ]


def write_root(path: Path, arguments: Sequence[Path]) -> Path:
    """The command-line directory `path` was found in: the tree a symlink may be written through in.

    Discovery spells paths from their argument, so a prefix test finds it; a file named on
    the command line is its own argument, and its directory is the tree.
    """
    for argument in arguments:
        if argument in path.parents:
            return argument
    return path.parent


def show_patches(run: Run, results: Sequence[FileResult]) -> None:
    """The patch of every changed file on stdout; the findings it does not fix on stderr."""
    for result in results:
        if result.changed:
            run.output.diff(render.patch(result))
    if not run.output.quiet:
        run.output.findings(results, run.output.stderr, manual_only=True)


class OutputFormat(str, enum.Enum):
    TEXT = "text"
    JSON = "json"
    SARIF = "sarif"
    GITHUB = "github"
    MARKDOWN = "markdown"


@app.command()
@with_shared_options
def check(
    run: Run,
    output_format: Annotated[
        OutputFormat,
        typer.Option("--output-format", help="`json`, `sarif` (2.1.0) or `github` (workflow annotations) on stdout."),
    ] = OutputFormat.TEXT,
    statistics: Annotated[
        bool, typer.Option("--statistics", help="Count the calls each rule reports instead of listing the findings.")
    ] = False,
    show_diff: Annotated[
        bool, typer.Option("--diff", help="Print the fixes as a patch; the other findings go to stderr.")
    ] = False,
    baseline: Annotated[
        Optional[Path],
        typer.Option(metavar="FILE", help="Report only findings not recorded in FILE.", exists=True, dir_okay=False),
    ] = None,
    write_baseline: Annotated[
        Optional[Path],
        typer.Option(metavar="FILE", help="Record today's findings in FILE (for --baseline), and exit 0.", dir_okay=False),
    ] = None,
) -> None:
    """Print one line per finding, `path:line:col: RULE-ID [*] message`; write nothing.

    `[*]` marks what `apply` rewrites. Exit 1 if anything is found.
    """
    if show_diff and (statistics or output_format is not OutputFormat.TEXT):
        raise typer.BadParameter("--diff prints a patch: it takes neither --statistics nor --output-format")
    if statistics and output_format not in (OutputFormat.TEXT, OutputFormat.JSON):
        raise typer.BadParameter("--statistics is printed as text or json", param_hint="--output-format")
    if baseline is not None and write_baseline is not None:
        raise typer.BadParameter("--baseline and --write-baseline do not go together", param_hint="--write-baseline")
    results = collect(run)
    if write_baseline is not None:
        record_baseline(run, results, write_baseline)
    if baseline is not None:
        results = leave_out_baseline(run, results, baseline)
    if show_diff:
        show_patches(run, results)
    elif output_format is OutputFormat.TEXT and not statistics:
        run.output.findings(results, run.output.stdout)
    elif output_format is OutputFormat.MARKDOWN:
        from migrator import reports

        run.output.document(reports.markdown_report(results, run.options, _shown_paths(run)))
    else:
        from migrator import reports

        run.output.document(reports.document(output_format.value, statistics, results, _all_rules))
    raise typer.Exit(conclude_check(run, results))


def _shown_paths(run: Run) -> List[str]:
    """The paths of the run as a command line gives them again."""
    return [path.as_posix() for path in run.paths]


def record_baseline(run: Run, results: List[FileResult], path: Path) -> None:
    """Write the findings to the baseline file, and exit (2 if a file could not be processed)."""
    from migrator import baseline

    try:
        count = baseline.write(path, results)
    except baseline.BaselineError as error:
        typer.echo(f"error: {error}", err=True)
        raise typer.Exit(ExitCode.ERROR) from None
    finish(run, results, [f"Recorded {render.plural(count, 'finding')} in {path}."], found=False, dry_run=True)


def leave_out_baseline(run: Run, results: List[FileResult], path: Path) -> List[FileResult]:
    """The results less the findings the baseline file records; says how many it held back."""
    from migrator import baseline

    try:
        filtered = baseline.without_known(results, path)
    except baseline.BaselineError as error:
        typer.echo(f"error: {error}", err=True)
        raise typer.Exit(ExitCode.ERROR) from None
    stale = f"; {filtered.stale} of its entries match nothing any more" if filtered.stale else ""
    run.output.say(f"{render.plural(filtered.accepted, 'finding')} accepted by the baseline {path}{stale}.")
    return filtered.results


class RulesFormat(str, enum.Enum):
    TABLE = "table"
    MARKDOWN = "markdown"


@app.command("rules")
def list_rules(
    output_format: Annotated[
        RulesFormat, typer.Option("--format", help="`markdown` prints the table in README.md.")
    ] = RulesFormat.TABLE,
) -> None:
    """List every rule: its id, title and fix safety."""
    if output_format is RulesFormat.MARKDOWN:
        sys.stdout.write(render.rules_markdown(_all_rules()))
    else:
        Console().print(render.rules_table(_all_rules()))


@app.command()
def explain(
    rule_id: Annotated[str, typer.Argument(metavar="RULE-ID", help="As `migrator rules` lists them.")],
) -> None:
    """Show a rule's documentation and examples."""
    rules = _all_rules()
    if rule_id not in rules:
        raise unknown_rule(rule_id, rules, "RULE-ID")
    render.markdown(Console(), render.explanation(rules[rule_id]))


class ProbeFormat(str, enum.Enum):
    TEXT = "text"
    JSON = "json"


@app.command()
def probe(
    base_url: Annotated[
        str, typer.Option("--base-url", metavar="URL", help="The server's base URL, as a client's `base_url` (such as `http://localhost:8000/v1`).")
    ],
    model: Annotated[
        Optional[str], typer.Option(metavar="M", help="The model to ask (default: the first the server lists).")
    ] = None,
    api_key_env: Annotated[
        str, typer.Option(metavar="VAR", help="The environment variable holding the API key (never printed).")
    ] = "OPENAI_API_KEY",
    timeout: Annotated[
        Optional[float],
        typer.Option(
            metavar="SECONDS", min=0.1, show_default=False,
            help="How long to wait to connect, for each read, and for a whole stream (default: 15).",
        ),
    ] = None,
    output_format: Annotated[
        ProbeFormat, typer.Option("--output-format", help="`json` prints the table as a JSON object.")
    ] = ProbeFormat.TEXT,
    no_color: Annotated[bool, typer.Option("--no-color", help="Never colour the output.")] = False,
) -> None:
    """Ask a server whether it serves the Responses API, with real requests; print what it answers.

    Sends the smallest Chat Completions request, then Responses requests (plain, streamed, with
    a function tool, with a `text.format` json_schema), and prints each answer's status and the
    server's error text, and a verdict. Exit 0 when migrating code that talks to it is safe; 3
    when only plain requests work; 4 when it does not serve Responses; 5 when it cannot be
    reached; 6 when its answers do not tell. No other command sends a request.
    """
    from migrator import probe as probing
    from migrator.session import PROBE_EXIT_CODES

    report = probing.probe(base_url, model, os.environ.get(api_key_env) or None, api_key_env, timeout)
    code = PROBE_EXIT_CODES[report.verdict.value]
    output = Output(no_color=no_color)
    if output_format is ProbeFormat.JSON:
        output.document(render.probe_json(report, code))
    else:
        for line in render.probe_lines(report):
            output.stdout.line(*line)
    raise typer.Exit(code)


def main() -> None:
    try:
        app(prog_name="migrator")
    except Exception:  # a bug in the migrator: exit 2, since scripts read 1 as "findings"
        traceback.print_exc()
        sys.exit(ExitCode.ERROR)
