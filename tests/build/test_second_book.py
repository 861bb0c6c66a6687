"""Any book can use the plugin: a second book (tests/second_book) with its own package, `circuits`, builds strictly,
pre-renders its calculators, computes its quiz's answer key, renders its own data table, and imports nothing of this
book's package. Its author's mistakes about the package and its table each get one clear line."""

from __future__ import annotations

import json
import re
import shutil
from collections.abc import Callable, Iterator
from html import unescape
from pathlib import Path

import pytest

from calckit import book
from calckit.api import run
from tests.support import SECOND_BOOK, build_second_book

IMPORTED = re.compile(r"imported from calculators: (\[.*\])")


@pytest.fixture
def circuits(monkeypatch: pytest.MonkeyPatch, use_book: Callable[[str], book.Book]) -> Iterator[book.Book]:
    """calckit working for the second book's package in this process, to compute what its pages must show."""
    monkeypatch.syspath_prepend(str(SECOND_BOOK))
    yield use_book("circuits")


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, str]:
    site = tmp_path_factory.mktemp("circuits") / "site"
    result = build_second_book(site)
    assert result.returncode == 0, result.stderr
    return site, result.stderr


def output_texts(html: str, uid: str) -> list[str]:
    return re.findall(rf'<output for="{uid}-form">([^<]*)</output>', html)


class TestTheSecondBook:
    def test_its_build_imports_nothing_of_this_books_package(self, built: tuple[Path, str]) -> None:
        match = IMPORTED.search(built[1])
        assert match, built[1][-500:]
        assert json.loads(match[1].replace("'", '"')) == []

    def test_its_calculators_are_pre_rendered_by_its_package(
        self, built: tuple[Path, str], circuits: book.Book
    ) -> None:
        html = (built[0] / "index.html").read_text(encoding="utf-8")
        ohms = run("ohms-law", {"volts": 9, "ohms": 450})
        assert [out["text"] for out in ohms["outputs"]] == ["0.02 A", "0.18 W"]  # 9 V / 450 Ω, and 9 V × 0.02 A
        assert output_texts(html, "calc-1") == ["0.02 A", "0.18 W"]
        rc = [out["text"] for out in run("rc-filter", {})["outputs"]]
        assert rc == ["1 ms", "159 Hz"]  # 10 kΩ × 100 nF = 1 ms; 1 / (2π × 1 ms) = 159.2 Hz
        assert output_texts(html, "calc-2") == rc
        # An id in another alphabet is the block's anchor, which the page's link (checked by the strict build's anchor
        # validation) reaches.
        assert output_texts(html, "calc-résistance") == ["0.04 A", "0.48 W"]  # 12 V / 300 Ω; 12 V × 0.04 A
        assert 'id="calc-résistance"' in html and 'href="#calc-résistance"' in html

    def test_its_quiz_answer_comes_from_its_calculator(self, built: tuple[Path, str], circuits: object) -> None:
        html = (built[0] / "index.html").read_text(encoding="utf-8")
        found = re.search(r'data-quiz-data="([^"]*)"', html)
        assert found is not None
        data = json.loads(unescape(found[1]))
        numeric = data["questions"][0]
        assert numeric["answer"] == pytest.approx(0.02)  # 5 V / 250 Ω
        assert numeric["answer"] == run("ohms-law", {"volts": 5, "ohms": 250})["outputs"][0]["value"]

    def test_its_table_block_and_reference_page(self, built: tuple[Path, str]) -> None:
        site = built[0]
        html = (site / "index.html").read_text(encoding="utf-8")
        assert '<a href="reference/wires/#wire-awg-12">AWG 12</a>' in html
        assert (
            '<td data-value="2.053">2.053<sup class="table-source"><a href="reference/wires/#source-awg-table"' in html
        )
        assert "<caption>Two common gauges. Figures as of 2026-12-01.</caption>" in html
        assert "AWG 10" not in html
        reference = (site / "reference/wires/index.html").read_text(encoding="utf-8")
        assert reference.count("<tr id=wire-awg-") == 3 and 'id="source-awg-table"' in reference
        calculators = (site / "reference/calculators/index.html").read_text(encoding="utf-8")
        assert 'id="ohms-law"' in calculators and 'id="rc-filter"' in calculators
        assert "<code>circuits</code> package" in calculators
        assert 'id="roofline"' not in calculators

    def test_the_browser_gets_its_wheels_and_its_package(self, built: tuple[Path, str]) -> None:
        assets = built[0] / "assets/calculators"
        assert sorted(path.name.split("-")[0] for path in assets.glob("*.whl")) == ["calckit", "circuits"]
        assert len(list(assets.glob("snapshot-*.bin"))) == 1
        assert 'export const bookPackage = "circuits";' in (assets / "build-info.js").read_text(encoding="utf-8")

    def test_its_own_block_kind(self, built: tuple[Path, str]) -> None:
        """The book registers a kind of its own (```resistor, circuit_blocks/resistor, in its pyproject.toml): its
        blocks render, its browser module is in the site and in the mount table beside the plugin's kinds, and its
        stylesheet is in the one every page links."""
        site = built[0]
        html = (site / "index.html").read_text(encoding="utf-8")
        assert '<figure class="resistor" data-resistor="1000">' in html
        assert '<span class="resistor-band" style="background: #7b3f00" data-colour="brown"></span>' in html
        assert "<figcaption>1 kΩ</figcaption>" in html
        assets = site / "assets/calculators"
        assert 'import { claim } from "./status.js";' in (assets / "resistor.js").read_text(encoding="utf-8")
        table = json.loads((assets / "kinds.js").read_text(encoding="utf-8").split(" = ", 1)[1].strip().rstrip(";"))
        assert [row["module"] for row in table] == [
            "calculator.js",
            "quiz.js",
            "exercise.js",
            "sortable.js",
            "resistor.js",
        ]
        assert table[-1] == {
            "selector": "[data-resistor]",
            "module": "resistor.js",
            "mount": "mountResistors",
            "near": False,
            "offline": False,
        }
        assert ".resistor-band{" in (assets / "calculators.css").read_text(encoding="utf-8")


