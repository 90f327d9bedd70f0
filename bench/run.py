"""Benchmark `migrator` on real code, against baselines measured in the same run.

    python bench/run.py [--small] [--skip-parse]

Builds a tree from pinned PyPI wheels (large pure-Python projects, and projects that really
call Chat Completions), downloaded once with `pip download --no-deps` into bench/.cache/
(ignored by git), then times, each as a fresh process:

- `rg -l completions` over the tree (`grep -rl` where ripgrep is absent): reading every file;
- LibCST `parse_module` of every file, in one process (bench/parse_all.py);
- `migrator check` with a cold cache, then again with the cache warm;
- `migrator diff` (no cache);
- `migrator check --jobs 1` and `--jobs 2` on a candidate-heavy tree: the files of all the
  pinned packages that mention `chat.completions` or `choices[0]`;
- start-up: `python -c pass`, `migrator check` on a file without candidates, `python -c
  "import libcst"` and `migrator check` on one small candidate file (median of several runs).

It prints ratios to those baselines, files and lines per second, peak memory (the largest
resident set of the process and its workers, from `getrusage`) and candidate counts (what the
prefilter lets through, and what the screen passes on to LibCST), as a Markdown table for
README.md. Each figure is the run of median wall time of three (of nine for the text search and
the warm check, which take a fraction of a second; the parse baseline, minutes long, is run
once); timings are seconds on this machine, and only the ratios travel. Run it from a plain
install (`pip install .`): an editable one's finder runs at every start of Python, and the
start-up section says so when it finds one. `--small` uses six of the packages (a tree a fifth
the size) for a loaded machine; `--skip-parse` leaves out the LibCST baseline (minutes on a
large tree).
"""

from __future__ import annotations

import argparse
import json
import os
import re
import resource
import shutil
import statistics
import subprocess
import sys
import time
import zipfile
from dataclasses import dataclass
from pathlib import Path
from typing import Dict, List, Optional, Sequence

BENCH = Path(__file__).resolve().parent
ROOT = BENCH.parent
CACHE = BENCH / ".cache"
DOWNLOADS = CACHE / "downloads"
TREE = CACHE / "tree"
CANDIDATES = CACHE / "candidates"
STARTUP = CACHE / "startup"

# Exact versions, so that every run measures the same code.
LARGE_PROJECTS = (
    "django==5.1.4",
    "sympy==1.13.3",
    "botocore==1.35.99",
    "networkx==3.4.2",
    "kubernetes==31.0.0",
    "twisted==24.11.0",
    "langchain==0.3.13",
)
CHAT_COMPLETIONS_USERS = (
    "openai==1.59.3",
    "openai-agents==0.0.19",
    "instructor==1.7.2",
    "litellm==1.57.0",
    "langchain-openai==0.3.0",
    "langchain-community==0.3.13",
    "smolagents==1.9.2",
)
PACKAGES = LARGE_PROJECTS + CHAT_COMPLETIONS_USERS
SMALL = ("django==5.1.4", "networkx==3.4.2", "openai-agents==0.0.19", "instructor==1.7.2", "langchain-openai==0.3.0",
         "smolagents==1.9.2")
CANDIDATE_MARKERS = (b"chat.completions", b"choices[0]")  # what makes a file candidate-heavy
STARTUP_REPEATS = 9
RUNS = 3  # of each `migrator` measure, the median of which is reported
QUICK_RUNS = 9  # of the sub-second ones (the text search, a warm check), which a busy machine moves most
FINDING = re.compile(r"^\S.*:\d+:\d+: ")  # a finding line of `check`
# The body of the console script pip writes for `migrator = "migrator.quick:main"`.
CONSOLE_SCRIPT = "import sys; from migrator.quick import main; sys.argv[0] = 'migrator'; sys.exit(main())"


