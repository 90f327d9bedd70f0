"""Recall on real code: of the Chat Completions call sites in a pinned corpus, how many
`migrator apply` migrates, and why it leaves the others alone.

    python bench/recall.py [--markdown] [--by-package] [--package NAME ...] [--limit N] [--cache DIR]

The corpus is bench/recall_corpus.json: PyPI sdists pinned by version and sha256, each with the
folders that are application code (examples, small apps and CLIs) and library code (packages
that wrap the SDK). Sdists are downloaded once into the cache folder (default
~/.cache/responses-migrator/recall), checked against their hash, and only those folders are
extracted.

A call site is what a text search finds (`CALL_SITE`), in a code cell for notebooks. The engine
runs over the listed folders twice, as `migrator apply FOLDER` would, with the default options
and with every opt-in (so a module that only reads what another module's calls return is part of
the run); the files with call sites are counted, and the engine's count of migrated calls is
checked against the call sites left in their output. The
findings that say a call was left alone become blocker categories once the names and numbers in
them are dropped, counted once per call they are about: a call can have several. A file
the engine could not process, and calls left alone in a file that reports no reason (split by
whether it imports openai: calls on another SDK's client are not reported), are categories of
their own. With --by-package, a table per group also tells how the call sites, the migrations and
the main reason are shared out among packages, since one package can weigh on a group's share.
It is a measure: nothing fails.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import re
import sys
import tarfile
import urllib.parse
import urllib.request
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Dict, Iterable, List, Optional, Sequence, Tuple

from migrator import engine
from migrator.discovery import SOURCE_SUFFIXES
from migrator.model import FileResult, Options
from migrator.screen import CALL_SITE  # the text search `check` finds at least what it finds

BENCH = Path(__file__).resolve().parent
MANIFEST = BENCH / "recall_corpus.json"
DEFAULT_CACHE = Path.home() / ".cache" / "responses-migrator" / "recall"
GROUPS = ("application", "library")
OPTION_SETS = {
    "default": Options(),
    # The opt-ins that let calls migrate. `--store-false` is left out: it changes what migrated
    # calls send, and holds back those whose output goes into the next request.
    "all opt-ins": Options(unsafe_fixes=True, assume_openai=True, allow_other_servers=True),
}
LEFT_ALONE = re.compile(r"^`[^`]*` (?:not migrated: )?")  # the call a left-alone finding starts with
IMPORTS_OPENAI = re.compile(r"^[ \t]*(?:import|from)[ \t]+openai\b", re.MULTILINE)
# Calls left alone in a file that reports no reason: calls on another SDK's client (`Groq()`) are not reported.
NO_FINDING_WITHOUT_OPENAI = "no finding, in a file not importing openai (another SDK's client, or a docstring)"
NO_FINDING = "no finding, in a file importing openai (a call the tool does not see, or a comment or string)"
TOP_BLOCKERS = 10
NUMBER = re.compile(r"^[\d.]+( %)?$")
REASON_WIDTH = 110  # characters of a reason shown in a table; the rest is advice on how to lift it


@dataclass(frozen=True)
class Package:
    name: str
    version: str
    sha256: str
    folders: Dict[str, Tuple[str, ...]]  # group -> folders inside the sdist's top directory

    @property
    def label(self) -> str:
        return f"{self.name}-{self.version}"


@dataclass(frozen=True)
class CorpusFile:
    path: Path
    package: str
    group: str
    sites: int


@dataclass
class Tally:
    """What one group of files came to under one set of options."""

    files: int = 0
    sites: int = 0
    migrated: int = 0
    blockers: Counter = field(default_factory=Counter)
    packages: Dict[str, "Tally"] = field(default_factory=dict)  # the same, for each package of the group

    @property
    def share(self) -> float:
        return 100 * self.migrated / self.sites if self.sites else 0.0


def load_corpus(manifest: Path = MANIFEST) -> List[Package]:
    entries = json.loads(manifest.read_text(encoding="utf-8"))["packages"]
    twice = sorted(name for name, n in Counter(e["name"] for e in entries).items() if n > 1)
    if twice:  # one tree would be read twice, and its files counted twice
        raise SystemExit(f"{manifest.name} lists {', '.join(twice)} more than once: list each package once, with all its folders")
    return [
        Package(e["name"], e["version"], e["sha256"], {group: tuple(e[group]) for group in GROUPS}) for e in entries
    ]


# --- the corpus on disk -------------------------------------------------------------------------


def fetch(package: Package, cache: Path) -> Path:
    """The folder holding the package's listed folders, downloaded and extracted once."""
    tree = cache / "trees" / package.label
    if (tree / ".complete").exists():
        return tree
    archive = download(package, cache / "sdists")
    with tarfile.open(archive) as sdist:
        members = []
        for member in sdist.getmembers():
            inner = member.name.partition("/")[2]
            if member.isfile() and inner.endswith(SOURCE_SUFFIXES) and _inside(inner, package):
                member.name = inner  # without the sdist's top directory
                members.append(member)
        if hasattr(tarfile, "data_filter"):
            sdist.extractall(tree, members=members, filter="data")
        else:  # before Python 3.12 (and its backports) there is no filter; the names are checked above
            sdist.extractall(tree, members=members)
    (tree / ".complete").touch()
    return tree


