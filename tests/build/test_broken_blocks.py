"""R2: every broken author block in the corpus aborts the strict build with `docs/page.md:LINE: message`.

Each case's pages are rendered in this process as the build renders them (sites.render_fixture); the whole corpus,
one folder per case, is built strictly once, as one site."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
import yaml

import calculators
from calckit import book
from calculators.chips import load_chips
from tests.build.sites import LOCATED, build_fixture, render_fixture

CORPUS_FILE = Path(__file__).with_name("broken_blocks.yaml")
MIN_CASES = 22
PLACEHOLDER = re.compile(
    r"\$\{(?P<what>calculators|chips|inputs:(?P<calculator>\w+)|choices:(?P<owner>\w+)\.(?P<key>\w+))\}"
)


def _expand(message: str) -> str:
    """A corpus message with its placeholders replaced by the lists they stand for, as the registry has them now."""

    def replace(match: re.Match[str]) -> str:
        if match["what"] == "calculators":
            return ", ".join(sorted(calculators.CALCULATORS))
        if match["what"] == "chips":
            return ", ".join(load_chips())
        if match["calculator"]:
            return ", ".join(book.calculator(match["calculator"]).input_keys)
        (spec,) = [spec for spec in book.calculator(match["owner"]).inputs if spec.key == match["key"]]
        return ", ".join(spec.choice_values)

    expanded = PLACEHOLDER.sub(replace, message)
    assert "${" not in expanded, f"unknown placeholder in {message!r}"
    return expanded


def _load_corpus() -> dict[str, dict[str, Any]]:
    cases = yaml.safe_load(CORPUS_FILE.read_text(encoding="utf-8"))
    corpus: dict[str, dict[str, Any]] = {}
    for case in cases:
        assert case["name"] not in corpus, f"two cases are called {case['name']!r}"
        assert ("page" in case) != ("pages" in case), f"{case['name']}: give either `page` or `pages`"
        assert case["errors"], f"{case['name']}: a broken block must expect at least one error"
        errors = [_expand(message) for message in case["errors"]]
        assert all(LOCATED.match(message) for message in errors), f"{case['name']}: not docs/PAGE:LINE: ..."
        corpus[case["name"]] = {**case, "errors": errors}
    return corpus


CORPUS = _load_corpus()


def _files(case: dict[str, Any], folder: str = "") -> dict[str, str]:
    """The case's pages, under docs/ (or docs/FOLDER/, when the corpus is built as one site)."""
    pages = case["pages"] if "pages" in case else {"index.md": case["page"]}
    return {f"docs/{folder}{path}": text for path, text in pages.items()}


def test_corpus_is_large_enough() -> None:
    """R2 asks for a corpus of at least 22 broken blocks."""
    assert len(CORPUS) >= MIN_CASES


@pytest.mark.parametrize("name", sorted(CORPUS))
def test_broken_block_is_reported_at_its_line(name: str, tmp_path: Path) -> None:
    """The case's pages, rendered as the strict build's page hook renders them, give exactly the case's
    `docs/page.md:LINE: message` errors, in order, and no other (test_the_corpus_as_one_site_stops_the_build shows
    that the build logs them and stops)."""
    assert render_fixture(tmp_path, _files(CORPUS[name])) == CORPUS[name]["errors"]


def test_the_corpus_as_one_site_stops_the_build(tmp_path: Path) -> None:
    """Every case as a folder of one site (docs/NAME/...), built strictly once: the build fails and logs exactly
    every case's errors, each at its page under its folder, in the build's page order (the folders sorted), and no
    other error (a crash in the plugin would log one), and no traceback."""
    files = {path: text for name in CORPUS for path, text in _files(CORPUS[name], f"{name}/").items()}
    build = build_fixture(tmp_path, files)
    expected = [
        error.replace("docs/", f"docs/{name}/", 1) for name in sorted(CORPUS) for error in CORPUS[name]["errors"]
    ]
    assert build.returncode != 0, build.output
    assert build.errors() == expected, build.output
    assert "Traceback" not in build.output
