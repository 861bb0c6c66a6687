"""The reader's controls on every calculator (the generated reference page hosts one of each): chip pickers,
fields that follow the workload, several-chip pickers with a filter, result tables, and shareable links."""

from __future__ import annotations

import re
from urllib.parse import parse_qs, urlsplit

import pytest
from playwright.sync_api import Browser, Page, expect

from calckit.api import run
from calculators import CALCULATORS
from tests.browser.calculator_page import (
    BOOT_TIMEOUT,
    expected,
    open_page,
    present,
    reach,
    texts,
    wait_for_texts,
    wait_mounted,
)
from tests.browser.conftest import Network, new_context

pytestmark = pytest.mark.browser

PAGE = "/reference/calculators/"
ROOFLINE, MBU, COMPARE, INFERENCE, ENERGY = (f"#calc-{n}" for n in range(1, 6))


@pytest.fixture
def page(warm_page: Page) -> Page:
    """The controls are not about a first visit: each test is a new tab
    in the module's warm context (conftest's warm_page)."""
    return warm_page


def test_every_calculator_is_on_the_page_with_cpythons_defaults(page: Page, base_url: str) -> None:
    open_page(page, base_url + PAGE)
    names = page.eval_on_selector_all("[data-calculator]", "els => els.map(e => e.dataset.calculator)")
    assert names == list(CALCULATORS)
    for number, name in enumerate(names, start=1):
        assert texts(page, f"#calc-{number}") == expected(name)


class TestChipPicker:
    def test_picking_a_chip_fills_its_figures_and_recomputes(self, page: Page, base_url: str) -> None:
        """TPU v5e: the database's 197 TFLOP/s and 0.819 TB/s appear in the fields, and the ridge is about 240."""
        open_page(page, base_url + PAGE)
        page.select_option(f"{ROOFLINE}-chip", "tpu-v5e")
        wait_for_texts(page, expected("roofline", chip="tpu-v5e"), ROOFLINE)
        assert texts(page, ROOFLINE)["ridge"] == "241 FLOP/byte"
        assert page.input_value(f"{ROOFLINE}-peak_tflops") == "197"
        assert page.input_value(f"{ROOFLINE}-bandwidth_tbs") == "0.819"

    def test_the_chip_list_filters_as_you_type(self, page: Page, base_url: str) -> None:
        """Typing "v5e" in the chip filter leaves Google's TPU v5e, which is picked and computed."""
        open_page(page, base_url + PAGE)
        page.fill(f"{ROOFLINE} [data-input=chip] .calc-filter", "v5e")
        visible = page.eval_on_selector_all(
            f"{ROOFLINE}-chip option", "options => options.filter(o => !o.hidden).map(o => o.value)"
        )
        assert visible == ["tpu-v5e"]
        wait_for_texts(page, expected("roofline", chip="tpu-v5e"), ROOFLINE)
        assert page.input_value(f"{ROOFLINE}-chip") == "tpu-v5e"

    def test_typing_a_figure_switches_the_picker_to_custom(self, page: Page, base_url: str) -> None:
        open_page(page, base_url + PAGE)
        page.fill(f"{ROOFLINE}-bandwidth_tbs", "2")
        wait_for_texts(page, expected("roofline", chip="custom", peak_tflops=989.4, bandwidth_tbs=2), ROOFLINE)
        assert page.input_value(f"{ROOFLINE}-chip") == "custom"

    def test_a_chip_without_a_price_keeps_the_field_and_says_so(self, page: Page, base_url: str) -> None:
        """Serving: the H200's 5.408 USD stays in the price field for the MI300X, which has no price in the database,
        and the cost carries the calculator's note; back on the H200 there is no note."""
        serving = f"#calc-{list(CALCULATORS).index('serving') + 1}"
        open_page(page, base_url + PAGE, serving)
        page.select_option(f"{serving}-chip", "mi300x")
        wait_for_texts(page, expected("serving", chip="mi300x"), serving)
        expect(page.locator(f"{serving}-price_per_hour")).to_have_value("5.408")
        note = page.locator(f"{serving} [data-output=cost_per_million_output] .calc-note")
        outputs = run("serving", {"chip": "mi300x"})["outputs"]
        want = next(output["note"] for output in outputs if output["key"] == "cost_per_million_output")
        assert want.startswith("No published price for the AMD Instinct MI300X")
        expect(note).to_have_text(want)
        page.select_option(f"{serving}-chip", "h200-sxm")
        wait_for_texts(page, expected("serving", chip="h200-sxm"), serving)
        expect(note).to_be_hidden()

    def test_a_precision_the_chip_lacks_is_named_next_to_the_field(self, page: Page, base_url: str) -> None:
        open_page(page, base_url + PAGE)
        page.select_option(f"{MBU}-precision", "fp8")  # A100 has no FP8
        error = page.locator(f"{MBU}-precision-error")
        error.wait_for(state="visible", timeout=BOOT_TIMEOUT)
        want = run("mbu", {"precision": "fp8"})["errors"][0]["hint"]
        assert want == "NVIDIA A100 80GB SXM has no published FP8 figure: choose FP32 or BF16/FP16 or INT8."
        expect(error).to_have_text(want)


