"""A book in French, in the browser: its calculator refuses a value in French next to the field, its quiz grades and
scores in French, its exercise runs and says so in French, its progress page counts in French, and Chromium's
accessibility tree (what a screen reader reads) holds none of the plugin's English."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from contextlib import ExitStack

import pytest
from playwright.sync_api import Browser, FloatRect, Page, expect

from calckit.api import run
from mkdocs_calculators.i18n import strings_for
from tests.browser.calculator_page import reach, wait_mounted
from tests.browser.conftest import Network, new_context
from tests.browser.test_offline import Served
from tests.build.sites import build_fixture
from tests.build.test_book_language import FOLLOWS, PAGE, _book_texts, _english_phrases, _Reader

pytestmark = pytest.mark.browser

BOOT_TIMEOUT = 60_000  # a cold Pyodide boot on a busy 2-core machine (no snapshot in a fixture build)


@pytest.fixture(scope="module")
def french_site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Served]:
    root = tmp_path_factory.mktemp("livre")
    built = build_fixture(
        root,
        {"docs/index.md": PAGE},
        theme={"name": "material", "font": False, "language": "fr"},
        nav=[{"Accueil": "index.md"}, {"Calculateurs": "reference/calculators.md"}],
    )
    assert built.returncode == 0, built.output[-3000:]
    with ExitStack() as stack:
        yield Served(stack, built.site)


def accessible_names(page: Page) -> tuple[str, list[str]]:
    """What Chromium's accessibility tree gives a screen reader: every name and value of the nodes it reads, as one
    text, and the names of its buttons."""
    session = page.context.new_cdp_session(page)
    session.send("Accessibility.enable")
    nodes = [node for node in session.send("Accessibility.getFullAXTree")["nodes"] if not node["ignored"]]
    said = [str(node.get(field, {}).get("value", "")) for node in nodes for field in ("name", "value", "description")]
    buttons = [str(node.get("name", {}).get("value", "")) for node in nodes if node["role"]["value"] == "button"]
    return " ".join(" ".join(said).split()), buttons


def attainable(intensity: float) -> str:
    """The roofline's attainable rate at `intensity`, as the French book writes it."""
    outputs = run("roofline", {"intensity": intensity})["outputs"]
    return strings_for("fr").number(next(out["text"] for out in outputs if out["key"] == "attainable"))


def prose_in_french(page: Page) -> None:
    """The adjustable input and the values that follow calc-1 say their numbers in French, their title and value
    text too, after the form changed (2,5) and after keys moved the input (End, then Home)."""
    adjust = page.locator('data.calc-adjust[data-adjusts="calc-1"]')
    follower = page.locator('data.calc-value[data-follows="calc-1"][data-given="{}"]')
    own = page.locator('data.calc-value[data-follows="calc-1"]:not([data-given="{}"])')
    expect(adjust).to_have_attribute("role", "spinbutton")
    expect(adjust).to_have_attribute(
        "title",
        "Arithmetic intensity\u00a0: faites-le glisser sur le côté, ou utilisez les touches fléchées, pour modifier "
        "«\u00a0Calculateur\u00a0: Roofline\u00a0»",
    )
    expect(adjust).to_have_attribute("aria-valuetext", "2,5 FLOP/byte")
    expect(adjust).to_have_text("2,5 FLOP/byte")
    expect(follower).to_have_text(attainable(2.5))
    assert attainable(2.5) == "8,38 TFLOP/s"
    adjust.focus()
    adjust.press("End")
    expect(adjust).to_have_attribute("aria-valuetext", "1\u202f000\u202f000 FLOP/byte")
    expect(adjust).to_have_text("1\u202f000\u202f000 FLOP/byte")
    adjust.press("Home")
    expect(adjust).to_have_attribute("aria-valuetext", "0,01 FLOP/byte")
    expect(follower).to_have_text(attainable(0.01), timeout=BOOT_TIMEOUT)
    assert "," in attainable(0.01), attainable(0.01)
    expect(own).to_have_text("8,38 TFLOP/s")
    expect(follower).to_have_attribute("title", FOLLOWS)