def copy_of_the_book(tmp_path: Path) -> Path:
    root = tmp_path / "book"
    shutil.copytree(SECOND_BOOK, root, ignore=shutil.ignore_patterns("__pycache__"))
    return root


def edit(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert old in text, f"{old!r} not in {path}"
    path.write_text(text.replace(old, new), encoding="utf-8")


class TestAnAuthorsMistakes:
    def test_a_mistake_in_a_block_of_the_books_own_kind(self, tmp_path: Path) -> None:
        root = copy_of_the_book(tmp_path)
        edit(root / "docs/index.md", "bands: [brown, black, red]", "bands: [brown, black, pink]")
        result = build_second_book(tmp_path / "site", root)
        assert result.returncode == 1
        line = (root / "docs/index.md").read_text(encoding="utf-8").splitlines().index(
            "bands: [brown, black, pink]"
        ) + 1
        assert (
            f"docs/index.md:{line}: resistor block: 'bands' must be a list of three colours, two digits and a "
            "multiplier (of: black, brown, red, orange, yellow, green, blue, violet, grey, white); 'pink' is not one"
        ) in result.stderr
        assert "Traceback" not in result.stderr + result.stdout

    def test_a_registration_that_names_no_kind(self, tmp_path: Path) -> None:
        root = copy_of_the_book(tmp_path)
        edit(root / "pyproject.toml", '"circuit_blocks.resistor:KIND"', '"circuit_blocks.resistor:ResistorKind"')
        result = build_second_book(tmp_path / "site", root)
        assert result.returncode == 1
        line = (root / "pyproject.toml").read_text(encoding="utf-8").splitlines().index(
            'resistor = "circuit_blocks.resistor:ResistorKind"'
        ) + 1
        assert (
            f"pyproject.toml:{line}: 'circuit_blocks.resistor:ResistorKind', registered in mkdocs_calculators.kinds as "
            "the kind 'resistor', is the class ResistorKind, not a block kind: name an instance of a BlockKind "
            "subclass, such as the module's KIND (docs/contributing.md, Add a block kind)"
        ) in result.stderr
        assert "Traceback" not in result.stderr + result.stdout

    def test_a_misspelt_package(self, tmp_path: Path) -> None:
        root = copy_of_the_book(tmp_path)
        edit(root / "mkdocs.yml", "package: circuits", "package: circuit")
        result = build_second_book(tmp_path / "site", root)
        assert result.returncode == 1
        assert (
            "calculators: the plugin's option 'package' names 'circuit', which Python cannot import (is it installed, "
            "e.g. `pip install -e .`, or is the name misspelt?)"
        ) in result.stderr
        assert "Traceback" not in result.stderr + result.stdout

    def test_a_package_without_calculators(self, tmp_path: Path) -> None:
        root = copy_of_the_book(tmp_path)
        edit(root / "circuits/__init__.py", "CALCULATORS = ", "CALCULATOR = ")
        result = build_second_book(tmp_path / "site", root)
        assert result.returncode == 1
        assert "calculators: package 'circuits' has no CALCULATORS in its __init__.py" in result.stderr
        assert "Traceback" not in result.stderr + result.stdout

    def test_a_table_block_the_package_does_not_have(self, tmp_path: Path) -> None:
        root = copy_of_the_book(tmp_path)
        edit(root / "docs/index.md", "```wires\nwires:", "```table\nwires:")
        result = build_second_book(tmp_path / "site", root)
        assert result.returncode == 1
        line = (root / "docs/index.md").read_text(encoding="utf-8").splitlines().index("```table") + 1
        assert (
            f"docs/index.md:{line}: table block: this book's package 'circuits' has no such table: its table is "
            "```wires"
        ) in result.stderr

    def test_a_book_without_a_table(self, tmp_path: Path) -> None:
        """A package that declares no TABLE has no table blocks and no table page; a ```table block says why."""
        root = copy_of_the_book(tmp_path)
        edit(root / "circuits/__init__.py", "from .wires import TABLE\n", "")
        edit(root / "mkdocs.yml", "      - Wire gauges: reference/wires.md\n", "")
        edit(root / "docs/index.md", "```wires\nwires:", "```table\nwires:")
        result = build_second_book(tmp_path / "site", root)
        assert result.returncode == 1
        line = (root / "docs/index.md").read_text(encoding="utf-8").splitlines().index("```table") + 1
        assert (
            f"docs/index.md:{line}: table block: this book's package 'circuits' has no such table: it declares no "
            "data table (TABLE, see calckit/table.py)"
        ) in result.stderr
        edit(root / "docs/index.md", "```table\nwires: [awg-12, awg-14]\ncaption: Two common gauges.\n```\n", "")
        result = build_second_book(tmp_path / "site", root)
        assert result.returncode == 0, result.stderr
        assert not (tmp_path / "site/reference/wires").exists()

    def test_an_unknown_row_names_the_tables_own_rows(self, tmp_path: Path) -> None:
        root = copy_of_the_book(tmp_path)
        edit(root / "docs/index.md", "wires: [awg-12, awg-14]", "wires: [awg-12, awg-41]")
        result = build_second_book(tmp_path / "site", root)
        assert result.returncode == 1
        assert "wires block: unknown wire 'awg-41' (expected one of: awg-10, awg-12, awg-14)" in result.stderr

    def test_a_source_id_with_a_typo_in_the_table(self, tmp_path: Path) -> None:
        root = copy_of_the_book(tmp_path)
        edit(
            root / "circuits/wires.py", '"diameter": Cell(diameter, _SOURCE)', '"diameter": Cell(diameter, "awg-tabel")'
        )
        result = build_second_book(tmp_path / "site", root)
        assert result.returncode == 1
        assert (
            "calculators: data table 'wires', wire 'awg-10', column 'diameter': unknown source 'awg-tabel' (did you "
            "mean 'awg-table'?)"
        ) in result.stderr
        assert "Traceback" not in result.stderr + result.stdout