@dataclass
class Measure:
    """One timed process."""

    seconds: float  # wall clock
    cpu: float  # user + system seconds of the process and its workers
    peak_mb: float
    returncode: int
    stdout: str
    stderr: str


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--small", action="store_true", help="a smaller tree: " + ", ".join(SMALL))
    parser.add_argument("--skip-parse", action="store_true", help="leave out the LibCST parse baseline")
    args = parser.parse_args()
    packages = SMALL if args.small else PACKAGES
    wheels = download(PACKAGES)
    files, lines = build_tree(packages, [wheel for spec, wheel in zip(PACKAGES, wheels) if spec in packages])
    candidate_files, candidate_lines = build_candidate_tree(wheels)
    print(f"tree: {files} files, {lines} lines from {len(packages)} packages; "
          f"candidate-heavy tree: {candidate_files} files, {candidate_lines} lines", file=sys.stderr)

    subprocess.run([sys.executable, "-m", "compileall", "-q", str(ROOT / "migrator"), str(ROOT / "rules")], check=True)
    rows: List[List[str]] = []
    baseline_text = text_search()
    parse = None if args.skip_parse else timed([sys.executable, str(BENCH / "parse_all.py"), str(TREE)])
    cache_dir = CACHE / "migrator_cache"
    colds = []
    for _ in range(RUNS):
        shutil.rmtree(cache_dir, ignore_errors=True)
        colds.append(migrator(["check", str(TREE)], cache_dir))
    cold = median(colds)
    warm = median([migrator(["check", str(TREE)], cache_dir) for _ in range(QUICK_RUNS)])
    diff = median([migrator(["diff", "--no-cache", str(TREE)]) for _ in range(RUNS)])
    jobs1s, jobs2s = [], []
    for _ in range(RUNS):  # in turn, so that a change in the machine's speed touches both alike
        jobs1s.append(migrator(["check", "--no-cache", "--jobs", "1", str(CANDIDATES)]))
        jobs2s.append(migrator(["check", "--no-cache", "--jobs", "2", str(CANDIDATES)]))
    jobs1, jobs2 = median(jobs1s), median(jobs2s)

    def row(name: str, measure: Measure, ratio: str, count: int = files, count_lines: int = lines) -> None:
        rows.append([name, f"{measure.seconds:.2f}", f"{measure.cpu:.2f}", ratio, f"{count / measure.seconds:,.1f}",
                     f"{count_lines / measure.seconds:,.0f}", f"{measure.peak_mb:.0f}"])

    row(baseline_text[0], baseline_text[1], "1 (baseline)")
    if parse:
        row("LibCST `parse_module` of every file, one process", parse, "1 (baseline)")
    row("`migrator check`, cold cache", cold, versus(cold, parse, baseline_text[1]))
    row("`migrator check`, warm cache", warm, versus(warm, parse, baseline_text[1]))
    row("`migrator diff`", diff, versus(diff, parse, baseline_text[1]))
    row("`migrator check --jobs 1`, candidate-heavy tree", jobs1, "1 (baseline)", candidate_files, candidate_lines)
    row("`migrator check --jobs 2`, candidate-heavy tree", jobs2,
        f"{jobs1.seconds / jobs2.seconds:.2f}x as fast as --jobs 1", candidate_files, candidate_lines)

    print("| what | wall s | CPU s | ratio, wall (CPU) | files/s | lines/s | peak MB |")
    print("| --- | ---: | ---: | --- | ---: | ---: | ---: |")
    for cells in rows:
        print("| " + " | ".join(cells) + " |")
    print()
    print_counts(files, cold, warm, diff)
    print()
    print_startup()
    print()
    print_targets(cold, warm, diff, parse, baseline_text[1], jobs1, jobs2)


# --- the tree ---------------------------------------------------------------------------------


def download(packages: Sequence[str]) -> List[Path]:
    """The pinned wheels, downloaded once (pip download --no-deps) into bench/.cache/downloads."""
    DOWNLOADS.mkdir(parents=True, exist_ok=True)
    wheels = []
    for spec in packages:
        wheel = find_wheel(spec)
        if wheel is None:
            subprocess.run(
                [sys.executable, "-m", "pip", "download", "--no-deps", "--only-binary=:all:", "--quiet",
                 "--dest", str(DOWNLOADS), spec],
                check=True,
            )
            wheel = find_wheel(spec)
        if wheel is None:
            raise SystemExit(f"pip download {spec} brought no wheel into {DOWNLOADS}")
        wheels.append(wheel)
    return wheels


def find_wheel(spec: str) -> Optional[Path]:
    name, version = spec.split("==")
    normalized = name.replace("-", "_").lower()
    for wheel in DOWNLOADS.glob("*.whl"):
        wheel_name, wheel_version = wheel.name.split("-")[:2]
        if wheel_name.lower() == normalized and wheel_version == version:
            return wheel
    return None


def build_tree(packages: Sequence[str], wheels: Sequence[Path]) -> tuple:
    """Every .py file of the wheels under bench/.cache/tree/<wheel>/; rebuilt when the pins change."""
    stamp = TREE / ".packages.json"
    if not (stamp.exists() and json.loads(stamp.read_text()) == list(packages)):
        shutil.rmtree(TREE, ignore_errors=True)
        for wheel in wheels:
            with zipfile.ZipFile(wheel) as archive:
                for member in archive.namelist():
                    if member.endswith(".py") and ".dist-info/" not in member:
                        archive.extract(member, TREE / wheel.name.split("-")[0])
        stamp.write_text(json.dumps(list(packages)))
    return count(TREE)


