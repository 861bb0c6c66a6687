"""The second book built with Zensical and shipped by `mkdocs-calculators ship` works in the browser as the MkDocs
build does: its calculator boots from the memory snapshot, recomputes as CPython's `circuits` does, and after one
visit does the same offline, with no server at all."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import ExitStack
from pathlib import Path

import pytest
from playwright.sync_api import Browser

from calckit.book import Book
from tests.browser.conftest import Network, new_context
from tests.browser.test_offline import Served, start_calculators
from tests.browser.test_second_book import recomputes_then_offline
from tests.build.test_zensical import copy_of_the_book
from tests.support import SECOND_BOOK, build_with_zensical

pytestmark = pytest.mark.browser


@pytest.fixture
def zensical_site(tmp_path: Path) -> Iterator[Served]:
    root = copy_of_the_book(tmp_path)
    with ExitStack() as stack:
        served = Served(stack, root / "site")
        results = build_with_zensical(root)
        assert [result.returncode for result in results] == [0, 0, 0], "\n".join(r.stderr for r in results)
        yield served


def test_a_zensical_build_recomputes_and_then_offline(
    browser: Browser, zensical_site: Served, monkeypatch: pytest.MonkeyPatch, use_book: Callable[[str], Book]
) -> None:
    monkeypatch.syspath_prepend(str(SECOND_BOOK))
    use_book("circuits")  # CPython's answers, from the second book's own package
    network = Network(zensical_site.url)
    context = new_context(browser, network)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(f"{zensical_site.url}/")
    assert start_calculators(page)["mode"] == "snapshot"
    recomputes_then_offline(page, context, zensical_site, network)
    page.goto(f"{zensical_site.url}/reference/calculators/")  # another page, offline: from the precache
    page.wait_for_selector("#ohms-law")
    assert errors == []
    context.close()
    assert network.foreign == [], f"requests left 127.0.0.1: {network.foreign}"