def fields_in_french(page: Page, url: str) -> None:
    """The form's number fields write numbers as French does (the author's, a chip's, the adjustable's, a shared
    link's) and read them so: `1,500` is 1.5 in French (in English it is refused, 1500 or 1.5), sent to the
    package, and recorded in the link, as English writes it."""
    field = "#calc-1 [data-input={}] input[type=text]".format
    expect(page.locator(field("intensity"))).to_have_value("0,01")  # the adjustable's Home
    expect(page.locator(field("bandwidth_tbs"))).to_have_value("3,35")  # the author's (the H100's)
    page.select_option("#calc-1 [data-input=chip] select", "tpu-v5e")
    expect(page.locator(field("bandwidth_tbs"))).to_have_value("0,819", timeout=BOOT_TIMEOUT)  # the chip's
    page.fill(field("intensity"), "1,500")
    outputs = run("roofline", {"chip": "tpu-v5e", "intensity": 1.5})["outputs"]
    expect(page.locator("#calc-1 .calc-outputs output")).to_have_text(
        [strings_for("fr").number(out["text"]) for out in outputs], timeout=BOOT_TIMEOUT
    )
    expect(page.locator("#calc-1 [data-input=intensity] .calc-error")).to_be_hidden()
    expect(page.locator('data.calc-adjust[data-adjusts="calc-1"]')).to_have_text("1,5 FLOP/byte")
    expect(page).to_have_url(re.compile(r"[?&]calc-1\.intensity=1\.5(&|$)"))
    # A shared link's values, shown the French way, in the form and in the sentence.
    page.goto(f"{url}/?calc-1.intensity=0.5")
    wait_mounted(page, "#calc-1")
    expect(page.locator(field("intensity"))).to_have_value("0,5")
    adjust = page.locator('data.calc-adjust[data-adjusts="calc-1"]')
    expect(adjust).to_have_text("0,5 FLOP/byte", timeout=BOOT_TIMEOUT)
    adjust.focus()  # and a key moves it from there, the sentence, the field and what is said in French
    adjust.press("PageDown")
    expect(adjust).to_have_attribute("aria-valuetext", "0,01 FLOP/byte")
    expect(page.locator(field("intensity"))).to_have_value("0,01")
    expect(page.locator('data.calc-value[data-follows="calc-1"][data-given="{}"]')).to_have_text(
        attainable(0.01), timeout=BOOT_TIMEOUT
    )