def build_candidate_tree(wheels: Sequence[Path]) -> tuple:
    """The files of all the pinned packages that mention Chat Completions, in bench/.cache/candidates/."""
    shutil.rmtree(CANDIDATES, ignore_errors=True)
    for wheel in wheels:
        with zipfile.ZipFile(wheel) as archive:
            for member in archive.namelist():
                if member.endswith(".py") and any(marker in archive.read(member) for marker in CANDIDATE_MARKERS):
                    archive.extract(member, CANDIDATES / wheel.name.split("-")[0])
    return count(CANDIDATES)


def count(tree: Path) -> tuple:
    paths = list(tree.rglob("*.py"))
    return len(paths), sum(path.read_bytes().count(b"\n") for path in paths)


# --- measuring --------------------------------------------------------------------------------

# Runs the command as its only child, so that getrusage(RUSAGE_CHILDREN) is that command's (and
# its workers'): ru_maxrss is the largest resident set among them, in kB on Linux.
WRAPPER = """
import json, resource, subprocess, sys, time
start = time.perf_counter()
done = subprocess.run(sys.argv[1:], capture_output=True, text=True, env=json.loads(sys.stdin.readline()))
seconds = time.perf_counter() - start
usage = resource.getrusage(resource.RUSAGE_CHILDREN)
json.dump([seconds, usage.ru_utime + usage.ru_stime, usage.ru_maxrss, done.returncode, done.stdout, done.stderr],
          sys.stdout)
"""


def environment() -> Dict[str, str]:
    """This one, with the checkout importable, and bytecode as an installed package has it:
    compiled once (see `main`) and never left stale, which would recompile modules on every start."""
    return {**{name: value for name, value in os.environ.items() if name != "PYTHONDONTWRITEBYTECODE"},
            "PYTHONPATH": str(ROOT)}


def timed(command: Sequence[str], env: Optional[Dict[str, str]] = None) -> Measure:
    environment_of_run = {**environment(), **(env or {})}
    print(f"running: {' '.join(command)}", file=sys.stderr)
    done = subprocess.run(
        [sys.executable, "-c", WRAPPER, *command],
        input=json.dumps(environment_of_run) + "\n", capture_output=True, text=True, check=True, cwd=CACHE,
    )
    seconds, cpu, peak_kb, returncode, stdout, stderr = json.loads(done.stdout)
    print(f"  {seconds:.2f} s wall, {cpu:.2f} s CPU, exit {returncode}", file=sys.stderr)
    if returncode not in (0, 1):
        print(f"  {stderr[-2000:]}", file=sys.stderr)
    return Measure(seconds, cpu, peak_kb / 1024, returncode, stdout, stderr)


