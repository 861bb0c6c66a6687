"""A book in French (`theme.language: fr`): every word the plugin writes for readers, in its pages, its generated
pages and the strings its scripts look up, is French; none of the catalogue's English is left where a reader looks
(text, accessible names, placeholders, the messages shown without scripts)."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from html.parser import HTMLParser
from pathlib import Path

import pytest

from mkdocs_calculators.i18n import SOURCE, catalogue
from tests.build.sites import Build, build_fixture

PAGE = """# Un livre en français

```calculator
use: roofline
```

Le toit suit le calculateur : à {input}`#calc-1.intensity | step=10`, la puce atteint {value}`#calc-1.attainable`,
et {value}`#calc-1.attainable intensity=2.5` à une intensité plus faible.

```quiz
id: essai
title: Vérifiez-vous
questions:
  - id: toit
    kind: single
    text: Quel toit est le plus bas à une intensité de 1 ?
    choices:
      - text: La bande passante mémoire
        correct: true
      - text: Le calcul
  - id: plusieurs
    kind: multiple
    text: Lesquels sont des toits ?
    choices:
      - text: La mémoire
        correct: true
      - text: Le calcul
        correct: true
      - text: Le clavier
  - id: tri
    kind: sort
    text: Rangez chaque grandeur.
    buckets:
      - id: debit
        text: Débit
      - id: calcul
        text: Calcul
    items:
      - text: To/s
        bucket: debit
      - text: TFLOP/s
        bucket: calcul
  - id: lent
    kind: numeric
    text: "À {intensity} FLOP par octet, combien de TFLOP/s ?"
    inputs: {intensity: 0.5}
    answer: {calculator: roofline, output: attainable}
    unit: TFLOP/s
    tolerance: 0.1%
```

