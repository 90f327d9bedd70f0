"""Imports: what the module's imports bind, and the qualified names a node may stand for."""

from __future__ import annotations

from functools import cached_property
from typing import Collection, Dict, List, Optional, Sequence, Set, Union

import libcst as cst
from libcst.helpers import get_full_name_for_node
from libcst.metadata import QualifiedName, QualifiedNameSource

from migrator.screen import reaches
from migrator.semantic.bindings import Bindings
from migrator.semantic.nodes import Nodes


class Imports:
    """Questions about what the names of one module are imported as."""

    def __init__(self, nodes: Nodes, bindings: Bindings) -> None:
        self.nodes = nodes
        self.bindings = bindings

    @cached_property
    def by_package(self) -> Dict[str, List[Union[cst.Import, cst.ImportFrom]]]:
        """The import statements naming each top-level package: ``requests`` for ``import
        requests.adapters`` or ``from requests import Session`` (relative imports are this project's)."""
        found: Dict[str, List[Union[cst.Import, cst.ImportFrom]]] = {}
        for node in self.nodes.nodes_of(cst.Import, cst.ImportFrom):
            if isinstance(node, cst.Import):
                packages = {get_full_name_for_node(alias.name).split(".")[0] for alias in node.names}
            elif node.module is not None and not node.relative:
                packages = {get_full_name_for_node(node.module).split(".")[0]}
            else:
                continue
            for package in packages:
                found.setdefault(package, []).append(node)
        return found

    @cached_property
    def imported(self) -> List[str]:
        """The qualified names the module's imports bind, as ``migrator.screen.bound_by`` reads
        Python's own nodes: ``openai`` for ``import openai.types``, ``requests.Session`` for
        ``from requests import Session``."""
        found: List[str] = []
        for node in self.nodes.nodes_of(cst.Import, cst.ImportFrom):
            if isinstance(node, cst.Import):
                found += [alias.evaluated_name if alias.asname else alias.evaluated_name.split(".")[0] for alias in node.names]
            elif node.module is not None and not node.relative:
                module = get_full_name_for_node(node.module)
                if isinstance(node.names, cst.ImportStar):
                    found.append(module)
                else:
                    found += [f"{module}.{alias.evaluated_name}" for alias in node.names]
        return found

    def names_imported_from(self, packages: Sequence[str]) -> Optional[Set[str]]:
        """The names the imports of these packages bind, anywhere in the module: ``requests`` for
        ``import requests.adapters``, ``S`` for ``from requests import Session as S``; None when
        one imports ``*``, which binds names the module does not spell."""
        names: Set[str] = set()
        for package in packages:
            for node in self.by_package.get(package, []):
                if isinstance(node, cst.ImportFrom) and isinstance(node.names, cst.ImportStar):
                    return None
                for alias in node.names:  # type: ignore[union-attr]
                    if isinstance(node, cst.Import) and get_full_name_for_node(alias.name).split(".")[0] != package:
                        continue  # `import requests, json`: the other module
                    names.add(alias.evaluated_alias or alias.evaluated_name.split(".")[0])
        return names

    def imports_reach(self, modules: Sequence[str]) -> bool:
        """Does an import give the module access to one of ``modules`` or to something in it?
        No name is qualified as part of a module the imports do not reach."""
        return reaches(self.imported, modules)

    def qualified(self, node: cst.CSTNode, imported_only: bool = False) -> Set[str]:
        """The qualified names ``node`` may stand for; with ``imported_only``, only those it
        takes from an import (``requests.post``), not local ones."""
        return {q.name for q in self._qualified_names(node) if not imported_only or q.source is QualifiedNameSource.IMPORT}

    def imported_as(self, node: cst.CSTNode) -> Set[str]:
        """The qualified names ``node`` stands for when each binding it may have comes from an
        import; none when one does not: in ``openai = Groq()``, ``openai`` is no module, even
        beside an ``import openai``."""
        names = self._qualified_names(node)
        if any(q.source is not QualifiedNameSource.IMPORT for q in names):
            return set()
        return {q.name for q in names}

    def imported_among(self, node: cst.CSTNode) -> bool:
        """Does one of the bindings ``node`` may have come from an import, another not?"""
        sources = {q.source is QualifiedNameSource.IMPORT for q in self._qualified_names(node)}
        return sources == {True, False}

    def _qualified_names(self, node: cst.CSTNode) -> Collection[QualifiedName]:
        # What QualifiedNameProvider gives, without its walk of the whole module.
        scope = self.bindings.scopes.get(node)
        return scope.get_qualified_names_for(node) if scope is not None else ()

    def can_import(self, name: str, qualified: str, where: cst.CSTNode) -> bool:
        """Would importing ``qualified`` as ``name`` at module level leave every other meaning of
        ``name`` at ``where`` alone? True when ``name`` is unbound there, or is that import already."""
        scope = self.bindings.scopes.get(where)
        if scope is None or self._has_star_import:  # ``from x import *`` may bind any name
            return False
        return all(
            qualified in {q.name for q in assignment.get_qualified_names_for(name)} for assignment in scope[name]
        )

    @cached_property
    def _has_star_import(self) -> bool:
        return any(isinstance(node.names, cst.ImportStar) for node in self.nodes.nodes_of(cst.ImportFrom))
