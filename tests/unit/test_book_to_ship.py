"""What a build ships of the book's package, and whether it imports the package itself (sandbox/books.py,
book_to_ship): only when no earlier build of the same files kept the package's version, or the child's import raised."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from mkdocs_calculators.extras.build_cache import BuildCache
from mkdocs_calculators.sandbox.books import book_to_ship
from mkdocs_calculators.sandbox.compute_process import ComputeProcess
from tests.unit.test_book_contract import OHM

INIT = "from .ohm import OHMS_LAW\nCALCULATORS = {OHMS_LAW.name: OHMS_LAW}\n__version__ = '2.5'\n"


@pytest.fixture
def package(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """An importable package `shipbook` with one calculator, not imported yet."""
    root = tmp_path / "shipbook"
    root.mkdir()
    (root / "ohm.py").write_text(OHM, encoding="utf-8")
    (root / "__init__.py").write_text(INIT, encoding="utf-8")
    monkeypatch.syspath_prepend(str(tmp_path))
    yield root
    for name in [name for name in sys.modules if name.split(".")[0] == "shipbook"]:
        del sys.modules[name]


def child(package: Path, *, raised: bool = False) -> ComputeProcess:
    """The child as the build has it once its import ended (never started here: nothing below runs book code in it)."""
    code = ComputeProcess("shipbook", package)
    code.import_raised = raised
    return code


def test_the_first_build_imports_the_package_and_keeps_its_version(package: Path, tmp_path: Path) -> None:
    cache = BuildCache(tmp_path / "cache", "code")
    shipped, imported = book_to_ship("shipbook", tmp_path, child(package), "", cache, reload=False)
    assert shipped is imported and imported is not None
    assert (imported.package, imported.version, imported.directory) == ("shipbook", "2.5", package)
    assert "shipbook" in sys.modules
    assert cache.book_version() == "2.5"
    assert BuildCache(tmp_path / "cache", "other code").book_version() is None


def test_a_build_of_the_same_files_ships_the_kept_version_without_importing(package: Path, tmp_path: Path) -> None:
    cache = BuildCache(tmp_path / "cache", "code")
    cache.keep_book_version("2.5")
    shipped, imported = book_to_ship("shipbook", tmp_path, child(package), "", cache, reload=False)
    assert imported is None and not isinstance(shipped, str)
    assert (shipped.package, shipped.version, shipped.directory, shipped.table) == ("shipbook", "2.5", package, None)
    assert "shipbook" not in sys.modules
    # Its calculators, read (as the memory snapshot's report of one that hung reads them), import it then.
    assert len(shipped.calculators) == 1 and list(shipped.calculators) == ["ohms-law"]
    assert shipped.calculators["ohms-law"].run({"volts": 12, "ohms": 4}).values["amps"] == 3.0
    assert "shipbook" in sys.modules


def test_a_child_whose_import_raised_has_the_build_import_it_to_say_why(package: Path, tmp_path: Path) -> None:
    (package / "__init__.py").write_text("raise RuntimeError('no network here')\n" + INIT, encoding="utf-8")
    cache = BuildCache(tmp_path / "cache", "code")
    cache.keep_book_version("2.5")  # as an earlier build of files that loaded might have left it
    shipped, imported = book_to_ship("shipbook", tmp_path, child(package, raised=True), "", cache, reload=False)
    assert imported is None and isinstance(shipped, str)
    assert shipped.endswith("RuntimeError: no network here"), shipped
    assert "shipbook/__init__.py:1: " in shipped


def test_a_hung_child_is_said_and_nothing_is_imported(package: Path, tmp_path: Path) -> None:
    cache = BuildCache(tmp_path / "cache", "code")
    hung = "shipbook/__init__.py:1: calculators: importing the package 'shipbook' did not finish within 5 s"
    assert book_to_ship("shipbook", tmp_path, None, hung, cache, reload=False) == (hung, None)
    assert "shipbook" not in sys.modules and cache.book_version() is None
