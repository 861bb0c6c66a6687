"""Charts a reader can read: no label over another at 1280 or 390 px, and every meaningful mark at 3:1 or more
against the chart's background in both colour schemes (WCAG 1.4.11)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import Locator, Page, expect

from calckit.api import run
from calculators import CALCULATORS
from tests.browser.calculator_page import eventually, present, wait_mounted
from tests.browser.conftest import Network, WarmContexts, warm_tab

pytestmark = pytest.mark.browser

CHAPTER = (
    "/chapters/27-asics-and-accelerators/"  # compares the H100 and H200, whose labels once printed over each other
)
REFERENCE = "/reference/calculators/"
ALL_CHIPS = ",".join(next(spec for spec in CALCULATORS["compare"].inputs if spec.key == "chips").choice_values)
DRAW_TIMEOUT = 90_000  # Vega loads in idle time; a cold Pyodide boot too, for a link's inputs

# Every visible text of a chart's SVG that overlaps another one, as pairs of their texts.
OVERLAPS = """svg => {
  const boxes = [...svg.querySelectorAll('text')]
    .filter(t => t.getAttribute('visibility') !== 'hidden' && t.textContent.trim())
    .filter(t => Number(getComputedStyle(t).opacity) > 0 && Number(t.getAttribute('opacity') ?? 1) > 0)
    .map(t => [t.textContent, t.getBoundingClientRect()])
    .filter(([, b]) => b.width > 0);
  const hits = [];
  for (let i = 0; i < boxes.length; i++)
    for (let j = i + 1; j < boxes.length; j++) {
      const [[s, a], [t, b]] = [boxes[i], boxes[j]];
      if (a.left < b.right - 0.5 && b.left < a.right - 0.5 && a.top < b.bottom - 0.5 && b.top < a.bottom - 0.5)
        hits.push([s, t]);
    }
  return hits;
}"""

# Each meaningful mark's contrast with the colour under the chart: lines, rules and points (not grid or axes).
CONTRASTS = """svg => {
  const probe = document.createElement('canvas').getContext('2d');
  const rgba = css => { probe.clearRect(0, 0, 1, 1); probe.fillStyle = '#000'; probe.fillStyle = css;
    probe.fillRect(0, 0, 1, 1); const [r, g, b, a] = probe.getImageData(0, 0, 1, 1).data; return [r, g, b, a / 255]; };
  const lum = ([r, g, b]) => [r, g, b].map(v => (v /= 255) <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4)
    .reduce((sum, v, i) => sum + v * [0.2126, 0.7152, 0.0722][i], 0);
  let node = svg.parentElement, under = 'rgba(0,0,0,0)';
  while (node && rgba(getComputedStyle(node).backgroundColor)[3] === 0) node = node.parentElement;
  under = rgba(node ? getComputedStyle(node).backgroundColor : '#fff');
  const marks = '.mark-line.role-mark path, .mark-rule.role-mark line, .mark-symbol.role-mark path, '
    + '.mark-text.role-mark text';
  return [...svg.querySelectorAll(marks)].map(mark => {
    const style = getComputedStyle(mark);
    const stroked = style.stroke !== 'none' && mark.closest('.mark-symbol') === null;
    const [r, g, b, a] = rgba(stroked ? style.stroke : style.fill);
    let alpha = a * Number(stroked ? style.strokeOpacity : style.fillOpacity);
    for (let el = mark; el && el !== svg; el = el.parentElement) alpha *= Number(getComputedStyle(el).opacity);
    const mixed = [r, g, b].map((v, i) => v * alpha + under[i] * (1 - alpha));
    const [x, y] = [lum(mixed), lum(under)];
    const ratio = (Math.max(x, y) + 0.05) / (Math.min(x, y) + 0.05);
    return [mark.parentElement.getAttribute('class'), ratio];
  });
}"""


def first(page: Page, name: str) -> str:
    """The selector of the page's first calculator called `name`."""
    wait_mounted(page, f".calc[data-calculator={name}]")
    uid: str = page.eval_on_selector(f".calc[data-calculator={name}]", "el => el.id")
    return "#" + uid


