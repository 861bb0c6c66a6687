"""R2: every broken author block in the corpus aborts the strict build with `docs/page.md:LINE: message`."""

from __future__ import annotations

import os
import re
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest
import yaml

import calculators
from calckit import book
from calculators.chips import load_chips
from tests.build.sites import LOCATED, Build, build_fixture

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


def _files(case: dict[str, Any]) -> dict[str, str]:
    pages = case["pages"] if "pages" in case else {"index.md": case["page"]}
    return {f"docs/{path}": text for path, text in pages.items()}


@pytest.fixture(scope="session")
def corpus_builds(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> dict[str, Build]:
    """One strict build per corpus case that this session runs, built side by side (each is a ~1 s subprocess)."""
    names: list[str] = sorted(
        {
            str(item.callspec.params["name"])
            for item in request.session.items
            if isinstance(item, pytest.Function) and item.originalname == "test_broken_block_aborts_the_strict_build"
        }
    )
    root = tmp_path_factory.mktemp("broken")
    with ThreadPoolExecutor(max_workers=max(2, os.cpu_count() or 2)) as pool:
        builds = pool.map(lambda name: build_fixture(root / name, _files(CORPUS[name])), names)
        return dict(zip(names, builds, strict=True))


def test_corpus_is_large_enough() -> None:
    """R2 asks for a corpus of at least 22 broken blocks."""
    assert len(CORPUS) >= MIN_CASES


@pytest.mark.parametrize("name", sorted(CORPUS))
def test_broken_block_aborts_the_strict_build(name: str, corpus_builds: dict[str, Build]) -> None:
    """The strict build fails and logs exactly the case's `docs/page.md:LINE: message` errors, in order, and no other
    error (a crash in the plugin would log one)."""
    build = corpus_builds[name]
    assert build.returncode != 0, build.output
    assert build.errors() == CORPUS[name]["errors"], build.output
    assert "Traceback" not in build.output
