"""The one grading rule, in Python and in the browser's JavaScript, on one shared table (grading_cases.json).

Each row is a number as typed, a quiz answer with its unit, a tolerance, or a value an exercise's function returned,
with what the rule makes of it; calckit's `numbers` and `grading` are checked on every row here, and `grading.js`
under Node on the same rows, so the page's grading and the build's cannot disagree.
"""

from __future__ import annotations

import json
import os
import random
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest

from calckit.grading import Tolerance, read_answer, unit_factor, verdict
from calckit.numbers import NumberError, read_number

TABLE = Path(__file__).with_name("grading_cases.json")
CASES: list[dict[str, Any]] = json.loads(TABLE.read_text(encoding="utf-8"))["cases"]
NODE = shutil.which("node")


def _outcome(read: Any) -> dict[str, Any]:
    try:
        return {"value": read()}
    except NumberError as error:
        return {"error": error.advice}


@pytest.mark.parametrize("row", CASES, ids=[json.dumps(row, ensure_ascii=False)[:70] for row in CASES])
def test_python_follows_the_table(row: dict[str, Any]) -> None:
    if "number" in row or "answer" in row:
        got = _outcome(
            lambda: read_number(row["number"]) if "number" in row else read_answer(row["answer"], row["unit"])
        )
        if "error" in row:
            assert got == {"error": row["error"]}
        else:
            assert got["value"] == pytest.approx(row["value"], rel=1e-12, abs=0)
    elif "allows" in row:
        assert Tolerance(**row["tolerance"]).allows(row["given"], row["correct"]) is row["allows"]
    else:
        assert verdict(row["returned"], row["expected"], Tolerance(**row["tolerance"])) == row["verdict"]


def test_the_table_covers_each_part_of_the_rule() -> None:
    kinds = [next(key for key in ("number", "answer", "allows", "verdict") if key in row) for row in CASES]
    assert {kind: kinds.count(kind) >= 10 for kind in ("number", "answer", "allows", "verdict")} == dict.fromkeys(
        ("number", "answer", "allows", "verdict"), True
    )
    assert any("error" in row for row in CASES if "answer" in row) and any(
        "error" in row for row in CASES if "number" in row
    )


@pytest.mark.skipif(NODE is None, reason="needs Node")
def test_the_browsers_grader_follows_the_same_table() -> None:
    """grading.js under Node, on every row: none differs from the table (and so from the Python above)."""
    done = subprocess.run(
        [str(NODE), str(TABLE.with_name("grading_cases.mjs"))],
        capture_output=True,
        text=True,
        check=False,
        timeout=60,
        env={**os.environ, "NODE_NO_WARNINGS": "1"},  # the asset is an ES module in a package.json without "type"
    )
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout)
    assert report == {"checked": len(CASES), "wrong": []}


# Characters that the twins could read apart: digits of other scripts and full-width ones (Python's \\d and float()
# read them, JavaScript's do not), superscripts, white space that str.strip() and trim() disagree on, separators.
_ODD = "\u0661\u0660\u06f5\u0966\U0001d7ce\uff11\uff10\u00b2\u2075\u00bd\ufeff\x1c\x85\u2003\u3000\u200b\uff0c\uff0e"
_ALPHABET = "0123456789" * 3 + ",.,. _-+eE\u00a0\u202f\u2212\u2013\t\n" + _ODD
_UNITS = [
    "",
    " kB",
    "KiB",
    " TFLOP/s",
    "TFLOPS",
    " GFLOP/s",
    "ms",
    " \u00b5s",
    " us",
    " MWh",
    " \uff4b\uff22",
    "\u2003kB",
    "\ufeffkB",
]


def _random_texts(count: int) -> list[dict[str, str]]:
    draw = random.Random(20261202)
    numbers = [{"number": "".join(draw.choices(_ALPHABET, k=draw.randint(1, 9)))} for _ in range(count)]
    answers = [
        {
            "answer": "".join(draw.choices(_ALPHABET[:50] + _ODD, k=draw.randint(1, 6))) + draw.choice(_UNITS),
            "unit": draw.choice(["kB", "TFLOP/s", "kWh", "ms", ""]),
        }
        for _ in range(count)
    ]
    return numbers + answers


def _python_reading(row: dict[str, str]) -> dict[str, Any]:
    return _outcome(lambda: read_number(row["number"]) if "number" in row else read_answer(row["answer"], row["unit"]))


@pytest.mark.skipif(NODE is None, reason="needs Node")
def test_the_twins_read_random_texts_alike() -> None:
    """Beyond the table: 8,000 texts drawn from digits, separators and the characters the two languages read apart
    are each read to the same number, or refused with the same advice, by calckit and by grading.js."""
    rows = _random_texts(4000)
    done = subprocess.run(
        [str(NODE), str(TABLE.with_name("grading_texts.mjs"))],
        input=json.dumps(rows),
        capture_output=True,
        text=True,
        check=False,
        timeout=60,
        env={**os.environ, "NODE_NO_WARNINGS": "1"},
    )
    assert done.returncode == 0, done.stderr
    differ = []
    for row, js in zip(rows, json.loads(done.stdout), strict=True):
        python = _python_reading(row)
        same = python == js if "error" in python else "value" in js and js["value"] == pytest.approx(python["value"])
        if not same:
            differ.append((row, python, js))
    assert differ == []
    read = sum("value" in _python_reading(row) for row in rows)
    assert 1000 < read < 7000  # both kinds of outcome are well represented: the draw tests something


def test_unit_factors() -> None:
    assert unit_factor("GFLOP/s", "TFLOP/s") == pytest.approx(1e-3)
    assert unit_factor("KiB", "kB") == pytest.approx(1.024)
    assert unit_factor("KiB", "kWh") is None
    assert unit_factor("TFLOPS", "TFLOP/s") == 1.0