def drawn(page: Page, calculator: str, points: int) -> Any:
    """The chart's SVG once it shows `points` points (after the worker's results for a link's inputs, if any). Its
    labels are placed just after (vega.js, declutter): read them with `placed`."""
    page.eval_on_selector(
        f"{calculator} .calc-chart-view", "el => el.scrollIntoView({block: 'center', behavior: 'instant'})"
    )
    page.wait_for_function(
        "([sel, n]) => document.querySelectorAll(`${sel} .calc-chart-view svg .mark-symbol path`).length === n",
        arg=[calculator, points],
        timeout=DRAW_TIMEOUT,
    )
    page.evaluate("() => new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)))")
    return page.locator(f"{calculator} .calc-chart-view svg")


def no_overlaps(page: Page, svg: Any) -> None:
    """No label of the chart over another, once its labels are placed."""
    eventually(page, lambda: svg.evaluate(OVERLAPS), lambda hits: hits == [], "labels over one another")


def visible_labels(svg: Any) -> list[str]:
    labels: list[str] = svg.evaluate(
        "svg => [...svg.querySelectorAll('.mark-text.role-mark text')]"
        ".filter(t => t.getAttribute('visibility') !== 'hidden').map(t => t.textContent)"
    )
    return labels


@pytest.mark.parametrize("width", [1280, 390])
class TestLabels:
    @pytest.fixture
    def page(self, warm_contexts: WarmContexts, network: Network, base_url: str, width: int) -> Iterator[Page]:
        """Reading labels is not about a first visit: a new tab in the module's warm context at this width."""
        with warm_tab(warm_contexts(viewport={"width": width, "height": 900}), network, base_url) as page:
            yield page

    def test_h100_and_h200_labels_do_not_overlap(self, page: Page, base_url: str) -> None:
        page.goto(base_url + CHAPTER)
        svg = drawn(page, first(page, "compare"), 3)
        no_overlaps(page, svg)
        labels = svg.evaluate("svg => [...svg.querySelectorAll('.mark-text.role-mark text')].map(t => t.textContent)")
        assert {"ridge 10 FLOP/byte", "ridge 100 FLOP/byte", "ridge 1000 FLOP/byte"} <= set(labels)
        assert {"H100 SXM", "H200 SXM", "Instinct MI300X"} <= set(visible_labels(svg))

    def test_with_every_chip_ticked_no_label_overlaps_another_before_or_after_a_change(
        self, page: Page, base_url: str
    ) -> None:
        """With every chip ticked, no label overlaps another (so the labels are placed: drawn over one another, many
        would), and most chips keep theirs (the rest keep their tooltip and their table row). The labels' places and
        the plot's layout must not carry over from the previous numbers: after FP8 replaces BF16, and BF16 FP8, every
        label stands where a page opened at that precision puts it (drawn there in one go, or first for its link's
        default inputs and then changed, as the machine's speed decides)."""
        context = page.context
        page.goto(base_url + REFERENCE + "?calc-3.chips=" + ALL_CHIPS)
        svg = drawn(page, "#calc-3", len(ALL_CHIPS.split(",")) - _lacking("bf16"))  # no BF16 peak: no point
        no_overlaps(page, svg)
        assert len(visible_labels(svg)) >= 8
        for precision in ("fp8", "bf16"):
            draws = int(page.get_attribute("#calc-3 .calc-chart-view", "data-drawn") or 0)
            page.select_option("#calc-3-precision", precision)
            page.wait_for_function(
                "n => Number(document.querySelector('#calc-3 .calc-chart-view').dataset.drawn) > n",
                arg=draws,
                timeout=DRAW_TIMEOUT,
            )
            # A draw has finished since the change; the one the change asked for may still follow it (the count read
            # above can predate the placing of the draw before), and a resize places the labels again after a draw:
            # both charts are read until they agree, not sampled once.
            changed = page.locator("#calc-3 .calc-chart-view svg")
            no_overlaps(page, changed)
            fresh = context.new_page()
            fresh.goto(base_url + REFERENCE + f"?calc-3.precision={precision}&calc-3.chips=" + ALL_CHIPS)
            fresh_svg = drawn(fresh, "#calc-3", len(ALL_CHIPS.split(",")) - _lacking(precision))

            def places(changed: Locator = changed, fresh_svg: Locator = fresh_svg) -> tuple[Any, Any]:
                return changed.evaluate(PLACES), fresh_svg.evaluate(PLACES)

            eventually(
                fresh,
                places,
                lambda pair: pair[0] == pair[1],
                f"{precision} labels as a fresh draw places them",
            )
            fresh.close()


