"""The plugin speaks the book's language: one catalogue of every word it writes for readers (mkdocs_calculators/i18n/),
complete in each language it ships, used by the build's Python and the browser's scripts alike, and open to an
author's own words, checked at their lines of mkdocs.yml."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from mkdocs_calculators.i18n import LANGUAGES, SOURCE, catalogue, placeholders, plural_categories, strings_for
from mkdocs_calculators.i18n.overrides import StringsProblemError, book_strings, untranslated

PLUGIN = Path(__file__).parents[2] / "plugins" / "mkdocs_calculators"
ENGLISH = catalogue(SOURCE)
OTHERS = [language for language in LANGUAGES if language != SOURCE]
# Keys whose words are the same in French as in English (a word both languages write so, or punctuation alone).
SAME_IN_FRENCH = {
    "sentence",
    "quiz.title",
    "progress.label.quiz",
    "progress.kind.quiz",
    "player.pause",
    "quiz.correct",
    "reference.sources",
    "progress.here.one",
    "progress.here.end",
}
# How the scripts and the build look a key up: t("key"), plural("key", ...), s("key"), s.html("key"), ...
_JS_KEY = re.compile(
    r"""\b(?:t|plural|say|NumberError)\(\s*"([a-z_.]+)"|\bsaid\("([a-z_.]+)"|"([a-z_]+\.[a-z_.]+)"\s*[:?]"""
)
_PY_KEY = re.compile(
    r"""\b(?:s|strings|self\._strings|self\.strings|options\.strings|block\.page\.strings)"""
    r"""(?:\.html|\.markup|\.plural)?\(\s*["']([a-z_.]+)["']"""
)


@pytest.mark.parametrize("language", OTHERS)
def test_every_language_translates_every_key_and_keeps_its_placeholders(language: str) -> None:
    table = catalogue(language)
    assert sorted(table) == sorted(ENGLISH), f"{language}.json's keys differ from en.json's"
    categories = plural_categories(language)
    for key, english in ENGLISH.items():
        entry = table[key]
        assert isinstance(entry, dict) == isinstance(english, dict), f"{language}: '{key}' is a plural in one only"
        counted = {"count"} if isinstance(english, dict) else set()
        assert placeholders(english) - counted <= placeholders(entry), f"{language}: '{key}' drops a placeholder"
        assert placeholders(entry) <= placeholders(english), f"{language}: '{key}' has a placeholder English lacks"
        if isinstance(entry, dict):
            assert "other" in entry and categories <= set(entry), f"{language}: '{key}' lacks {categories - set(entry)}"
            assert set(entry) <= categories | {"other"}, f"{language}: '{key}' has forms the language does not use"


def test_french_leaves_no_english_words() -> None:
    french = catalogue("fr")
    same = {key for key, english in ENGLISH.items() if french[key] == english}
    assert same == SAME_IN_FRENCH


def test_english_plural_forms_are_english_ones() -> None:
    for key, entry in ENGLISH.items():
        if isinstance(entry, dict):
            assert set(entry) == {"one", "other"}, key


def _source_keys() -> set[str]:
    keys: set[str] = set()
    for path in PLUGIN.rglob("*.js"):
        for match in _JS_KEY.finditer(path.read_text(encoding="utf-8")):
            keys.add(next(group for group in match.groups() if group))
    for path in PLUGIN.rglob("*.py"):
        keys |= set(_PY_KEY.findall(path.read_text(encoding="utf-8")))
        keys |= set(re.findall(r"""_key=["']([a-z_.]+)["']""", path.read_text(encoding="utf-8")))
    keys |= {f"reference.{name}" for name in ("input", "label", "unit", "default", "allowed", "output", "meaning")}
    keys |= {f"progress.kind.{name}" for name in ("quiz", "exercise")}  # progress-view.js: `progress.kind.${kind}`
    keys |= {f"number.{scale}" for scale in ("million", "billion", "trillion")}  # numbers.py's SCALES
    return {key for key in keys if not key.endswith(".js") and "." in key}


def test_the_scripts_and_the_build_ask_only_for_keys_the_catalogue_has() -> None:
    used = _source_keys()
    assert used - set(ENGLISH) == set()


def test_every_key_of_the_catalogue_is_used() -> None:
    literals: set[str] = set()
    for path in [*PLUGIN.rglob("*.js"), *PLUGIN.rglob("*.py")]:
        literals |= set(re.findall(r"""["']([a-z_]+(?:\.[a-z_]+)*)["']""", path.read_text(encoding="utf-8")))
    assert set(ENGLISH) - literals - _source_keys() == set()


def test_grading_scripts_english_is_the_catalogues() -> None:
    """grading.js says its verdicts and number advice in English, as calckit does, by the catalogue's keys: its
    table of them is en.json's."""
    text = (PLUGIN / "assets" / "grading.js").read_text(encoding="utf-8")
    body = text[text.index("export const ENGLISH = {") : text.index("};", text.index("export const ENGLISH"))]
    table = dict(re.findall(r'^\s*"([a-z_.]+)": (".*"),$', body, re.MULTILINE))
    assert table and {key: json.loads(value) for key, value in table.items()} == {key: ENGLISH[key] for key in table}


def test_plurals_follow_the_languages_rules() -> None:
    french, english, japanese = strings_for("fr"), strings_for("en"), strings_for("ja")
    assert french.plural("quiz.sort.left", 0) == "0 élément reste à classer."  # French counts 0 as one
    assert french.plural("quiz.sort.left", 2) == "2 éléments restent à classer."
    assert (
        english.plural("progress.imported", 1, file="a.json")
        == "Imported your progress on 1 quiz or exercise from a.json."
    )
    assert (
        japanese.plural("exercise.pass", 1) == "1 個のケースすべてに合格しました。よくできました。"
    )  # no plural forms


def test_a_regional_language_takes_its_languages_strings_and_an_unknown_one_english() -> None:
    assert strings_for("fr-CA")("quiz.check") == "Vérifier"
    assert strings_for("pt-BR")("quiz.check") == "Verificar"
    assert strings_for("it")("quiz.check") == "Check"
    assert untranslated(strings_for("fr")) == []
    assert "quiz.check" in untranslated(strings_for("it"))


def test_markup_escapes_the_text_and_keeps_the_callers_html() -> None:
    strings = strings_for("en", {"reference.embed": "<b>Embed</b> with {use}."})
    assert (
        strings.markup("reference.embed", use="<code>use: x</code>")
        == "&lt;b&gt;Embed&lt;/b&gt; with <code>use: x</code>."
    )


CONFIG = """site_name: Livre
theme:
  name: material
  language: fr
plugins:
  - search
  - calculators:
      package: circuits
      strings:
        quiz.check: Valider
        quiz.chek: Valider
        quiz.score: "Note : {right}"
        progress.count: {one: "{count} activité", other: "{count} activités", few: "x"}
        quiz.retry: 3
"""


def test_an_authors_strings_are_checked_at_their_lines(tmp_path: Path) -> None:
    config = tmp_path / "mkdocs.yml"
    config.write_text(CONFIG, encoding="utf-8")
    given = {
        "quiz.check": "Valider",
        "quiz.chek": "Valider",
        "quiz.score": "Note : {right}",
        "progress.count": {"one": "{count} activité", "other": "{count} activités", "few": "x"},
        "quiz.retry": 3,
    }
    with pytest.raises(StringsProblemError) as raised:
        book_strings("fr", given, config, ("plugins", "calculators", "strings"))
    assert raised.value.lines == [
        "mkdocs.yml:11: strings: unknown key 'quiz.chek' (did you mean 'quiz.check'?)",
        "mkdocs.yml:12: strings: 'quiz.score' must keep {total}",
        "mkdocs.yml:13: strings: 'progress.count': a plural's forms are texts for one, other ('other' required); "
        "not ['few']",
        "mkdocs.yml:14: strings: 'quiz.retry' must be text (got 3)",
    ]


def test_an_authors_strings_replace_the_plugins_and_may_come_from_a_file(tmp_path: Path) -> None:
    config = tmp_path / "mkdocs.yml"
    config.write_text("theme:\n  language: it\n", encoding="utf-8")
    (tmp_path / "strings.yml").write_text('quiz.check: Verifica\nquiz.score: "Punteggio: {right} su {total}"\n')
    strings = book_strings("it", "strings.yml", config, ("plugins", "calculators", "strings"))
    assert strings("quiz.check") == "Verifica" and strings("quiz.score", right=1, total=2) == "Punteggio: 1 su 2"
    assert strings("quiz.retry") == "Try again"  # a key the author left out: English, as Material does
    (tmp_path / "strings.yml").write_text("quiz.check: Verifica\nquiz.score: Punteggio\n")
    with pytest.raises(StringsProblemError) as raised:
        book_strings("it", "strings.yml", config, ("plugins", "calculators", "strings"))
    assert raised.value.lines == ["strings.yml:2: strings: 'quiz.score' must keep {right}, {total}"]


def test_the_browser_gets_every_key_in_the_books_language() -> None:
    german = strings_for("de").browser()
    assert german["quiz.retry"] == "Erneut versuchen" and german["player.previous"] == "Zurück"  # Material's word
    strings = strings_for("fr", {"quiz.check": "Valider"})
    browser = strings.browser()
    assert sorted(browser) == sorted(ENGLISH)
    assert browser["quiz.check"] == "Valider" and browser["quiz.retry"] == "Réessayer"
    assert strings.digest() != strings_for("fr").digest()


NUMBER_TEXTS = Path(__file__).with_name("number_texts.json")


def test_numbers_are_written_the_languages_way_alike_at_build_and_in_the_browser() -> None:
    """numbers.py (Babel's symbols, at build) and numbers.js (Intl.NumberFormat's, in the browser) write one table
    of figures as calckit writes them (English) the same way for each language, with the same symbols."""
    import shutil
    import subprocess

    from mkdocs_calculators.i18n.numbers import symbols

    cases = json.loads(NUMBER_TEXTS.read_text(encoding="utf-8"))
    expected = [case["shown"] for case in cases]  # French groups with a narrow no-break space (U+202F), as CLDR does
    assert [strings_for(case["language"]).number(case["text"]) for case in cases] == expected
    node = shutil.which("node")
    assert node, "Node is needed for the browser's half (make puts it on PATH)"
    ran = subprocess.run(
        [node, str(NUMBER_TEXTS.with_name("number_texts.mjs"))],
        input=json.dumps(cases),
        capture_output=True,
        text=True,
        check=True,
    )
    browser = json.loads(ran.stdout)
    assert [row["shown"] for row in browser] == expected
    assert [tuple(row["symbols"]) for row in browser] == [symbols(case["language"]) for case in cases]


def test_a_quizs_tolerance_is_said_in_the_books_language() -> None:
    from types import SimpleNamespace
    from typing import Any, cast

    from calckit.quiz import Tolerance
    from mkdocs_calculators.blocks.quiz.render import _tolerance

    def said(language: str, amount: float, unit: str, relative: bool = False) -> str:
        question = cast(Any, SimpleNamespace(unit=unit, tolerance=Tolerance(amount, relative)))
        return _tolerance(question, strings_for(language))

    assert said("en", 1, "%") == "± 1 percentage point" and said("en", 0.5, "%") == "± 0.5 percentage points"
    assert said("fr", 2, "%") == "± 2\u00a0points de pourcentage"
    assert said("de", 0.5, "TFLOP/s") == "± 0,5 TFLOP/s"
    assert said("fr", 0.025, "A", relative=True) == "± 2,5%"


NUMBER_FIELDS = Path(__file__).with_name("number_fields.json")


def test_a_field_reads_and_writes_numbers_the_languages_way_alike_in_python_and_in_the_browser() -> None:
    """calckit.numbers.read_number and grading.js's readNumber, given a language's symbols, read one table of what a
    reader types into a field the same way (`1.400` is 1400 in German, 1.4 in English and French; `1,500` is 1.5
    where a comma marks decimals, refused in English); numbers.py's field_text and numbers.js's fieldText write a
    field's value with the language's decimal symbol, which reads back as the number it stands for; a quiz's answer
    is read with the same symbols (calckit.grading.read_answer and readAnswer)."""
    import shutil
    import subprocess

    from calckit.grading import read_answer
    from calckit.numbers import NumberError, read_number
    from mkdocs_calculators.i18n.numbers import field_text, symbols

    table = json.loads(NUMBER_FIELDS.read_text(encoding="utf-8"))

    def read(typed: str, language: str, unit: str | None = None) -> float | None:
        try:
            if unit is None:
                return read_number(typed, symbols(language))
            return read_answer(typed, unit, symbols(language))
        except NumberError:
            return None

    reading = [row["value"] for row in table["reading"]]
    writing = [row["shown"] for row in table["writing"]]
    answers = [row["value"] for row in table["answers"]]  # a quiz's answers, in the question's unit
    assert [read(row["answer"], row["language"], row["unit"]) for row in table["answers"]] == answers
    assert [read(row["typed"], row["language"]) for row in table["reading"]] == reading
    assert [field_text(row["text"], row["language"]) for row in table["writing"]] == writing
    for row in table["writing"]:  # what a field shows reads back as what it stands for
        if read(row["text"], "en") is not None:
            assert read(row["shown"], row["language"]) == float(row["text"]), row
    node = shutil.which("node")
    assert node, "Node is needed for the browser's half (make puts it on PATH)"
    ran = subprocess.run(
        [node, str(NUMBER_FIELDS.with_name("number_fields.mjs"))],
        input=json.dumps(table),
        capture_output=True,
        text=True,
        check=True,
    )
    assert json.loads(ran.stdout) == {"reading": reading, "writing": writing, "answers": answers}