def _inside(inner: str, package: Package) -> bool:
    folders = [folder for group in GROUPS for folder in package.folders[group]]
    return ".." not in inner.split("/") and any(inner.startswith(folder + "/") for folder in folders)


def download(package: Package, folder: Path) -> Path:
    """The sdist, from PyPI's JSON API unless cached, refused unless its sha256 is the pinned one."""
    target = folder / f"{package.label}.tar.gz"
    if not target.exists():
        index = f"https://pypi.org/pypi/{package.name}/json"
        with urllib.request.urlopen(index, timeout=60) as answer:
            release = json.load(answer)["releases"][package.version]
        sdist = next(url for url in release if url["packagetype"] == "sdist")
        with urllib.request.urlopen(urllib.parse.urljoin(index, sdist["url"]), timeout=300) as answer:
            data = answer.read()
        folder.mkdir(parents=True, exist_ok=True)
        target.with_suffix(".part").write_bytes(data)
        target.with_suffix(".part").replace(target)
    if hashlib.sha256(target.read_bytes()).hexdigest() != package.sha256:
        raise SystemExit(f"{target}: its sha256 is not the pinned {package.sha256}")
    return target


def corpus_files(folders: Iterable[Tuple[str, str, Path]], limit: Optional[int] = None) -> List[CorpusFile]:
    """The files with call sites under each (package, group, folder), at most `limit` of each package."""
    files: List[CorpusFile] = []
    taken: Counter = Counter()
    for package, group, folder in folders:
        for path in sorted(p for suffix in SOURCE_SUFFIXES for p in folder.rglob("*" + suffix)):
            sites = count_sites(code_of(path, path.read_bytes()))
            if sites and (limit is None or taken[package] < limit):
                files.append(CorpusFile(path, package, group, sites))
                taken[package] += 1
    return files


def code_of(path: Path, data: bytes) -> str:
    """The text a scanner reads: a module's, or a notebook's code cells."""
    text = data.decode("utf-8", errors="replace")
    if path.suffix != engine.NOTEBOOK_SUFFIX:
        return text
    try:
        cells = json.loads(text).get("cells", [])
    except ValueError:
        return ""
    return "\n".join("".join(c["source"]) if isinstance(c["source"], list) else c["source"]
                     for c in cells if c.get("cell_type") == "code")


def count_sites(text: str) -> int:
    return len(CALL_SITE.findall(text))


# --- measuring ----------------------------------------------------------------------------------