def test_a_reader_of_a_french_book_reads_and_hears_french(
    browser: Browser, french_site: Served, use_book: Callable[[str], object]
) -> None:
    use_book("calculators")
    network = Network(french_site.url)
    context = new_context(browser, network)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(f"{french_site.url}/")

    # The calculator: a value below the field's range is refused, in French, beside it (calckit's rule, said again
    # from the catalogue: the browser's Python writes English).
    wait_mounted(page, "#calc-1")
    page.fill("#calc-1 [data-input=intensity] input[type=text]", "-3")
    message = page.locator("#calc-1 [data-input=intensity] .calc-error")
    expect(message).to_have_text("Utilisez 0,01 ou plus (vous avez tapé -3).", timeout=BOOT_TIMEOUT)
    expect(page.locator("#calc-1 .calc-stale-note")).to_have_text(
        "Ces résultats correspondent aux dernières valeurs valides."
    )
    # A decimal comma, as French writes it, is read; the results come back with French numbers, as the build wrote
    # them (numbers.js and numbers.py, on one table).
    page.fill("#calc-1 [data-input=intensity] input[type=text]", "2,5")
    expect(message).to_be_hidden(timeout=BOOT_TIMEOUT)
    shown = [strings_for("fr").number(out["text"]) for out in run("roofline", {"intensity": 2.5})["outputs"]]
    assert any("," in text for text in shown), shown
    expect(page.locator("#calc-1 .calc-outputs output")).to_have_text(shown)
    # What a screen reader says of the chart has the new figures as the summary has them (2,5 FLOP/byte).
    chart = run("roofline", {"intensity": 2.5})["chart"]
    assert chart is not None
    described = str(chart["description"])
    assert re.search(r"\d\.\d", described), described  # calckit's English: the test would show nothing otherwise
    expect(page.locator("#calc-1 .calc-chart-view")).to_have_attribute(
        "aria-label", strings_for("fr").number(described)
    )

    # Its chart's axes write numbers the French way too (Vega's format locale, from the same symbols).
    view = "#calc-1 .calc-chart-view"
    page.locator(view).scroll_into_view_if_needed()
    page.wait_for_function("v => Number(document.querySelector(v).dataset.drawn) > 0", arg=view, timeout=BOOT_TIMEOUT)
    labels = page.eval_on_selector_all(f"{view} svg text", "texts => texts.map(t => t.textContent)")
    assert not [label for label in labels if re.search(r"\d,\d{3}\b|\d\.\d", label)], labels
    assert any(re.fullmatch(r"\d+\u202f\d{3}|\d+,\d+", label) for label in labels), labels  # 1 000, 0,1
    prose_in_french(page)
    fields_in_french(page, french_site.url)

    # The quiz: a wrong answer, graded and scored in French.
    wait_mounted(page, "#quiz-essai")
    question = page.locator("#quiz-essai-q1")
    question.get_by_label("Le calcul").check()
    question.get_by_role("button", name="Vérifier").click()
    expect(question.locator(".quiz-feedback")).to_contain_text("Pas tout à fait.")
    expect(page.locator("#quiz-essai .quiz-score")).to_have_text("Score\u00a0: 0 sur 4")
    expect(question.get_by_role("button", name="Réessayer")).to_be_visible()
    # A numeric answer written the French way: 1,675 is 1.675 (in English, refused: 1675 or 1.675?).
    for _ in range(3):
        page.locator("#quiz-essai").get_by_role("button", name="Suivant").click()
    numeric = page.locator("#quiz-essai-q4")
    numeric.locator("input[type=text]").fill("1,675")
    numeric.get_by_role("button", name="Vérifier").click()
    expect(page.locator("#quiz-essai .quiz-score")).to_have_text("Score\u00a0: 1 sur 4")

    # The exercise: Run on the starter, said in French.
    wait_mounted(page, "#exercise-atteignable")
    page.locator("#exercise-atteignable").get_by_role("button", name="Exécuter").click()
    expect(page.locator("#exercise-atteignable .exercise-result")).to_contain_text(
        "Exécuté sans erreur, sans rien afficher.", timeout=BOOT_TIMEOUT
    )
    expect(page.locator("iframe")).to_have_attribute("title", "bac à sable des exercices")  # the workers' sandbox

    # What a screen reader gets of the page: no phrase of the plugin's English, no English button.
    phrases, words = _english_phrases()
    said, buttons = accessible_names(page)
    for content in _book_texts():
        said = said.replace(content, " ")
    assert sorted(phrase for phrase in phrases if phrase in said) == []
    assert sorted(set(buttons) & words) == []
    # Nor the page as the scripts left it (its text, titles, accessible names and value texts), after the keys moved
    # the adjustable input (fields_in_french).
    reader = _Reader()
    reader.feed(page.content())
    text = " ".join(" ".join(reader.texts).split())
    for content in _book_texts():
        text = text.replace(content, " ")
    assert sorted(phrase for phrase in phrases if phrase in text) == []
    assert sorted(set(reader.controls) & words) == []
    here = page.locator(".progress-here-state")
    expect(here).to_contain_text("quiz «\u00a0Vérifiez-vous\u00a0», 1 juste(s) sur 4")

    # The progress page: the quiz started, the exercise not, counted and said in French.
    page.goto(f"{french_site.url}/progress/")
    expect(page.locator(".progress-summary")).to_have_text(
        re.compile(r"^0 terminés sur 2, [12] de plus commencé\(s\)\. Conservé dans ce navigateur uniquement\.$")
    )
    states = page.locator(".progress-state")
    expect(states).to_have_text(
        [
            re.compile(r"^1 juste\(s\) sur 4 \(2 répondue\(s\) sur 4\)$"),
            re.compile(r"^(Pas commencé|Commencé, pas encore réussi)$"),
        ]
    )
    page.get_by_role("button", name="Réinitialiser toute la progression").click()
    expect(page.locator(".progress-message")).to_have_text("Tous les quiz et exercices du livre ont été réinitialisés.")
    said, buttons = accessible_names(page)
    assert sorted(phrase for phrase in phrases if phrase in said) == []
    assert sorted(set(buttons) & words) == []
    assert errors == []
    context.close()


