"""R7: mistakes in the book's own package (the chip database, a calculator's code, a file the wheel lacks) stop the
strict build with one located line, `path:LINE: message` with the cause, and never a traceback or minified JavaScript.

Each fixture site carries a copy of the real package, with one mistake made in it, beside its mkdocs.yml: the build
runs from there, so Python imports that copy instead of the installed one, as it would a contributor's checkout.
"""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

import pytest

import calculators
from calculators.chip_lines import ChipDataError
from calculators.chips import parse_database
from tests.build.sites import Build, build_fixture

PACKAGE = Path(calculators.__file__).parent
CHIPS_TEXT = (PACKAGE / "chips.toml").read_text(encoding="utf-8")
ROOFLINE_TEXT = (PACKAGE / "roofline.py").read_text(encoding="utf-8")
PAGE = "# Roofline\n\n```calculator\nuse: roofline\nintensity: 7\n```\n"


def _line_of(text: str, snippet: str) -> int:
    assert text.count(snippet) >= 1, snippet
    return text[: text.index(snippet)].count("\n") + 1


def build_with_package(
    root: Path, edits: dict[str, str], page: str = PAGE, *, timeout: float | None = None, **config: Any
) -> Build:
    """Build a one-page site whose package is the real one with `edits` (file name -> its new text) applied."""
    package = root / "calculators"
    shutil.copytree(PACKAGE, package, ignore=shutil.ignore_patterns("__pycache__"))
    for name, text in edits.items():
        (package / name).write_text(text, encoding="utf-8")
    return build_fixture(root, {"docs/index.md": page}, timeout=timeout, **config)


def assert_one_clean_error(build: Build, message: str) -> None:
    assert build.returncode != 0, build.output
    assert build.errors() == [message], build.output
    assert "Traceback" not in build.output
    assert len(build.output) < 5000, build.output[:5000]


H100_BANDWIDTH = 'bandwidth_tbs = { value = 3.35, source = "nvidia-h100-datasheet"'
H100_ID = 'id = "h100-sxm"'
A100_ID_LINE = _line_of(CHIPS_TEXT, 'id = "a100-80gb-sxm"')


# (text in chips.toml, its replacement, text on the line the message names, the message after `path:LINE: `)
CHIP_MISTAKES = [
    pytest.param(
        H100_BANDWIDTH,
        'bandwidth_tbs = { value = 3.35, source = "nvidia-h100-datashet"',
        H100_BANDWIDTH,
        "chip 'h100-sxm', field 'bandwidth_tbs': unknown source id 'nvidia-h100-datashet': did you mean "
        "'nvidia-h100-datasheet'?",
        id="unknown-source",
    ),
    pytest.param(
        H100_BANDWIDTH,
        "bandwidth_tbs = { value = 3.35",
        H100_BANDWIDTH,
        "chip 'h100-sxm', field 'bandwidth_tbs': missing 'source': every figure names the id of the [[source]] "
        "it comes from",
        id="missing-source",
    ),
    pytest.param(
        H100_BANDWIDTH,
        'bandwidth_tbs = { value = 3350, source = "nvidia-h100-datasheet"',
        H100_BANDWIDTH,
        "chip 'h100-sxm', field 'bandwidth_tbs': 3350 TB/s is outside the plausible range 0.05 to 30 TB/s: "
        "check the unit (this field is in TB/s)",
        id="unit-slip",
    ),
    pytest.param(
        H100_BANDWIDTH,
        'bandwidth_tbs = { value = "3.35", source = "nvidia-h100-datasheet"',
        H100_BANDWIDTH,
        "chip 'h100-sxm', field 'bandwidth_tbs': 'value' must be a number (got '3.35'): write it without quotes",
        id="wrong-type",
    ),
    pytest.param(
        H100_ID,
        'id = "a100-80gb-sxm"',
        H100_ID,
        f"chip 'a100-80gb-sxm', field 'id': duplicate id (first used at line {A100_ID_LINE}): give each chip "
        "an id of its own",
        id="duplicate-id",
    ),
    pytest.param(
        'name = "NVIDIA H100 SXM"',
        "name = NVIDIA H100 SXM",
        'name = "NVIDIA H100 SXM"',
        "not valid TOML: Invalid value (column 8)",
        id="toml-syntax",
    ),
]


@pytest.mark.parametrize(("old", "new", "line_of", "message"), CHIP_MISTAKES)
def test_a_chip_database_mistake_is_one_located_line(old: str, new: str, line_of: str, message: str) -> None:
    """The chip database's reader, which the package runs as it is imported, says `calculators/chips.toml:LINE: chip
    'ID', field 'NAME': what is wrong` (test_a_chip_database_mistake_stops_the_build shows the build saying it, and
    nothing else)."""
    with pytest.raises(ChipDataError) as raised:
        parse_database(CHIPS_TEXT.replace(old, new, 1))
    assert str(raised.value) == f"calculators/chips.toml:{_line_of(CHIPS_TEXT, line_of)}: {message}"