```exercise
id: atteignable
title: Débit atteignable
prompt: Renvoyez le débit atteignable en TFLOP/s.
function: attainable(peak_tflops, bandwidth_tbs, intensity)
starter: |
  def attainable(peak_tflops, bandwidth_tbs, intensity):
      ...
solution: |
  def attainable(peak_tflops, bandwidth_tbs, intensity):
      return min(peak_tflops, bandwidth_tbs * intensity)
check:
  calculator: roofline
  output: attainable
  unit: TFLOP/s
  cases: 3
```
"""

# What a reader reads or hears: text, and the attributes that name or describe (the messages shown without scripts
# too: data-file-text).
_READ = ("aria-label", "placeholder", "title", "aria-valuetext", "data-file-text", "alt")


class _Reader(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.texts: list[str] = []
        self.controls: list[str] = []  # the text of each button and label, whole
        self._skip = 0
        self._control: list[str] | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in ("script", "style"):
            self._skip += 1
        if tag in ("button", "summary", "legend"):
            self._control = []
        self.texts += [value for name, value in attrs if name in _READ and value]

    def handle_endtag(self, tag: str) -> None:
        if tag in ("script", "style"):
            self._skip -= 1
        if tag in ("button", "summary", "legend") and self._control is not None:
            self.controls.append(" ".join("".join(self._control).split()))
            self._control = None

    def handle_data(self, data: str) -> None:
        if not self._skip:
            self.texts.append(data)
            if self._control is not None:
                self._control.append(data)


def _english_phrases() -> tuple[set[str], set[str]]:
    """The catalogue's English that French says otherwise: its phrases of two words or more (between placeholders),
    and its texts of one word (Check, Run, Next)."""
    english, french = catalogue(SOURCE), catalogue("fr")
    phrases, words = set(), set()
    for key, entry in english.items():
        if french[key] == entry:
            continue
        for text in entry.values() if isinstance(entry, dict) else [entry]:
            for part in re.split(r"\{\w+\}", text):
                part = part.strip(" .,:;()“”’")
                if len(re.findall(r"[A-Za-z]+", part)) >= 2:
                    phrases.add(part)
                elif re.fullmatch(r"[A-Z][a-z]+", part):
                    words.add(part)
    return phrases, words


@pytest.fixture(scope="module")
def french(tmp_path_factory: pytest.TempPathFactory) -> Build:
    root = tmp_path_factory.mktemp("livre")
    built = build_fixture(
        root,
        {"docs/index.md": PAGE},
        theme={"name": "material", "font": False, "language": "fr"},
        nav=[{"Accueil": "index.md"}, {"Calculateurs": "reference/calculators.md"}],
    )
    assert built.returncode == 0, built.output[-3000:]
    return built


def _book_texts() -> list[str]:
    """What this book's package writes (its calculators' words, and their results at the defaults): its content, in
    English, which is the book's to translate, not the plugin's. The longest first."""
    from calckit.api import run
    from calckit.book import current
    from mkdocs_calculators.i18n import strings_for

    texts: list[str] = []
    for calculator in current().calculators.values():
        texts += [calculator.title, calculator.description]
        for spec in calculator.inputs:
            texts += [spec.label, spec.help, *(choice.label for choice in spec.choices)]
            texts += [choice.group for choice in spec.choices]
        texts += [text for output in calculator.outputs for text in (output.label, output.help)]
        reply = run(calculator.name, {})
        texts += [reply.get("summary", ""), *(out["note"] for out in reply.get("outputs", []))]
        chart, table = reply.get("chart"), reply.get("table")
        texts += [chart["description"]] if chart else []
        texts += (
            [table["caption"], *table["columns"], *(cell for row in table["rows"] for cell in row)] if table else []
        )
    french = strings_for("fr")
    texts += [french.number(text) for text in texts]  # the figures in them as the French book shows them
    return sorted({" ".join(text.split()) for text in texts if text.strip()}, key=len, reverse=True)


@pytest.mark.parametrize("page", ["index.html", "progress/index.html", "reference/calculators/index.html"])
def test_no_english_of_the_plugins_where_a_reader_looks(
    french: Build, page: str, use_book: Callable[[str], object]
) -> None:
    use_book("calculators")
    reader = _Reader()
    reader.feed(french.html(page))
    text = " ".join(" ".join(reader.texts).split())
    for content in _book_texts():
        text = text.replace(content, " ")
    phrases, words = _english_phrases()
    assert sorted(phrase for phrase in phrases if phrase in text) == []
    assert sorted(set(reader.controls) & words) == []


def test_the_pages_speak_french(french: Build, use_book: Callable[[str], object]) -> None:
    from calckit.api import run
    from mkdocs_calculators.i18n import strings_for

    use_book("calculators")
    html = french.html()
    # The results as French writes numbers (a decimal comma, narrow no-break spaces between groups).
    outputs = re.findall(r'<output for="calc-1-form">([^<]*)</output>', html)
    assert outputs == [strings_for("fr").number(out["text"]) for out in run("roofline", {})["outputs"]]
    assert any("," in text for text in outputs) and not any(re.search(r"\d\.\d", text) for text in outputs)
    for said in ("Vérifier", "Réessayer", "Rétablir les valeurs par défaut", "Exécuter", "Question 1 sur 4"):
        assert said in html, said
    assert "Calculateur\u00a0: Roofline" in html
    # The chart's description, what a screen reader says of it, has its figures as the summary beside it has them.
    described = re.findall(r'<p class="calc-chart-fallback">([^<]*)</p>', html)
    assert described and all(not re.search(r"\d\.\d", text) for text in described), described
    assert any(re.search(r"\d,\d", text) for text in described), described
    assert "Un nombre de 0,01 à 1\u00a0million." in html  # a field's range, as French writes numbers
    assert "Votre progression" in french.html("progress/index.html")
    assert "Tous les calculateurs du livre" in french.html("reference/calculators/index.html")


FOLLOWS = "Suit le calculateur #calc-1\u00a0: modifiez ses valeurs et ce nombre change"


def test_the_prose_values_speak_french(french: Build) -> None:
    html = french.html()
    # The values that follow the calculator: their title from the catalogue, their figures as French writes them.
    values = re.findall(r'<data class="calc-value"[^>]* title="([^"]*)">([^<]*)</data>', html)
    assert values == [(FOLLOWS, "335 TFLOP/s"), (FOLLOWS, "8,38 TFLOP/s")]
    # The adjustable input: the text the build wrote (its title and value text come with the script, in French).
    assert re.findall(r'<data class="calc-adjust"[^>]* data-step="10">([^<]*)</data>', html) == ["100 FLOP/byte"]
    # The form's fields hold the author's numbers as French writes them, which the browser reads back.
    assert 'name="peak_tflops" type="text"' in html and 'value="989,4"' in html and 'value="3,35"' in html


def test_the_scripts_get_the_french_strings(french: Build) -> None:
    info = (french.site / "assets" / "calculators" / "strings.js").read_text(encoding="utf-8")
    values = dict(re.findall(r"^export const (\w+) = (.*);$", info, re.MULTILINE))
    assert json.loads(values["language"]) == "fr"
    strings = json.loads(values["strings"])
    assert sorted(strings) == sorted(catalogue(SOURCE))
    assert strings["status.runtime"] == "Démarrage de Python dans votre navigateur…"


def test_the_pages_of_a_disabled_plugin_speak_french(tmp_path: Path) -> None:
    """With `enabled: false` the generated pages are still there, each saying the plugin is off, in the book's
    language (an author's own words on top)."""
    built = build_fixture(
        tmp_path,
        {"docs/index.md": PAGE},
        theme={"name": "material", "font": False, "language": "fr"},
        nav=[{"Accueil": "index.md"}, {"Calculateurs": "reference/calculators.md"}],
        plugin={"enabled": False, "strings": {"progress.title": "Où j’en suis"}},
    )
    assert built.returncode == 0, built.output[-3000:]
    reference, progress = built.html("reference/calculators/index.html"), built.html("progress/index.html")
    for html, title in ((reference, "Calculateurs"), (progress, "Où j’en suis")):
        assert re.search(rf"<h1[^>]*>{title}", html), title
        assert "Cette construction l’a désactivé (<code>enabled: false</code> sous <code>calculators:</code>" in html
        assert "turned off" not in html


def test_a_mistake_in_the_authors_strings_stops_the_build_at_its_line(tmp_path: Path) -> None:
    built = build_fixture(tmp_path, {"docs/index.md": "# Page\n"}, plugin={"strings": {"quiz.chek": "Valider"}})
    assert built.returncode != 0
    written = (tmp_path / "mkdocs.yml").read_text(encoding="utf-8").splitlines()
    line = next(number for number, text in enumerate(written, 1) if "quiz.chek" in text)
    assert f"mkdocs.yml:{line}: strings: unknown key 'quiz.chek' (did you mean 'quiz.check'?)" in built.output