# Each point label's text, where it stands and which end of it is at that place, and whether it shows.
PLACES = """svg => [...svg.querySelectorAll('.mark-text.role-mark text')].map(t =>
  [t.textContent, t.getAttribute('transform'), t.getAttribute('text-anchor'), t.getAttribute('visibility') ?? 'shown'])
  .sort()"""


def _lacking(precision: str) -> int:
    """How many of the book's chips have no peak at `precision` (no point on the chart)."""
    from calculators.chips import load_chips

    return sum(1 for chip in load_chips().values() if chip.peak_tflops.get(precision) is None)


@pytest.fixture
def scheme() -> str:
    """Material's colour scheme of a test's tab: "default" (light), unless the test is parametrized with "slate"."""
    return "default"


@pytest.fixture
def page(warm_contexts: WarmContexts, network: Network, base_url: str, scheme: str) -> Iterator[Page]:
    """Reading a chart is not about a first visit: a new tab in the module's warm context in the colour scheme."""
    colours = "dark" if scheme == "slate" else "light"
    with warm_tab(warm_contexts(color_scheme=colours), network, base_url) as page:
        yield page


@pytest.mark.parametrize("scheme", ["default", "slate"])
def test_every_meaningful_mark_has_3_to_1_contrast(page: Page, base_url: str, scheme: str) -> None:
    """The roof, the ridge rule, the workload's point, the comparison's points, lines of equal ridge and labels."""
    for path, calculator, points in (("/lessons/roofline/", "roofline", 1), (CHAPTER, "compare", 3)):
        page.goto(base_url + path)
        expect(page.locator("body")).to_have_attribute("data-md-color-scheme", scheme)
        svg = drawn(page, first(page, calculator), points)
        contrasts = svg.evaluate(CONTRASTS)
        assert contrasts, path
        # Marks 3:1 (WCAG 1.4.11); the labels of points and lines are text, 4.5:1 (WCAG 1.4.3).
        low = [(kind, round(ratio, 2)) for kind, ratio in contrasts if ratio < (4.5 if "mark-text" in kind else 3)]
        assert low == [], (path, scheme, low)


# Where every mark, tick and axis label of a chart stands, in no particular order: a chart changed in place adds the
# ticks of a new range after the old ones, where a fresh draw has them in order.
GEOMETRY = """svg => [svg.getAttribute('width'), svg.getAttribute('height'),
  ...[...svg.querySelectorAll('.role-mark path, .role-mark line, .role-axis-label text, .role-axis-tick line')]
    .map(e => [e.parentElement.getAttribute('class'), e.getAttribute('transform'), e.getAttribute('d'), e.textContent,
      e.getAttribute('visibility')].join(' ')).sort()]"""


