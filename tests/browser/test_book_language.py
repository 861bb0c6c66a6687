"""A book in French, in the browser: its calculator refuses a value in French next to the field, its quiz grades and
scores in French, its exercise runs and says so in French, its progress page counts in French, and Chromium's
accessibility tree (what a screen reader reads) holds none of the plugin's English."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from contextlib import ExitStack

import pytest
from playwright.sync_api import Browser, Page, expect

from calckit.api import run
from mkdocs_calculators.i18n.numbers import localized
from tests.browser.calculator_page import wait_mounted
from tests.browser.conftest import Network, new_context
from tests.browser.test_offline import Served
from tests.build.sites import build_fixture
from tests.build.test_book_language import PAGE, _book_texts, _english_phrases

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
    expect(message).to_have_text("Utilisez 0.01 ou plus (vous avez tapé -3).", timeout=BOOT_TIMEOUT)
    expect(page.locator("#calc-1 .calc-stale-note")).to_have_text(
        "Ces résultats correspondent aux dernières valeurs valides."
    )
    # A decimal comma, as French writes it, is read; the results come back with French numbers, as the build wrote
    # them (numbers.js and numbers.py, on one table).
    page.fill("#calc-1 [data-input=intensity] input[type=text]", "2,5")
    expect(message).to_be_hidden(timeout=BOOT_TIMEOUT)
    shown = [localized(out["text"], "fr") for out in run("roofline", {"intensity": 2.5})["outputs"]]
    assert any("," in text for text in shown), shown
    expect(page.locator("#calc-1 .calc-outputs output")).to_have_text(shown)

    # The quiz: a wrong answer, graded and scored in French.
    wait_mounted(page, "#quiz-essai")
    question = page.locator("#quiz-essai-q1")
    question.get_by_label("Le calcul").check()
    question.get_by_role("button", name="Vérifier").click()
    expect(question.locator(".quiz-feedback")).to_contain_text("Pas tout à fait.")
    expect(page.locator("#quiz-essai .quiz-score")).to_have_text("Score\u00a0: 0 sur 3")
    expect(question.get_by_role("button", name="Réessayer")).to_be_visible()

    # The exercise: Run on the starter, said in French.
    wait_mounted(page, "#exercise-atteignable")
    page.locator("#exercise-atteignable").get_by_role("button", name="Exécuter").click()
    expect(page.locator("#exercise-atteignable .exercise-result")).to_contain_text(
        "Exécuté sans erreur, sans rien afficher.", timeout=BOOT_TIMEOUT
    )

    # What a screen reader gets of the page: no phrase of the plugin's English, no English button.
    phrases, words = _english_phrases()
    said, buttons = accessible_names(page)
    for content in _book_texts():
        said = said.replace(content, " ")
    assert sorted(phrase for phrase in phrases if phrase in said) == []
    assert sorted(set(buttons) & words) == []
    here = page.locator(".progress-here-state")
    expect(here).to_contain_text("quiz «\u00a0Vérifiez-vous\u00a0», 0 juste(s) sur 3")

    # The progress page: the quiz started, the exercise not, counted and said in French.
    page.goto(f"{french_site.url}/progress/")
    expect(page.locator(".progress-summary")).to_have_text(
        re.compile(r"^0 terminés sur 2, [12] de plus commencé\(s\)\. Conservé dans ce navigateur uniquement\.$")
    )
    states = page.locator(".progress-state")
    expect(states).to_have_text(
        [
            re.compile(r"^0 juste\(s\) sur 3 \(1 répondue\(s\) sur 3\)$"),
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
