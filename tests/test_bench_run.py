"""bench/run.py's pure parts: the pinned trees, the ratios and the targets table, without running anything."""

from __future__ import annotations

import re

import pytest

from tests.bench_scripts import load_bench_script

run = load_bench_script("run")
EXACT_PIN = re.compile(r"^[a-z0-9-]+==\d+(\.\d+)*$")


def measure(seconds: float, cpu: float):
    return run.Measure(seconds=seconds, cpu=cpu, peak_mb=0, returncode=0, stdout="", stderr="")


@pytest.mark.parametrize("name", sorted(run.TREES))
def test_every_tree_pins_exact_versions_of_distinct_packages(name):
    tree = run.TREES[name]
    assert all(EXACT_PIN.match(spec) for spec in tree.packages + run.PEERS), tree
    names = [spec.split("==")[0] for spec in tree.packages]
    assert len(names) == len(set(names))


@pytest.mark.parametrize("name", sorted(run.TREES))
def test_the_small_tree_is_six_of_the_trees_packages(name):
    tree = run.TREES[name]
    assert len(tree.small) == 6 and set(tree.small) <= set(tree.packages)


def test_the_default_tree_is_one_of_the_trees():
    assert run.DEFAULT_TREE in run.TREES


def test_fraction_names_the_smaller_part_as_a_fraction_and_the_larger_as_a_multiple():
    assert run.fraction(1, 4) == "1/4.0"
    assert run.fraction(5, 2) == "2.5x"


def test_ratios_are_wall_and_cpu_over_the_baseline():
    assert run.ratios(measure(6, 9), measure(3, 2)) == (2.0, 4.5)


def test_versus_leaves_out_a_baseline_that_was_not_measured():
    text = run.versus(measure(2, 4), [("ast-grep", measure(4, 2)), ("the parse", None), ("ruff", measure(1, 1))])
    assert text == "1/2.0 (2.0x) ast-grep, 2.0x (4.0x) ruff"


@pytest.mark.parametrize("wall, met", [(0.9, True), (1.0, True), (1.1, False)])
def test_a_limit_is_met_by_a_wall_ratio_within_it(wall, met):
    assert run.Target("cold `check`", "ast-grep", 1, wall=wall, cpu=0.5).met is met


@pytest.mark.parametrize("wall, met", [(1.5, False), (1.6, True), (1.9, True)])
def test_an_at_least_limit_is_met_by_a_wall_ratio_reaching_it(wall, met):
    assert run.Target("`--jobs 2`", "`--jobs 1`", 1.6, wall=wall, cpu=1, at_least=True).met is met


def test_the_cpu_ratio_does_not_decide():
    assert run.Target("warm `check`", "grep", 3, wall=2, cpu=5).met


def test_targets_table_gives_each_target_its_limit_measure_and_verdict():
    lines = run.targets_table([
        run.Target("cold `check`", "the parse", 1 / 20, wall=1 / 25, cpu=1 / 10),
        run.Target("warm `check`", "the text search", 3, wall=4.2, cpu=2.5),
        run.Target("`--jobs 2`'s speed", "`--jobs 1`'s", 1.6, wall=1.8, cpu=1, at_least=True),
    ])
    assert lines == [
        "| target | measured, wall (CPU) | met |",
        "| --- | --- | --- |",
        "| cold `check` ≤ 1/20 of the parse | 1/25.0 (1/10.0) | yes |",
        "| warm `check` ≤ 3x the text search | 4.2x (2.5x) | no |",
        "| `--jobs 2`'s speed ≥ 1.6x `--jobs 1`'s | 1.8x (1.0x) | yes |",
    ]