def test_a_chart_changed_for_a_new_range_is_laid_out_as_one_drawn_anew(page: Page, base_url: str) -> None:
    """A collective's time axis over a new range of sizes brings tick labels of another width: the plot, changed in
    place, is refitted to them, every mark where a fresh draw of the same numbers puts it (Vega changed in place kept
    the plot's width fitted to the old labels, 2 px off, until vega.js asked it to lay the chart out again)."""
    page.goto(base_url + "/lessons/parallelism/")
    calculator = first(page, "collective")
    view = f"{calculator} .calc-chart-view"
    page.eval_on_selector(view, "el => el.scrollIntoView({block: 'center', behavior: 'instant'})")
    page.wait_for_function("v => Number(document.querySelector(v).dataset.drawn) > 0", arg=view, timeout=DRAW_TIMEOUT)
    for size in ("100000", "0.001"):
        draws = int(page.get_attribute(view, "data-drawn") or 0)
        page.locator(f"{view} svg").evaluate("s => { s.dataset.kept = 'yes'; }")
        page.fill(f"{calculator}-size_mb", size)
        page.wait_for_function("([v, n]) => Number(document.querySelector(v).dataset.drawn) > n", arg=[view, draws])
        svg = page.locator(f"{view} svg")
        assert svg.evaluate("s => s.dataset.kept") == "yes"  # changed in place
        changed = svg.evaluate(GEOMETRY)
        # The other scheme draws the same numbers anew (in other colours: only places are compared).
        draws = int(page.get_attribute(view, "data-drawn") or 0)
        scheme = page.evaluate("document.body.getAttribute('data-md-color-scheme')")
        page.evaluate(
            f"document.body.setAttribute('data-md-color-scheme', '{'default' if scheme == 'slate' else 'slate'}')"
        )
        page.wait_for_function("([v, n]) => Number(document.querySelector(v).dataset.drawn) > n", arg=[view, draws])
        fresh = page.locator(f"{view} svg")
        assert fresh.evaluate("s => s.dataset.kept") is None  # drawn anew
        assert fresh.evaluate(GEOMETRY) == changed, size


def point_x(svg: Any) -> float:
    """Where the workload's point sits across the roofline chart (its symbol's translate x)."""
    transform = svg.evaluate("s => s.querySelector('.mark-symbol.role-mark path').getAttribute('transform')")
    return float(transform.removeprefix("translate(").split(",")[0])


def test_a_recompute_moves_the_point_in_place_and_a_new_scheme_redraws(page: Page, base_url: str) -> None:
    """New numbers of the same chart change it where it stands, a new axis range included (the SVG is kept, and its
    description for screen readers says what CPython says); Material's other colour scheme draws it anew, in that
    scheme's colours."""
    page.goto(base_url + "/lessons/roofline/")
    calculator = first(page, "roofline")
    svg = drawn(page, calculator, 1)
    before = point_x(svg)
    svg.evaluate("s => { s.dataset.first = 'yes'; }")
    for value in ("1000", "0.5"):  # 0.5 FLOP/byte widens the x axis from 1 down to 0.1
        draws = int(page.get_attribute(f"{calculator} .calc-chart-view", "data-drawn") or 0)
        page.fill(f"{calculator}-intensity", value)
        want = run("roofline", {"intensity": value})
        page.wait_for_function(
            "([sel, n]) => Number(document.querySelector(`${sel} .calc-chart-view`).dataset.drawn) > n",
            arg=[calculator, draws],
            timeout=DRAW_TIMEOUT,
        )
        svg = page.locator(f"{calculator} .calc-chart-view svg")
        assert svg.evaluate("s => s.dataset.first") == "yes"  # the same SVG, changed in place
        assert (
            page.get_attribute(f"{calculator} .calc-chart-view", "aria-label") == present(want["chart"])["description"]
        )
        if value == "1000":
            assert point_x(svg) > before + 50  # a decade to the right on the log axis
    ticks = svg.evaluate("s => [...s.querySelectorAll('.role-axis-label text')].map(t => t.textContent)")
    assert "0.1" in ticks  # the new range reached the axis
    light = svg.evaluate("s => getComputedStyle(s.querySelector('.role-axis-label text')).fill")
    page.evaluate("document.body.setAttribute('data-md-color-scheme', 'slate')")
    page.wait_for_function(
        "sel => !document.querySelector(`${sel} .calc-chart-view svg`)?.dataset.first", arg=calculator
    )
    # The new SVG is in the page as Vega starts drawing it: its axis labels follow, in the dark scheme's colour.
    new = page.locator(f"{calculator} .calc-chart-view svg")
    fill = "s => { const text = s.querySelector('.role-axis-label text'); return text && getComputedStyle(text).fill; }"
    eventually(page, lambda: new.evaluate(fill), lambda dark: dark not in (None, light), "the axis labels' colour")