class TestWorkloads:
    def test_fields_follow_the_workload(self, page: Page, base_url: str) -> None:
        """A matrix multiply shows M, N and K and hides the raw intensity; the result is CPython's."""
        open_page(page, base_url + PAGE)
        assert page.is_hidden(f"{ROOFLINE}-m")
        page.select_option(f"{ROOFLINE}-workload", "matmul")
        assert page.is_visible(f"{ROOFLINE}-m") and page.is_hidden(f"{ROOFLINE}-intensity")
        page.fill(f"{ROOFLINE}-k", "64")
        wait_for_texts(page, expected("roofline", workload="matmul", k=64), ROOFLINE)
        assert texts(page, ROOFLINE)["bound"] == "Memory-bound"


class TestComparison:
    def test_ticking_a_chip_adds_a_row(self, page: Page, base_url: str) -> None:
        open_page(page, base_url + PAGE)
        reach(page, COMPARE)
        before = page.locator(f"{COMPARE} .calc-table tbody tr").count()
        assert before == 3
        page.fill(f"{COMPARE} .calc-filter", "groqchip")  # not the Groq 3 LPU too
        visible = page.locator(f"{COMPARE} .calc-choice:visible")
        assert visible.count() == 1
        visible.locator("input").check()
        want = present(run("compare", {"chips": ["h100-sxm", "mi300x", "tpu-v5p", "groq-lpu"]})["table"])["rows"]
        page.wait_for_function(
            "n => document.querySelectorAll('#calc-3 .calc-table tbody tr').length === n", arg=4, timeout=BOOT_TIMEOUT
        )
        rows = page.eval_on_selector_all(
            f"{COMPARE} .calc-table tbody tr", "rows => rows.map(r => [...r.cells].map(c => c.textContent))"
        )
        assert rows == want

    def test_unticking_to_one_chip_is_an_error(self, page: Page, base_url: str) -> None:
        open_page(page, base_url + PAGE)
        reach(page, COMPARE)
        page.uncheck(f"{COMPARE} input[value=mi300x]")
        page.uncheck(f"{COMPARE} input[value=tpu-v5p]")
        error = page.locator(f"{COMPARE}-chips-error")
        expect(error).to_have_text("Tick at least 2 chips to compare (you ticked only 1).", timeout=BOOT_TIMEOUT)
        page.uncheck(f"{COMPARE} input[value=h100-sxm]")
        expect(error).to_have_text("Tick at least 2 chips to compare (you ticked none).")