def test_a_french_reader_who_unticks_too_many_chips_is_told_in_french(
    browser: Browser, french_site: Served, use_book: Callable[[str], object]
) -> None:
    """The chip comparison wants two chips at least: calckit's rule, said again from the catalogue in French (the
    browser's Python writes 'Tick at least 2 chips to compare'), by the field and to a screen reader."""
    use_book("calculators")
    context = new_context(browser, Network(french_site.url))
    page = context.new_page()
    page.goto(f"{french_site.url}/reference/calculators/")
    chips = page.locator(".calc-field:has(input[type=checkbox][value=mi300x])")
    block = page.locator(".calc:has(input[type=checkbox][value=mi300x])")
    block_id = block.get_attribute("id")
    assert block_id, "the comparison's block has an id"
    reach(page, f"#{block_id}")
    chips.locator("input[value=mi300x]").uncheck()
    chips.locator("input[value=tpu-v5p]").uncheck()
    error = page.locator(f"#{block_id}-chips-error")
    expect(error).to_have_text("Cochez au moins 2\u00a0choix dans la liste\u00a0: Chips.", timeout=BOOT_TIMEOUT)
    expect(chips).to_have_attribute("aria-invalid", "true")
    expect(chips).to_have_accessible_description(re.compile("Cochez au moins 2"))
    context.close()


RTL_PAGE = PAGE + "\n```chips\nchips: [h100-sxm, tpu-v5e]\ncolumns: [bf16, bandwidth]\n```\n"


@pytest.fixture(scope="module")
def hebrew_site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Served]:
    """A book in Hebrew: Material lays it out right to left (its `direction` for `he`); the plugin has no Hebrew
    catalogue, so its words are English, and its layout is what is tested."""
    root = tmp_path_factory.mktemp("sefer")
    built = build_fixture(
        root,
        {"docs/index.md": RTL_PAGE},
        theme={"name": "material", "font": False, "language": "he"},
        nav=[{"Home": "index.md"}, {"Calculators": "reference/calculators.md"}],
    )
    assert built.returncode == 0, built.output[-3000:]
    with ExitStack() as stack:
        yield Served(stack, built.site)


def _box(page: Page, selector: str) -> FloatRect:
    box = page.locator(selector).first.bounding_box()
    assert box is not None, selector
    return box


