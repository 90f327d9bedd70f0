"""The `[tool.migrator]` table of pyproject.toml: the options a project sets once.

The table is looked for in the nearest pyproject.toml that has one, walking up from the first
path on the command line (from the current directory when that path is `-`); `--config FILE`
names the file instead. Options given on the command line override the file's. Paths in the
file (`exclude`, `per-file-ignores`) are relative to the file's directory.

TOML is read with `tomllib`, which Python has from 3.11 on, and before that with `tomli`, the
backport it was made from (a dependency on those versions).
"""

from __future__ import annotations

import difflib
import os
import re
import types
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Collection, Dict, FrozenSet, List, Optional, Tuple

PYPROJECT = "pyproject.toml"
# A line opening the table, for finding it without parsing TOML.
TABLE_HEADER = re.compile(r"^[ \t]*\[[ \t]*tool[ \t]*\.[ \t]*migrator[ \t]*[\].]", re.MULTILINE)


class ConfigError(Exception):
    """A configuration that cannot be used; the message names the file and what is wrong."""


@dataclass(frozen=True)
class Key:
    """One key of the table: its option name and how its TOML value becomes the option's."""

    option: str
    convert: Callable[[Any, "Reading"], Any]


@dataclass(frozen=True)
class Reading:
    """What converting a value needs to know: which key it is, where the file is, the rule ids."""

    path: Path
    key: str
    rule_ids: Collection[str]

    def error(self, problem: str) -> ConfigError:
        return ConfigError(f"{self.path}: `{self.key}` {problem}")


def _boolean(value: Any, reading: Reading) -> bool:
    if not isinstance(value, bool):
        raise reading.error("must be true or false")
    return value


def _strings(value: Any, reading: Reading) -> List[str]:
    if not isinstance(value, list) or not all(isinstance(item, str) for item in value):
        raise reading.error("must be a list of strings")
    return value


def _rule_ids(value: Any, reading: Reading) -> FrozenSet[str]:
    ids = _strings(value, reading)
    for rule_id in ids:
        if rule_id not in reading.rule_ids:
            close = difflib.get_close_matches(rule_id, list(reading.rule_ids), n=1)
            hint = f"; did you mean {close[0]}?" if close else "; `migrator rules` lists them"
            raise reading.error(f"names an unknown rule id {rule_id!r}{hint}")
    return frozenset(ids)


def _exclude(value: Any, reading: Reading) -> List[str]:
    """Globs as `discover` matches them: a path glob is made relative to the current directory
    (absolute when the file's directory is outside it); a bare name glob matches anywhere."""
    cwd = Path(os.getcwd())
    globs = []
    for glob in _strings(value, reading):
        if "/" not in glob:
            globs.append(glob)
            continue
        anchored = Path(os.path.normpath(os.path.abspath(reading.path.parent / glob)))
        globs.append(anchored.relative_to(cwd).as_posix() if cwd in anchored.parents else anchored.as_posix())
    return globs


def _per_file_ignores(value: Any, reading: Reading) -> Tuple[Tuple[str, FrozenSet[str]], ...]:
    """``{glob: [rule ids]}``, each path glob made absolute (see ``Options.per_file_ignores``)."""
    if not isinstance(value, dict):
        raise reading.error('must be a table of globs and rule ids, e.g. {"tests/*" = ["untraced_choices"]}')
    entries = []
    for glob, rule_ids in value.items():
        if "/" in glob:
            glob = Path(os.path.normpath(os.path.abspath(reading.path.parent / glob))).as_posix()
        entries.append((glob, _rule_ids(rule_ids, reading)))
    return tuple(entries)


KEYS: Dict[str, Key] = {
    "select": Key("select", _rule_ids),
    "ignore": Key("ignore", _rule_ids),
    "exclude": Key("exclude", _exclude),
    "per-file-ignores": Key("per_file_ignores", _per_file_ignores),
    "unsafe-fixes": Key("unsafe_fixes", _boolean),
    "store-false": Key("store_false", _boolean),
    "assume-openai": Key("assume_openai", _boolean),
    "allow-other-servers": Key("allow_other_servers", _boolean),
    "openai-hosts": Key("openai_hosts", lambda value, reading: tuple(_strings(value, reading))),
}


def find(start: Path) -> Optional[Path]:
    """The nearest pyproject.toml with a `[tool.migrator]` table, from ``start`` up."""
    directory = start.resolve()
    if not directory.is_dir():
        directory = directory.parent
    for folder in (directory, *directory.parents):
        candidate = folder / PYPROJECT
        if candidate.is_file() and TABLE_HEADER.search(_read(candidate)):
            return candidate
    return None


def load(path: Path, rule_ids: Collection[str]) -> Dict[str, Any]:
    """The options the file sets, by `Options` field name (plus `exclude`)."""
    table = _migrator_table(path)
    settings: Dict[str, Any] = {}
    for key, value in table.items():
        if key not in KEYS:
            close = difflib.get_close_matches(key, list(KEYS), n=1)
            hint = f"; did you mean `{close[0]}`?" if close else f"; the keys are {', '.join(KEYS)}"
            raise ConfigError(f"{path}: unknown key `{key}` in [tool.migrator]{hint}")
        settings[KEYS[key].option] = KEYS[key].convert(value, Reading(path, key, rule_ids))
    return settings


def _migrator_table(path: Path) -> Dict[str, Any]:
    """The `[tool.migrator]` table of a pyproject.toml; of another TOML file, that table if it
    has one, else the whole file."""
    document = _parse(path)
    tool = document.get("tool")
    if isinstance(tool, dict) and "migrator" in tool:
        table = tool["migrator"]
        if not isinstance(table, dict):
            raise ConfigError(f"{path}: `tool.migrator` must be a table")
        return table
    if path.name == PYPROJECT:
        raise ConfigError(f"{path}: no [tool.migrator] table")
    return document


def _parse(path: Path) -> Dict[str, Any]:
    toml = _toml_reader()
    try:
        return toml.loads(_read(path))
    except toml.TOMLDecodeError as error:
        raise ConfigError(f"{path}: not valid TOML: {error}") from None


def _toml_reader() -> types.ModuleType:
    """`tomllib`, or on Python 3.9 and 3.10 `tomli`: the same module under its backport's name."""
    try:
        import tomllib
    except ImportError:
        import tomli as tomllib
    return tomllib


def _read(path: Path) -> str:
    try:
        return path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as error:
        raise ConfigError(f"{path}: cannot read it: {error}") from None