class TestSharing:
    def test_changed_inputs_go_into_the_url_and_a_link_restores_them(self, page: Page, base_url: str) -> None:
        """The URL carries only what the reader changed; opening it elsewhere shows CPython's result for it."""
        open_page(page, base_url + PAGE)
        page.select_option(f"{ENERGY}-chip", "custom")
        page.fill(f"{ENERGY}-power_w", "1000")
        page.fill(f"{ENERGY}-hours", "24")
        want = expected("energy", chip="custom", power_w=1000, hours=24)
        wait_for_texts(page, want, ENERGY)
        page.wait_for_function("() => location.search.includes('calc-5.hours=24')")
        query = parse_qs(urlsplit(page.url).query)
        assert query == {"calc-5.chip": ["custom"], "calc-5.power_w": ["1000"], "calc-5.hours": ["24"]}

        shared = page.context.new_page()
        open_page(shared, page.url, ENERGY)
        wait_for_texts(shared, want, ENERGY)
        assert shared.input_value(f"{ENERGY}-hours") == "24"
        assert texts(shared, ROOFLINE) == expected("roofline")  # the other calculators are untouched
        shared.click(f"{ENERGY} .calc-reset")
        wait_for_texts(shared, expected("energy"), ENERGY)
        shared.wait_for_function("() => !location.search.includes('calc-5.')")


class TestBadLinks:
    def test_an_unknown_chip_falls_back_to_the_default_with_a_note(self, page: Page, base_url: str) -> None:
        """The picker keeps its default, the link's other inputs are used, and a note names what was ignored."""
        page.goto(base_url + PAGE + "?calc-1.chip=nonexistent&calc-1.intensity=50")
        wait_mounted(page, ROOFLINE)
        assert page.input_value(f"{ROOFLINE}-chip") == "h100-sxm"
        note = page.locator(f"{ROOFLINE} .calc-link-note")
        assert note.text_content() == (
            "Part of this link was ignored: Chip “nonexistent” (not in the list). "
            "That field shows the page’s own value."
        )
        wait_for_texts(page, expected("roofline", intensity=50), ROOFLINE)
        assert page.is_hidden(f"{ROOFLINE}-chip-error")

    def test_unknown_chips_in_a_list_are_dropped_and_named(self, page: Page, base_url: str) -> None:
        page.goto(base_url + PAGE + "?calc-3.chips=h100-sxm,nope,mi300x&calc-3.zzz=1")
        wait_mounted(page, COMPARE)
        note = page.locator(f"{COMPARE} .calc-link-note")
        assert note.text_content() == (
            "Part of this link was ignored: Chips “nope” (not in the list); “zzz” (not an input of this calculator). "
            "Those fields show the page’s own value."
        )
        wait_for_texts(page, expected("compare", chips=["h100-sxm", "mi300x"]), COMPARE)


class TestPhone:
    def test_no_horizontal_scroll_at_390px(self, browser: Browser, network: Network, base_url: str) -> None:

        context = new_context(browser, network, viewport={"width": 390, "height": 844}, has_touch=True, is_mobile=True)
        page = context.new_page()
        for path in (PAGE, "/reference/chips/", "/lessons/roofline/"):
            page.goto(base_url + path)
            assert page.evaluate("document.documentElement.scrollWidth") <= 390, path
        context.close()