@pytest.mark.parametrize("width", [390, 1280])
def test_a_right_to_left_book_lays_out_its_blocks_from_the_right(
    browser: Browser, hebrew_site: Served, width: int
) -> None:
    network = Network(hebrew_site.url)
    context = new_context(browser, network, viewport={"width": width, "height": 900})
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(f"{hebrew_site.url}/")
    assert page.evaluate("getComputedStyle(document.body).direction") == "rtl"

    # The calculator: its fields run from the right (the first at the right on a wide screen), and results marked
    # stale carry their rule on the right, where a right-to-left reader starts each line.
    wait_mounted(page, "#calc-1")
    fields = page.locator("#calc-1 .calc-field:not([hidden])")
    first, second = fields.nth(0).bounding_box(), fields.nth(1).bounding_box()
    assert first and second
    if width > 600:
        assert first["x"] > second["x"]
    else:
        assert abs((first["x"] + first["width"]) - (second["x"] + second["width"])) < 2  # one column, right-aligned
    page.fill("#calc-1 [data-input=intensity] input[type=text]", "-3")
    expect(page.locator("#calc-1")).to_have_class(re.compile(r"\bcalc-stale\b"), timeout=BOOT_TIMEOUT)
    rule = page.eval_on_selector(
        "#calc-1 .calc-outputs", "e => [getComputedStyle(e).borderRightStyle, getComputedStyle(e).borderLeftStyle]"
    )
    assert rule == ["dashed", "none"]
    # Its chart is drawn inside its box.
    view = "#calc-1 .calc-chart-view"
    page.locator(view).scroll_into_view_if_needed()
    page.wait_for_function("v => Number(document.querySelector(v).dataset.drawn) > 0", arg=view, timeout=BOOT_TIMEOUT)
    chart, drawn = _box(page, view), _box(page, f"{view} svg, {view} canvas")
    assert chart["x"] - 1 <= drawn["x"] and drawn["x"] + drawn["width"] <= chart["x"] + chart["width"] + 1

    # The quiz: each option's button before its words, at the right.
    wait_mounted(page, "#quiz-essai")
    radio, words = _box(page, "#quiz-essai-q1 .quiz-choice input"), _box(page, "#quiz-essai-q1 .quiz-choice-text")
    assert radio["x"] > words["x"]
    # Its sort question by keyboard: the arrow that points ahead, left, reaches the first bucket (at the right) and
    # then the next one, to its left.
    if width > 600:
        page.click("#quiz-essai .quiz-next")
        page.click("#quiz-essai .quiz-next")
        page.locator("#quiz-essai-q3 .quiz-item").first.focus()
        page.keyboard.press("Enter")
        page.keyboard.press("ArrowLeft")
        buckets = page.locator("#quiz-essai-q3 .quiz-bucket .quiz-target")
        expect(buckets.nth(0)).to_be_focused()
        page.keyboard.press("ArrowLeft")
        expect(buckets.nth(1)).to_be_focused()
        first_bucket, second_bucket = buckets.nth(0).bounding_box(), buckets.nth(1).bounding_box()
        assert first_bucket and second_bucket and first_bucket["x"] > second_bucket["x"]
        page.keyboard.press("Escape")
    # The exercise: Run first, at the right.
    wait_mounted(page, "#exercise-atteignable")
    run_button, check = (
        _box(page, "#exercise-atteignable .exercise-run"),
        _box(page, "#exercise-atteignable .exercise-check"),
    )
    assert run_button["x"] > check["x"]
    # The table: its first column stays at the right edge as the rest scrolls under it.
    sticky = page.eval_on_selector(".calc-table tbody th[scope=row]", "e => getComputedStyle(e).right")
    assert sticky == "0px"
    # Nothing runs off the page sideways.
    assert page.evaluate("document.scrollingElement.scrollWidth <= document.scrollingElement.clientWidth + 1")
    assert errors == []
    context.close()


GERMAN_PAGE = """# Ein Buch auf Deutsch

```calculator
use: roofline
```

Bei {input}`#calc-1.intensity | step=10` erreicht der Chip {value}`#calc-1.attainable`.
"""


def test_a_german_field_reads_a_point_between_groups_of_three_as_german_does(
    browser: Browser, tmp_path_factory: pytest.TempPathFactory, use_book: Callable[[str], object]
) -> None:
    """German writes 1.400 for 1400 and 1,5 for 1.5: a field reads them so, hands the package the number, shows its
    own values with a decimal comma, and the sentence follows in German."""
    use_book("calculators")
    built = build_fixture(
        tmp_path_factory.mktemp("buch"),
        {"docs/index.md": GERMAN_PAGE},
        theme={"name": "material", "font": False, "language": "de"},
        nav=[{"Start": "index.md"}, {"Rechner": "reference/calculators.md"}],
    )
    assert built.returncode == 0, built.output[-3000:]
    with ExitStack() as stack:
        site = Served(stack, built.site)
        context = new_context(browser, Network(site.url))
        page = context.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda error: errors.append(str(error)))
        page.goto(f"{site.url}/")
        wait_mounted(page, "#calc-1")
        field = "#calc-1 [data-input={}] input[type=text]".format
        expect(page.locator(field("bandwidth_tbs"))).to_have_value("3,35")
        german = strings_for("de")
        for typed, value, shown in (("1.400", 1400, "1.400 FLOP/byte"), ("1.400,5", 1400.5, "1.400,5 FLOP/byte")):
            page.fill(field("intensity"), typed)
            outputs = [german.number(out["text"]) for out in run("roofline", {"intensity": value})["outputs"]]
            expect(page.locator("#calc-1 .calc-outputs output")).to_have_text(outputs, timeout=BOOT_TIMEOUT)
            expect(page.locator("#calc-1 [data-input=intensity] .calc-error")).to_be_hidden()
            adjust = page.locator('data.calc-adjust[data-adjusts="calc-1"]')
            expect(adjust).to_have_text(shown)
            expect(adjust).to_have_attribute("aria-valuetext", shown)
            expect(page).to_have_url(re.compile(rf"[?&]calc-1\.intensity={value}(&|$)"))
        assert errors == []
        context.close()
