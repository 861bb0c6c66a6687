"""calckit's contract with a book's package (calckit.book) and its data tables (calckit.table): what a package
must provide, and the one line that says what it got wrong."""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from calckit import book
from calckit.table import Cell, Column, DataTable, Row, Source, TableError, check_table

OHM = """
from calckit.spec import Calculator, Input, Output, Result, number

OHMS_LAW = Calculator(
    name="ohms-law",
    title="Ohm's law",
    description="Current from voltage and resistance.",
    inputs=(Input("volts", "Voltage", default=12.0, min=0, max=100), Input("ohms", "Resistance", default=4.0, min=1)),
    outputs=(Output("amps", "Current", unit="A"),),
    compute=lambda inputs: Result({"amps": number(inputs, "volts") / number(inputs, "ohms")}, ""),
)
"""


@pytest.fixture
def package(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """An importable package `tinybook` in a temporary folder, with one calculator module; tests write __init__.py."""
    root = tmp_path / "tinybook"
    root.mkdir()
    (root / "ohm.py").write_text(OHM, encoding="utf-8")
    monkeypatch.syspath_prepend(str(tmp_path))
    yield root
    for name in [name for name in sys.modules if name.split(".")[0] == "tinybook"]:
        del sys.modules[name]


def write_init(package: Path, text: str) -> None:
    (package / "__init__.py").write_text(text, encoding="utf-8")


class TestTheContract:
    def test_a_package_that_keeps_it(self, package: Path, use_book: Callable[[str], book.Book]) -> None:
        write_init(package, "from .ohm import OHMS_LAW\nCALCULATORS = {OHMS_LAW.name: OHMS_LAW}\n__version__ = '1.2'\n")
        loaded = use_book("tinybook")
        assert (loaded.package, loaded.version, loaded.directory, loaded.table) == ("tinybook", "1.2", package, None)
        assert book.calculator("ohms-law").run({"volts": 12, "ohms": 4}).values["amps"] == 3.0
        with pytest.raises(KeyError, match=r"unknown calculator 'roofline' \(expected one of: ohms-law\)"):
            book.calculator("roofline")

    @pytest.mark.parametrize(
        ("init", "message"),
        [
            ("__version__ = '1'\n", "package 'tinybook' has no CALCULATORS in its __init__.py"),
            (
                "from .ohm import OHMS_LAW\nCALCULATORS = {OHMS_LAW.name: OHMS_LAW}\n",
                "package 'tinybook' has no __version__ in its __init__.py",
            ),
            (
                "from .ohm import OHMS_LAW\nCALCULATORS = {'ohm': OHMS_LAW}\n__version__ = '1'\n",
                "package 'tinybook': CALCULATORS['ohm'] is the calculator named 'ohms-law'",
            ),
            (
                "CALCULATORS = {'ohms-law': 'Ohm'}\n__version__ = '1'\n",
                "package 'tinybook': CALCULATORS['ohms-law'] is a str, not a Calculator",
            ),
            (
                "from .ohm import OHMS_LAW\nCALCULATORS = {OHMS_LAW.name: OHMS_LAW}\n__version__ = '1'\nTABLE = []\n",
                "package 'tinybook': TABLE is a list, not a calckit.table.DataTable",
            ),
        ],
        ids=["no-calculators", "no-version", "misnamed", "not-a-calculator", "not-a-table"],
    )
    def test_what_a_package_lacks_is_said(self, package: Path, init: str, message: str) -> None:
        write_init(package, init)
        with pytest.raises(book.ContractError) as raised:
            book.load("tinybook")
        assert str(raised.value).startswith(message)

    def test_a_module_is_not_a_package(self, package: Path) -> None:
        write_init(package, "")
        with pytest.raises(book.ContractError, match=r"'tinybook\.ohm' is a single module"):
            book.load("tinybook.ohm")


def table(**overrides: object) -> DataTable:
    rows = {"r1": Row("r1", "Row one", {"mass": Cell(2.5, "s1", alternatives=(Cell(2.4, "s2"),))})}
    sources = {
        "s1": Source("s1", "One", "https://example.org/1", "2024-05"),
        "s2": Source("s2", "Two", "https://example.org/2", "2025"),
    }
    fields: dict[str, object] = {
        "name": "parts",
        "title": "Parts",
        "intro": "Parts.",
        "columns": (Column("mass", "Mass (kg)"),),
        "default_columns": ("mass",),
        "reference_columns": ("mass",),
        "rows": lambda: rows,
        "sources": lambda: sources,
        "row_label": "part",
        **overrides,
    }
    return DataTable(**fields)  # type: ignore[arg-type]


class TestDataTables:
    def test_a_table_that_fits_passes(self) -> None:
        check_table(table())

    @pytest.mark.parametrize(
        ("rows", "message"),
        [
            ({"r1": Row("r2", "Row", {})}, "data table 'parts', part 'r1': its Row has the id 'r2'"),
            ({"r1": Row("r1", "Row", {"volume": Cell(1.0)})}, "data table 'parts', part 'r1': unknown column 'volume'"),
            (
                {"r1": Row("r1", "Row", {"mass": Cell(float("nan"))})},
                "data table 'parts', part 'r1', column 'mass': nan is not a number a reader can use",
            ),
            (
                {"r1": Row("r1", "Row", {"mass": Cell(1.0, "s11")})},
                "data table 'parts', part 'r1', column 'mass': unknown source 's11' (did you mean 's1'?)",
            ),
            (
                {"r1": Row("r1", "Row", {"mass": Cell(1.0, "s1", alternatives=(Cell(1.1, "elsewhere"),))})},
                "data table 'parts', part 'r1', column 'mass': unknown source 'elsewhere' (sources: s1, s2)",
            ),
        ],
        ids=["misfiled", "unknown-column", "nan", "typo-in-source", "unknown-alternative-source"],
    )
    def test_rows_that_do_not_fit_are_named(self, rows: dict[str, Row], message: str) -> None:
        with pytest.raises(TableError) as raised:
            check_table(table(rows=lambda: rows))
        assert str(raised.value).startswith(message)

    def test_a_declaration_that_does_not_fit(self) -> None:
        with pytest.raises(ValueError, match=r"data table 'parts': unknown column 'volume' \(columns: mass\)"):
            table(default_columns=("volume",))
        with pytest.raises(ValueError, match="not a block kind the plugin already has"):
            table(name="quiz")