def measure(
    files: Sequence[CorpusFile], options: Options, jobs: Optional[int] = None, folders: Sequence[Path] = ()
) -> Tuple[Dict[str, Tally], List[str]]:
    """The tally of each group, and the files whose migrated count the output text contradicts.
    With ``folders``, the run is given the folders, as `migrator apply FOLDER` is: the modules
    that only read what another module's calls return are then part of it, and the calls
    migrate with them; only the ``files`` are counted."""
    tallies = {group: Tally() for group in GROUPS}
    disagreements = []
    run = engine.run(list(folders) or [file.path for file in files], options, jobs=jobs or os.cpu_count())
    by_path = {result.path.resolve(): result for result in run}
    results = [by_path[file.path.resolve()] for file in files]
    for file, result in zip(files, results):
        add(tallies[file.group], file, result)
        add(tallies[file.group].packages.setdefault(file.package, Tally()), file, result)
        in_text = migrated_in_text(file, result)
        if result.result is not None and in_text != result.result.calls_migrated:
            disagreements.append(f"{file.path}: the engine says {result.result.calls_migrated}, the text {in_text}")
    return tallies, disagreements


def add(tally: Tally, file: CorpusFile, result: FileResult) -> None:
    tally.files += 1
    tally.sites += file.sites
    if result.error is not None:
        tally.blockers["file not processed: " + error_kind(result.error)] += file.sites
        return
    tally.migrated += result.result.calls_migrated
    # Once per call: a call is often reported on several lines for one reason (each read of
    # its result, each positional argument).
    reasons = {(f.call or f.position, blocker_category(f.message)) for f in result.findings if is_left_alone(f.message)}
    tally.blockers.update(reason for _, reason in reasons)
    if not reasons and file.sites > result.result.calls_migrated:
        imports_openai = IMPORTS_OPENAI.search(code_of(file.path, file.path.read_bytes()))
        tally.blockers[NO_FINDING if imports_openai else NO_FINDING_WITHOUT_OPENAI] += file.sites - result.result.calls_migrated


def migrated_in_text(file: CorpusFile, result: FileResult) -> int:
    """Call sites that are gone from the output (a file the engine skipped has no output: none)."""
    if result.result is None or not result.result.source:
        return 0
    return file.sites - count_sites(code_of(file.path, result.result.output))


def is_left_alone(message: str) -> bool:
    """Is this a finding on a call the engine keeps: one it blocks, one on a client it cannot
    trace, or one written in a string or a comment?"""
    return any(reason in message for reason in (" not migrated: ", " is not provably an OpenAI client", " the tool cannot migrate"))


def blocker_category(message: str) -> str:
    """The reason without its specifics: what is in backticks, and numbers (lines, counts)."""
    reason = LEFT_ALONE.sub("", message, count=1)
    return re.sub(r"\d+", "N", re.sub(r"`[^`]*`", "`…`", reason))


def error_kind(error: str) -> str:
    """Why a file was not processed, without where: `syntax error`, `internal error: KeyError`, ..."""
    kind = re.match(r"internal error: \w+|syntax error|[^:(]*", error).group()
    return re.sub(r"\d+", "N", kind).strip()


# --- output -------------------------------------------------------------------------------------


def tables(results: Dict[str, Dict[str, Tally]]) -> List[Tuple[List[str], List[List[str]]]]:
    """(header, rows) for the summary, then for the blockers of each group under each set of options."""
    summary = [
        [group, option_set, str(t.files), str(t.sites), str(t.migrated), f"{t.share:.1f} %"]
        for group in GROUPS
        for option_set, t in ((o, results[o][group]) for o in OPTION_SETS)
    ]
    out = [(["code", "options", "files", "call sites", "migrated", "share"], summary)]
    for group in GROUPS:
        counts = {o: results[o][group].blockers for o in OPTION_SETS}
        top = sorted(set().union(*counts.values()), key=lambda r: (-max(c[r] for c in counts.values()), r))
        rows = [[shortened(reason)] + [str(counts[o][reason]) for o in OPTION_SETS] for reason in top[:TOP_BLOCKERS]]
        out.append(([f"why {group} calls are left alone"] + list(OPTION_SETS), rows))
    return out


