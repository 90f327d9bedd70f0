"""Shared test set-up: runs of the tool cache their results in a temporary folder, never in the checkout."""

from __future__ import annotations

import pytest

from migrator.cache import ENVIRONMENT_VARIABLE


@pytest.fixture(autouse=True)
def cache_in_a_temporary_folder(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(ENVIRONMENT_VARIABLE, str(tmp_path_factory.mktemp("migrator_cache")))
