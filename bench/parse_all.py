"""The baseline `migrator` is measured against: LibCST's `parse_module` on every file, one process.

Usage: python bench/parse_all.py TREE   (prints the number of files parsed and failed)
"""

from __future__ import annotations

import os
import sys

import libcst


def main(tree: str) -> None:
    parsed = failed = 0
    for folder, folders, files in os.walk(tree):
        folders.sort()
        for name in sorted(files):
            if not name.endswith(".py"):
                continue
            with open(os.path.join(folder, name), "rb") as file:
                source = file.read()
            try:
                libcst.parse_module(source)
                parsed += 1
            except Exception:  # a file LibCST cannot parse is counted, as migrator reports it
                failed += 1
    print(f"{parsed} parsed, {failed} failed")


if __name__ == "__main__":
    main(sys.argv[1])