def package_tables(results: Dict[str, Dict[str, Tally]]) -> List[Tuple[List[str], List[List[str]]]]:
    """(header, rows) for each group: its packages, most call sites first, with their share of the
    group's call sites, what each set of options migrates, and the reason most often given with the
    last set of options (the one that blocks on what a call does rather than on its client)."""
    out = []
    last = list(OPTION_SETS)[-1]
    for group in GROUPS:
        first = results[next(iter(OPTION_SETS))][group]
        rows = []
        for package, t in sorted(first.packages.items(), key=lambda item: (-item[1].sites, item[0])):
            share = 100 * t.sites / first.sites if first.sites else 0.0
            reasons = results[last][group].packages[package].blockers
            top = min(reasons, key=lambda r: (-reasons[r], r)) if reasons else ""
            rows.append([package, str(t.files), str(t.sites), f"{share:.1f} %"]
                        + [str(results[o][group].packages[package].migrated) for o in OPTION_SETS]
                        + [shortened(top, REASON_WIDTH // 2)])
        header = [f"{group} package", "files", "call sites", "of the group"]
        out.append((header + [f"migrated, {o}" for o in OPTION_SETS] + [f"main reason left alone, {last}"], rows))
    return out


def shortened(reason: str, width: int = REASON_WIDTH) -> str:
    if len(reason) <= width:
        return reason
    return reason[: reason.rfind(" ", 0, width)] + " …"


def render(results: Dict[str, Dict[str, Tally]], markdown: bool, by_package: bool = False) -> str:
    blocks = []
    for header, rows in tables(results) + (package_tables(results) if by_package else []):
        # Numbers to the right, text (the first column, reasons) to the left.
        left = [i == 0 or not all(NUMBER.match(row[i]) for row in rows) for i in range(len(header))]
        if markdown:
            lines = ["| " + " | ".join(header) + " |", "| " + " | ".join("---" if l else "---:" for l in left) + " |"]
            lines += ["| " + " | ".join(row) + " |" for row in rows]
        else:
            widths = [max(len(cell) for cell in column) for column in zip(header, *rows)]
            lines = ["  ".join(c.ljust(w) if left[i] else c.rjust(w) for i, (c, w) in enumerate(zip(r, widths))).rstrip()
                     for r in [header] + rows]
        blocks.append("\n".join(lines))
    return "\n\n".join(blocks)


def main(argv: Optional[Sequence[str]] = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--markdown", action="store_true", help="print Markdown tables, for README.md")
    parser.add_argument("--by-package", action="store_true", help="also a table of each group's packages")
    parser.add_argument("--package", action="append", metavar="NAME", help="only this package (repeatable)")
    parser.add_argument("--limit", type=int, metavar="N", help="at most N files with call sites of each package")
    parser.add_argument("--cache", type=Path, default=DEFAULT_CACHE, help=f"downloads and trees (default {DEFAULT_CACHE})")
    args = parser.parse_args(argv)
    packages = [p for p in load_corpus() if not args.package or p.name in args.package]
    if not packages:
        raise SystemExit(f"no package of {MANIFEST.name} is named {', '.join(args.package)}")
    with ThreadPoolExecutor(max_workers=4) as pool:  # downloads wait on the network, not the cores
        trees = list(pool.map(lambda package: fetch(package, args.cache), packages))
    folders = [(p.name, group, tree / folder) for p, tree in zip(packages, trees) for group in GROUPS
               for folder in p.folders[group]]
    files = corpus_files(folders, args.limit)
    results = {}
    for option_set, options in OPTION_SETS.items():
        results[option_set], disagreements = measure(files, options, folders=[folder for _, _, folder in folders if folder.exists()])
        for line in disagreements:
            print(f"cross-check ({option_set}): {line}", file=sys.stderr)
    print(f"{len(packages)} packages, {len(files)} files with call sites\n")
    print(render(results, args.markdown, args.by_package))


if __name__ == "__main__":
    main()