def test_a_chip_database_mistake_stops_the_build(tmp_path: Path) -> None:
    """The build stops with the reader's one located line and nothing else: no traceback, a short log."""
    old, new, line_of, message = CHIP_MISTAKES[0].values
    build = build_with_package(tmp_path, {"chips.toml": CHIPS_TEXT.replace(str(old), str(new), 1)})
    assert_one_clean_error(build, f"calculators/chips.toml:{_line_of(CHIPS_TEXT, str(line_of))}: {message}")


def _compute_line() -> int:
    """The line of roofline.py's compute function's first statement, where the fixture puts a division by zero."""
    lines = ROOFLINE_TEXT.split("\n")
    first = next(number for number, line in enumerate(lines, start=1) if line.startswith("def _compute("))
    assert not lines[first].strip().startswith('"""'), "the fixture expects _compute without a docstring"
    return first + 1


def with_division_by_zero() -> str:
    """roofline.py whose compute divides by zero when the intensity is 7 (a valid input)."""
    lines = ROOFLINE_TEXT.split("\n")
    line = _compute_line()
    lines.insert(line - 1, '    if inputs["intensity"] == 7:\n        return 1 / (inputs["intensity"] - 7)')
    return "\n".join(lines)


def test_a_compute_that_raises_names_the_page_the_inputs_and_the_cause(tmp_path: Path) -> None:
    """A calculator whose compute raises for a page's inputs: `docs/page.md:LINE: calculator 'NAME' failed for these
    inputs (...): ZeroDivisionError: ... (calculators/x.py:LINE)`."""
    build = build_with_package(tmp_path, {"roofline.py": with_division_by_zero()})
    assert build.returncode != 0, build.output
    (error,) = build.errors()
    assert error.startswith("docs/index.md:3: calculator 'roofline' failed for these inputs (chip=")
    assert ", intensity=7, " in error
    place = f"calculators/roofline.py:{_compute_line() + 1}"
    assert error.endswith(f"): ZeroDivisionError: float division by zero ({place})")
    assert "Traceback" not in build.output


def test_a_syntax_error_in_the_package_is_one_located_line(tmp_path: Path) -> None:
    """A calculator module that does not parse stops the build at its file and line."""
    broken = ROOFLINE_TEXT.replace("def _compute(", "def _compute(:", 1)
    build = build_with_package(tmp_path, {"roofline.py": broken})
    line = _line_of(ROOFLINE_TEXT, "def _compute(")
    assert_one_clean_error(build, f"calculators/roofline.py:{line}: SyntaxError: invalid syntax")


def test_a_file_missing_from_the_wheel_is_said_in_python(tmp_path: Path) -> None:
    """A calculator that reads a file outside its package works in CPython but not in the browser: the build says so
    with Python's exception and the file's name, from Pyodide, and quotes none of Pyodide's JavaScript."""
    rates = 'import pathlib\nRATES = (pathlib.Path(__file__).parent.parent / "rates.txt").read_text()\n'
    reads_outside = ROOFLINE_TEXT.replace("\n__all__", f"\n{rates}__all__", 1)
    tmp_path.mkdir(parents=True, exist_ok=True)
    (tmp_path / "rates.txt").write_text("1.0\n", encoding="utf-8")
    build = build_with_package(tmp_path, {"roofline.py": reads_outside}, plugin={"snapshot": True})
    assert build.returncode != 0, build.output
    (error, *_) = build.errors()
    line = _line_of(reads_outside, "RATES = ")
    # In Pyodide the module lives inside the wheel's zip, so the path through it is "not a directory".
    assert error.startswith(
        f"calculators/roofline.py:{line}: NotADirectoryError: [Errno 54] Not a directory: 'rates.txt' (raised in "
        "Pyodide"
    ), build.output
    assert "Traceback" not in build.output
    assert "_createPyodideModule" not in build.output
    assert len(build.output) < 8000


def test_a_default_outside_its_own_range_points_at_the_declaration(tmp_path: Path) -> None:
    """An input declared with a default its range refuses: the line of the declaration, and the rule it breaks."""
    training = (PACKAGE / "training.py").read_text(encoding="utf-8")
    declaration = 'Input("chips", "Chips", kind="integer", default=2048'
    broken = training.replace(declaration, declaration.replace("2048", "0"), 1)
    build = build_with_package(tmp_path, {"training.py": broken}, page="# Empty\n")
    assert_one_clean_error(
        build,
        f"calculators/training.py:{_line_of(training, declaration)}: ValueError: input 'chips': its default breaks "
        "its own rule: 'chips' must be >= 1 (got 0)",
    )


def test_two_calculators_of_one_name_stop_the_build_at_the_second(tmp_path: Path) -> None:
    """A calculator given a name another already has (`calckit.registry` gathers them) stops the build at the line
    that declares it, with the first's place, and nothing else."""
    energy = (PACKAGE / "energy.py").read_text(encoding="utf-8")
    renamed = energy.replace('name="energy"', 'name="roofline"', 1)
    assert renamed != energy
    build = build_with_package(tmp_path, {"energy.py": renamed}, page="# Empty\n")
    roofline = (PACKAGE / "roofline.py").read_text(encoding="utf-8")
    assert_one_clean_error(
        build,
        f"calculators/energy.py:{_line_of(energy, '= Calculator(')}: two calculators are named 'roofline' (the first "
        f"at calculators/roofline.py:{_line_of(roofline, '= Calculator(')}): give each a name of its own",
    )
