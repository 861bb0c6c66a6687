"""Any book can use the plugin, in the browser too: the second book (tests/second_book, package `circuits`) boots its
own wheels from its memory snapshot, recomputes a calculator as CPython's `circuits` does, and after one visit does
the same offline, with no server at all."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import ExitStack
from pathlib import Path

import pytest
from playwright.sync_api import Browser, BrowserContext, Page, expect

from calckit.book import Book
from tests.browser.calculator_page import expected, texts, wait_for_texts
from tests.browser.conftest import Network, new_context
from tests.browser.test_offline import Served, start_calculators, wait_until_cached
from tests.support import SECOND_BOOK, build_second_book

pytestmark = pytest.mark.browser


@pytest.fixture
def circuits_site(tmp_path: Path) -> Iterator[Served]:
    with ExitStack() as stack:
        served = Served(stack, tmp_path / "site")
        result = build_second_book(served.site)
        assert result.returncode == 0, result.stderr
        yield served


def test_the_second_book_recomputes_through_its_snapshot_and_offline(
    browser: Browser, circuits_site: Served, monkeypatch: pytest.MonkeyPatch, use_book: Callable[[str], Book]
) -> None:
    monkeypatch.syspath_prepend(str(SECOND_BOOK))
    use_book("circuits")  # CPython's answers, from the second book's own package
    network = Network(circuits_site.url)
    context = new_context(browser, network)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(f"{circuits_site.url}/")
    boot = start_calculators(page)
    assert boot["mode"] == "snapshot"
    # The boot by stage (make bench reports it): each stage ends after the one it waits for, and "ready" ends it.
    stages = boot["stages"]
    chain = ["snapshot downloaded", "snapshot decompressed", "memory restored", "wheels installed", "ready"]
    ends = [stages[stage] for stage in chain]
    assert ends == sorted(ends) and stages["ready"] == max(stages.values())
    assert stages["wasm compiled"] <= stages["memory restored"]
    assert stages["wheels downloaded"] <= stages["wheels installed"] <= stages["package imported"]
    # The wasm is asked for as the boot starts, beside the snapshot, not once Pyodide's script has run.
    assert stages["pyodide.asm.wasm asked"] < stages["pyodide.asm.mjs received"]
    assert 0 <= stages["pyodide.asm.wasm received"] <= stages["wasm compiled"]
    recomputes_then_offline(page, context, circuits_site, network)
    assert errors == []
    context.close()
    assert network.foreign == [], f"requests left 127.0.0.1: {network.foreign}"


def recomputes_then_offline(page: Page, context: BrowserContext, served: Served, network: Network) -> None:
    """On the second book's home page, booted: its first calculator recomputes with its own wheels; then, once the
    service worker has cached the runtime, with the network off and the server stopped, the page reloads and its
    second calculator recomputes. Whichever host built the site (MkDocs, or Zensical and `mkdocs-calculators ship`)."""
    page.fill("#calc-1-ohms", "300")
    want = expected("ohms-law", volts=9, ohms=300)
    assert want == {"amps": "0.03 A", "watts": "0.27 W"}  # 9 V / 300 Ω; 9 V × 0.03 A
    wait_for_texts(page, want, "#calc-1")
    wheels = sorted(url.rsplit("/", 1)[1].split("-")[0] for url in network.downloads(".whl"))
    assert wheels == ["calckit", "circuits"]

    wait_until_cached(page, served.site)
    context.set_offline(True)
    served.stop()  # no server: what loads now comes from the service worker's caches
    page.goto(f"{served.url}/")
    assert start_calculators(page)["mode"] == "snapshot"
    page.fill("#calc-2-nanofarads", "10")
    want = expected("rc-filter", kilohms=10, nanofarads=10)
    assert want["cutoff_hz"] == "1,590 Hz"  # 1 / (2π × 10 kΩ × 10 nF) = 1,591.5 Hz, to three figures
    wait_for_texts(page, want, "#calc-2")
    assert texts(page, "#calc-2") == want


def test_an_id_in_another_alphabet_is_a_link_that_opens_its_calculator(
    browser: Browser, circuits_site: Served, monkeypatch: pytest.MonkeyPatch, use_book: Callable[[str], Book]
) -> None:
    """`id: résistance` on the second book's page: a shared link `?calc-résistance.ohms=600#calc-résistance` (sent
    percent-encoded) scrolls to that calculator and sets its resistance; changing a field writes the key back into
    the address, decodable to the same id."""
    monkeypatch.syspath_prepend(str(SECOND_BOOK))
    use_book("circuits")
    context = new_context(browser, Network(circuits_site.url))
    page = context.new_page()
    page.goto(f"{circuits_site.url}/?calc-résistance.ohms=600#calc-résistance")
    assert "%C3%A9" in page.url  # the browser sent and keeps it percent-encoded
    calculator = page.locator("#calc-résistance")
    expect(calculator).to_have_attribute("data-calculator", "ohms-law")
    expect(calculator).to_be_in_viewport()
    expect(page.locator("#calc-résistance-ohms")).to_have_value("600")
    want = expected("ohms-law", volts=12, ohms=600)
    assert want == {"amps": "0.02 A", "watts": "0.24 W"}  # 12 V / 600 Ω; 12 V × 0.02 A
    wait_for_texts(page, want, "#calc-résistance")
    page.fill("#calc-résistance-volts", "6")
    page.wait_for_function("new URL(location.href).searchParams.get('calc-résistance.volts') === '6'")
    context.close()


def test_the_books_own_kind_mounts_its_module(browser: Browser, circuits_site: Served) -> None:
    """The second book's own kind (```resistor, registered in its pyproject.toml) is in the mount table the build
    wrote (kinds.js): on its page entry.js loads its module from the site, which names each band's colour."""
    network = Network(circuits_site.url)
    context = new_context(browser, network)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(f"{circuits_site.url}/")
    resistor = page.locator("[data-resistor]")
    expect(resistor).to_have_attribute("data-mounted", "true")
    expect(resistor.locator(".resistor-band").first).to_have_attribute("title", "brown")
    assert errors == []
    context.close()
