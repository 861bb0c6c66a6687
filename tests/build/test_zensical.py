"""The second book built with Zensical (pinned in the test extras) as its author would: `mkdocs-calculators pages`,
`zensical build`, `mkdocs-calculators ship site/`. Its pages carry the results its package computes, its reference
pages exist, its wheels, runtime and service worker are shipped, and an author's mistake fails the build with
`docs/page.md:LINE: message`, the line counted from the file's top."""

from __future__ import annotations

import json
import re
import shutil
from html import unescape
from pathlib import Path

import pytest

from mkdocs_calculators.hosts.ship import GENERATED_MARK
from mkdocs_calculators.runtime.layout import ENTRY_SCRIPT, STYLESHEET
from mkdocs_calculators.runtime.site import LIVE_MARK
from tests.build.test_runtime_build import build_info
from tests.support import SECOND_BOOK, build_second_book, build_with_zensical


def copy_of_the_book(parent: Path) -> Path:
    root = parent / "book"
    shutil.copytree(SECOND_BOOK, root, ignore=shutil.ignore_patterns("__pycache__", "site", ".cache"))
    return root


def outputs(html: str, uid: str) -> list[str]:
    return re.findall(rf'<output for="{uid}-form">([^<]*)</output>', html)


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, str]:
    root = copy_of_the_book(tmp_path_factory.mktemp("zensical"))
    results = build_with_zensical(root)
    log = "\n".join(result.stdout + result.stderr for result in results)
    assert [result.returncode for result in results] == [0, 0, 0], log
    return root, log


class TestTheSecondBookUnderZensical:
    def test_its_calculators_are_pre_rendered(self, built: tuple[Path, str]) -> None:
        html = (built[0] / "site/index.html").read_text(encoding="utf-8")
        assert outputs(html, "calc-1") == ["0.02 A", "0.18 W"]  # 9 V / 450 Ω, and 9 V × 0.02 A
        assert outputs(html, "calc-2") == ["1 ms", "159 Hz"]  # 10 kΩ × 100 nF = 1 ms; 1 / (2π × 1 ms) = 159.2 Hz
        assert "```calculator" not in html and "use: ohms-law" not in html

    def test_its_quiz_and_table(self, built: tuple[Path, str]) -> None:
        html = (built[0] / "site/index.html").read_text(encoding="utf-8")
        found = re.search(r'data-quiz-data="([^"]*)"', html)
        assert found is not None
        data = json.loads(unescape(found[1]))
        assert data["questions"][0]["answer"] == pytest.approx(0.02)  # 5 V / 250 Ω
        assert '<a href="reference/wires/#wire-awg-12">AWG 12</a>' in html
        assert "AWG 10" not in html

    def test_its_reference_pages_are_built_without_a_warning(self, built: tuple[Path, str]) -> None:
        root, log = built
        calculators = (root / "site/reference/calculators/index.html").read_text(encoding="utf-8")
        assert 'id="ohms-law"' in calculators and 'id="rc-filter"' in calculators
        wires = (root / "site/reference/wires/index.html").read_text(encoding="utf-8")
        assert wires.count("<tr id=wire-awg-") == 3
        assert (root / "docs/reference/calculators.md").read_text(encoding="utf-8").startswith(GENERATED_MARK)
        assert "does not exist" not in log and "WARNING" not in log, log

    def test_its_wheels_runtime_and_service_worker(self, built: tuple[Path, str]) -> None:
        site = built[0] / "site"
        assets = site / "assets/calculators"
        assert sorted(path.name.split("-")[0] for path in assets.glob("*.whl")) == ["calckit", "circuits"]
        assert build_info(site)["bookPackage"] == "circuits"
        assert (assets / "pyodide/pyodide.asm.wasm").is_file()
        assert len(list(assets.glob("snapshot-*.bin"))) == 1
        manifest = (site / "sw.js").read_text(encoding="utf-8")
        assert "reference/calculators/" in manifest and ".whl" in manifest

    def test_every_page_loads_the_plugins_scripts_once(self, built: tuple[Path, str]) -> None:
        site = built[0] / "site"
        pages = {"index.html": "./", "reference/calculators/index.html": "../../"}
        for page, base in pages.items():
            html = (site / page).read_text(encoding="utf-8")
            assert html.count(LIVE_MARK) == 1, page
            assert html.count(f'<script defer src="{base}{ENTRY_SCRIPT}">') == 1, page
            assert html.count(f'href="{base}{STYLESHEET}"') == 1, page

    def test_shipping_again_changes_nothing(self, built: tuple[Path, str]) -> None:
        root = built[0]
        before = (root / "site/index.html").read_text(encoding="utf-8")
        sw = (root / "site/sw.js").read_text(encoding="utf-8")
        [result] = build_with_zensical(root, ("ship",))
        assert result.returncode == 0, result.stderr
        assert (root / "site/index.html").read_text(encoding="utf-8") == before
        assert (root / "site/sw.js").read_text(encoding="utf-8") == sw


def test_mkdocs_builds_the_same_tree(built: tuple[Path, str], tmp_path: Path) -> None:
    """One mkdocs.yml, two hosts: MkDocs builds the tree Zensical built (its docs folder now holding the reference
    pages that `mkdocs-calculators pages` wrote), strictly, and its plugin's pages replace those files."""
    root = built[0]
    result = build_second_book(tmp_path / "site", root)
    assert result.returncode == 0, result.stderr
    assert "WARNING" not in result.stderr and "DeprecationWarning" not in result.stderr, result.stderr
    html = (tmp_path / "site/index.html").read_text(encoding="utf-8")
    assert outputs(html, "calc-1") == ["0.02 A", "0.18 W"]
    calculators = (tmp_path / "site/reference/calculators/index.html").read_text(encoding="utf-8")
    assert 'id="ohms-law"' in calculators and "Generated by" not in calculators