def median(measures: Sequence[Measure]) -> Measure:
    """The run of median wall time: on a shared machine one slow or one lucky run says little."""
    return sorted(measures, key=lambda measure: measure.seconds)[len(measures) // 2]


def migrator(args: Sequence[str], cache_dir: Optional[Path] = None) -> Measure:
    env = {"MIGRATOR_CACHE_DIR": str(cache_dir)} if cache_dir else {}
    return timed([sys.executable, "-m", "migrator", *args], env)


def text_search() -> tuple:
    if shutil.which("rg"):
        return "`rg -l completions`", median([timed(["rg", "-l", "completions", str(TREE)]) for _ in range(QUICK_RUNS)])
    command = ["grep", "-rl", "--include=*.py", "completions", str(TREE)]
    return "`grep -rl completions` (no ripgrep here)", median([timed(command) for _ in range(QUICK_RUNS)])


def versus(measure: Measure, parse: Optional[Measure], text: Measure) -> str:
    parts = [f"{fraction(measure.seconds, text.seconds)} ({fraction(measure.cpu, text.cpu)}) the text search"]
    if parse:
        parts.insert(0, f"{fraction(measure.seconds, parse.seconds)} ({fraction(measure.cpu, parse.cpu)}) the parse")
    return ", ".join(parts)


def fraction(part: float, whole: float) -> str:
    """`1/8` when `part` is the smaller, `2.5x` when it is the larger."""
    return f"1/{whole / part:.1f}" if part < whole else f"{part / whole:.1f}x"


def print_counts(files: int, cold: Measure, warm: Measure, diff: Measure) -> None:
    sys.path.insert(0, str(ROOT))
    from migrator.prefilter import is_candidate, needed_texts
    from migrator.screen import needs_libcst

    needs = needed_texts()
    candidates = [source for source in (path.read_bytes() for path in TREE.rglob("*.py")) if is_candidate(source, needs)]
    parsed = sum(needs_libcst(source, needs) for source in candidates)
    finding_lines = [line for line in cold.stdout.splitlines() if FINDING.match(line)]
    findings = len(finding_lines)
    with_findings = len({line.split(":", 1)[0] for line in finding_lines})
    changed = diff.stdout.count("\n+++ b/") + diff.stdout.startswith("+++ b/")
    print(f"Candidates (files the prefilter lets through): {len(candidates)} of {files} "
          f"({100 * len(candidates) / files:.1f} %), of which the screen passes {parsed} to LibCST. Findings: {findings} in {with_findings} files; "
          f"`diff` changes {changed} files. Warm and cold `check` agree: {cold.stdout == warm.stdout}.")
    for name, measure in (("check", cold), ("diff", diff)):
        summary = [line for line in measure.stderr.splitlines() if "scanned" in line]
        print(f"`{name}` says: {summary[-1] if summary else measure.stderr[-300:]!r}")


def print_startup() -> None:
    STARTUP.mkdir(parents=True, exist_ok=True)
    plain = STARTUP / "plain.py"
    plain.write_text("def main():\n    print('hello')\n")
    candidate = STARTUP / "candidate.py"
    candidate.write_text(
        "from openai import OpenAI\n\nclient = OpenAI()\n"
        "r = client.chat.completions.create(model='gpt-4o-mini', messages=[{'role': 'user', 'content': 'Hi'}])\n"
        "print(r.choices[0].message.content)\n"
    )
    python = sys.executable
    command = [python, "-c", CONSOLE_SCRIPT]  # what the installed `migrator` runs (not `-m`: no runpy)
    runs = {
        "`python -c pass`": [python, "-c", "pass"],
        "`migrator check` one file, no candidate": [*command, "check", str(plain)],
        '`python -c "import libcst"`': [python, "-c", "import libcst"],
        "`migrator check --no-cache` one small candidate": [*command, "check", "--no-cache", str(candidate)],
    }
    wall: Dict[str, float] = {}
    cpu: Dict[str, float] = {}
    for name, command in runs.items():
        wall[name], cpu[name] = medians(command)
    names = list(runs)
    finders = editable_finders()
    if finders:
        print(f"This Python loads editable installs at every start ({', '.join(finders)}), `python -c pass` "
              "included: that flatters the start-up ratios. A plain install (`pip install .`) measures what users get.")
    print(f"Start-up (median of {STARTUP_REPEATS} runs, wall / CPU): " + "; ".join(
        f"{name} {wall[name] * 1000:.0f} / {cpu[name] * 1000:.0f} ms" for name in names) + ".")
    for label, base, measured, target in (("no candidate", 0, 1, "3x `python -c pass`"),
                                          ("one small candidate", 2, 3, "1.5x `import libcst`")):
        base_name, name = names[base], names[measured]
        print(f"- {label}: {wall[name] / wall[base_name]:.2f}x wall, {cpu[name] / cpu[base_name]:.2f}x CPU "
              f"(target {target})")


def editable_finders() -> List[str]:
    """The editable installs' start-up files in this Python's site-packages: each is run at
    every start of Python (setuptools' finder costs about 17 ms), whatever the command."""
    import site

    return sorted(path.name for folder in site.getsitepackages() for path in Path(folder).glob("__editable__*.pth"))


def medians(command: Sequence[str]) -> tuple:
    """Median wall and CPU seconds of the command over `STARTUP_REPEATS` runs."""
    env = environment()
    wall, cpu = [], []
    for _ in range(STARTUP_REPEATS):
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        start = time.perf_counter()
        subprocess.run(command, capture_output=True, env=env, cwd=CACHE)
        wall.append(time.perf_counter() - start)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpu.append(after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime)
    return statistics.median(wall), statistics.median(cpu)


def print_targets(cold, warm, diff, parse, text, jobs1, jobs2) -> None:
    print("Targets:")
    if parse:
        print(f"- check (cold) <= 1/20 of the parse: {fraction(cold.seconds, parse.seconds)} "
              f"(CPU: {fraction(cold.cpu, parse.cpu)})")
        print(f"- diff <= 1/10 of the parse: {fraction(diff.seconds, parse.seconds)} "
              f"(CPU: {fraction(diff.cpu, parse.cpu)})")
    print(f"- check (warm) <= 3x the text search: {warm.seconds / text.seconds:.1f}x (CPU: {warm.cpu / text.cpu:.1f}x)")
    print(f"- --jobs 2 >= 1.6x faster than --jobs 1: {jobs1.seconds / jobs2.seconds:.2f}x")


if __name__ == "__main__":
    main()
