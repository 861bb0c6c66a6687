"""The order make test hands files to its workers: longest first by the recorded durations, each file whole."""

from __future__ import annotations

from dataclasses import dataclass
from typing import cast

import pytest

from tests.conftest import longest_first


@dataclass
class Collected:
    nodeid: str


def order(nodeids: list[str], durations: dict[str, float]) -> list[str]:
    items = cast(list[pytest.Item], [Collected(nodeid) for nodeid in nodeids])
    return [item.nodeid for item in longest_first(items, durations)]


COLLECTED = [
    "tests/browser/test_a.py::test_one",
    "tests/browser/test_b.py::test_one",
    "tests/browser/test_b.py::test_two",
    "tests/unit/test_c.py::test_one",
    "tests/unit/test_c.py::test_two[1]",
    "tests/unit/test_c.py::test_two[2]",
]


def test_the_file_whose_tests_took_longest_in_total_goes_first_and_each_file_stays_whole_and_in_order() -> None:
    durations = {
        "tests/browser/test_a.py::test_one": 5.0,
        "tests/browser/test_b.py::test_one": 3.0,
        "tests/browser/test_b.py::test_two": 3.0,  # 6 s in all: before test_a's 5 s
        "tests/unit/test_c.py::test_one": 0.1,
        "tests/unit/test_c.py::test_two[1]": 9.0,
        "tests/unit/test_c.py::test_two[2]": 0.1,
    }
    assert order(COLLECTED, durations) == [
        "tests/unit/test_c.py::test_one",
        "tests/unit/test_c.py::test_two[1]",
        "tests/unit/test_c.py::test_two[2]",
        "tests/browser/test_b.py::test_one",
        "tests/browser/test_b.py::test_two",
        "tests/browser/test_a.py::test_one",
    ]


def test_a_file_with_no_record_counts_as_its_layers_average() -> None:
    durations = {
        "tests/browser/test_a.py::test_one": 10.0,
        "tests/unit/test_c.py::test_one": 1.0,
        "tests/unit/test_c.py::test_two[1]": 1.0,
        "tests/unit/test_c.py::test_two[2]": 1.0,
        "tests/unit/test_d.py::test_one": 2.0,  # a unit file's average: (3 + 2) / 2 = 2.5 s
    }
    # test_b.py has no record: it counts as its layer's average, test_a.py's 10 s, so it goes before test_c.py's 3 s
    # (counted as nothing, it would go last) and, tied with test_a.py, keeps its place after it: the collected order.
    assert order(COLLECTED, durations) == COLLECTED
    new_unit_file = [*COLLECTED, "tests/unit/test_e.py::test_one"]  # 2.5 s: after test_c.py's 3 s
    assert order(new_unit_file, durations)[-1] == "tests/unit/test_e.py::test_one"
    assert order(new_unit_file, {}) == new_unit_file  # no record at all: pytest's own order