class TestAnAuthorsMistakesUnderZensical:
    def test_a_bad_input_fails_the_build_at_its_line(self, tmp_path: Path) -> None:
        root = copy_of_the_book(tmp_path)
        page = root / "docs/index.md"
        page.write_text(
            "---\ntitle: Circuits\n---\n" + page.read_text(encoding="utf-8").replace("ohms: 450", "ohms: -450"),
            encoding="utf-8",
        )
        line = page.read_text(encoding="utf-8").splitlines().index("ohms: -450") + 1
        results = build_with_zensical(root)
        assert [result.returncode for result in results] == [0, 1]
        stderr = results[1].stderr
        assert f"ERROR    -  docs/index.md:{line}: calculator 'ohms-law': 'ohms' must be" in stderr
        assert "calculators: 1 problem(s) in 1 page(s) (listed above): the build failed" in stderr
        assert "Traceback" not in stderr + results[1].stdout
        html = (root / "site/index.html").read_text(encoding="utf-8")
        assert f"docs/index.md:{line}:" in html  # the page shows it where the block was

    def test_a_broken_page_rebuilt_from_zensicals_cache_is_not_shipped(self, tmp_path: Path) -> None:
        """Zensical renders a page it has cached only when the page changes: its second build prints nothing and
        succeeds. The site still shows the problem, and ship refuses it, naming it."""
        root = copy_of_the_book(tmp_path)
        page = root / "docs/index.md"
        page.write_text(page.read_text(encoding="utf-8").replace("ohms: 450", "ohms: -450"), encoding="utf-8")
        line = page.read_text(encoding="utf-8").splitlines().index("ohms: -450") + 1
        first = build_with_zensical(root)
        assert [result.returncode for result in first] == [0, 1]
        again = build_with_zensical(root, ("build from its cache", "ship"))
        assert [result.returncode for result in again] == [0, 1]
        assert "problem" not in again[0].stderr  # the cached page was not rendered, so nothing was said
        assert "site shows 1 problem(s) in its blocks, so it is not shipped:" in again[1].stderr
        assert f"  docs/index.md:{line}: calculator 'ohms-law': 'ohms' must be > 0 (got -450)" in again[1].stderr
        assert not (root / "site/sw.js").exists()

    def test_a_misspelt_package(self, tmp_path: Path) -> None:
        root = copy_of_the_book(tmp_path)
        config = root / "mkdocs.yml"
        config.write_text(config.read_text(encoding="utf-8").replace("package: circuits", "package: circuit"))
        results = build_with_zensical(root)
        assert results[0].returncode == 1
        assert "names 'circuit', which Python cannot import" in results[0].stderr
        assert "Traceback" not in results[0].stderr

    def test_shipping_a_site_built_without_the_reference_pages(self, tmp_path: Path) -> None:
        root = copy_of_the_book(tmp_path)
        results = build_with_zensical(root)
        assert results[-1].returncode == 0
        (root / "docs/reference/wires.md").unlink()
        [shipped] = build_with_zensical(root, ("ship",))
        assert shipped.returncode == 1
        assert (
            "mkdocs-calculators: docs/reference/wires.md: missing or out of date: run `mkdocs-calculators pages` "
            "before the build, then build again"
        ) in shipped.stderr


def test_the_progress_page_in_the_nav_is_built_and_lists_what_mkdocs_lists(tmp_path: Path) -> None:
    """The contributing guide says to list `progress.md` in the nav: under Zensical it is a page too (written by
    `mkdocs-calculators pages`, its list filled by `ship` from the built pages), not a link that answers 404, and it
    lists the book's quizzes and exercises as MkDocs' build of the same tree does."""
    root = copy_of_the_book(tmp_path)
    config = root / "mkdocs.yml"
    config.write_text(config.read_text(encoding="utf-8") + "  - Your progress: progress.md\n", encoding="utf-8")
    results = build_with_zensical(root)
    log = "\n".join(result.stdout + result.stderr for result in results)
    assert [result.returncode for result in results] == [0, 0, 0], log
    assert "calculators: wrote docs/progress.md" in results[0].stdout
    index = (root / "site/index.html").read_text(encoding="utf-8")
    assert 'href="./progress/"' in index  # the nav's link, to the page below
    zensical = (root / "site/progress/index.html").read_text(encoding="utf-8")
    listed = re.search(r'<div class="progress-book".*?<p class="progress-count">[^<]*</p></div>', zensical, re.S)
    assert listed is not None, zensical
    # As MkDocs words the home page's address, and the quiz's anchor from its id.
    assert 'href="..#quiz-circuits-basics">Quiz: Check yourself</a>' in listed[0]
    assert "1 quizzes and exercises in all." in listed[0]
    assert "data-progress-list-slot" not in zensical

    mkdocs = build_second_book(tmp_path / "mkdocs-site", root)
    assert mkdocs.returncode == 0, mkdocs.stderr
    built = (tmp_path / "mkdocs-site/progress/index.html").read_text(encoding="utf-8")
    assert listed[0] in built  # the very list the plugin writes