class TestChipDatabase:
    def test_sorts_by_a_column_with_the_keyboard(self, page: Page, base_url: str) -> None:
        """Sorting by bandwidth puts Cerebras's 21,000 TB/s of on-chip SRAM first, then largest to smallest (by the
        figure itself, not the text with its footnote marks)."""
        from calculators.chips import load_chips

        page.goto(base_url + "/reference/chips/")
        button = page.get_by_role("button", name="Bandwidth (TB/s)")
        button.focus()
        page.keyboard.press("Enter")
        page.keyboard.press("Enter")
        heading = page.locator("th", has=button)
        assert heading.get_attribute("aria-sort") == "descending"
        ids = page.eval_on_selector_all("table[data-sortable] tbody tr", "rows => rows.map(r => r.id)")
        chips = load_chips()
        shown = [chips[row_id.removeprefix("chip-")].bandwidth_tbs.value for row_id in ids]
        assert shown == sorted((chip.bandwidth_tbs.value for chip in chips.values()), reverse=True)
        assert ids[0] == "chip-cerebras-wse-3"

    def test_the_chip_column_sorts_as_text(self, page: Page, base_url: str) -> None:
        """Names sort by their letters, not by the digits inside them ("Cerebras WSE-3" is not number 3)."""
        page.goto(base_url + "/reference/chips/")
        # The column headed "Chip" (the price column's heading mentions a chip-hour).
        page.get_by_role("button", name=re.compile(r"^Chip")).click()
        names = page.eval_on_selector_all(
            "table[data-sortable] tbody th[scope=row]", "cells => cells.map(c => c.firstChild.textContent.trim())"
        )
        assert names == sorted(names, key=str.lower)
        assert names[0].startswith("AMD")

    def test_the_text_order_is_made_at_the_first_text_sort(self, page: Page, base_url: str) -> None:
        """Chromium's first Intl.Collator loads its collation data (30-60 ms of a desktop's main thread): the table
        makes it when a reader first sorts by a text column, not while the page loads, nor for a column of figures."""
        page.add_init_script(
            """(() => {
                const Made = Intl.Collator;
                window.__collators = 0;
                Intl.Collator = function (...args) { window.__collators += 1; return new Made(...args); };
            })()"""
        )
        page.goto(base_url + "/reference/chips/")
        expect(page.locator("table[data-sortable] .calc-sort").first).to_be_visible()
        page.get_by_role("button", name="Bandwidth (TB/s)").click()
        expect(page.locator("th[aria-sort=ascending]")).to_have_count(1)
        assert page.evaluate("window.__collators") == 0
        page.get_by_role("button", name=re.compile(r"^Chip")).click()
        expect(page.locator("th[aria-sort=ascending]", has_text="Chip")).to_have_count(1)
        assert page.evaluate("window.__collators") == 1

    def test_names_in_the_wide_table_break_between_words(self, page: Page, base_url: str) -> None:
        """At 1280 px no chip's name in the database breaks inside a word ("Trilliu|m"). (The table scrolls with the
        page, not in a box of its own: test_reading_details.test_the_chip_database_scrolls_with_the_page.)"""
        page.set_viewport_size({"width": 1280, "height": 900})
        page.goto(base_url + "/reference/chips/")
        broken = page.eval_on_selector_all(
            "table[data-sortable] tbody th[scope=row]",
            """cells => cells.filter(cell => {
                const range = document.createRange();
                const text = cell.firstChild;
                return [...text.textContent.matchAll(/\\S+/g)].some(word => {
                    range.setStart(text, word.index);
                    range.setEnd(text, word.index + word[0].length);
                    return range.getClientRects().length > 1;
                });
            }).map(cell => cell.textContent)""",
        )
        assert broken == []

    def test_marks_side_by_side_stay_apart_and_sources_are_not_footnotes(self, page: Page, base_url: str) -> None:
        """Chapter 27 cites two footnotes in a row ("5.3 TB/s¹⁵,¹⁶", not "¹⁵¹⁶"), and its chip tables' source marks
        read S9, never the same "9" as the page's own footnote 9."""
        page.goto(base_url + "/chapters/27-asics-and-accelerators/")
        separators = page.eval_on_selector_all(
            "sup + sup", "sups => sups.map(s => getComputedStyle(s, '::before').content)"
        )
        assert separators and set(separators) == {'","'}
        footnotes = page.eval_on_selector_all("a.footnote-ref", "links => links.map(a => a.textContent)")
        sources = page.eval_on_selector_all("sup.table-source a", "links => links.map(a => a.textContent)")
        assert sources and all(re.fullmatch(r"S\d+", text) for text in sources)
        assert not set(sources) & set(footnotes)

    def test_every_figure_links_to_a_listed_source(self, page: Page, base_url: str) -> None:
        page.goto(base_url + "/reference/chips/")
        targets = page.eval_on_selector_all(
            "table[data-sortable] sup a", "links => [...new Set(links.map(a => a.hash))]"
        )
        sources = page.eval_on_selector_all("ol.table-sources li", "items => items.map(i => '#' + i.id)")
        assert targets and set(targets) <= set(sources)
