"""Valid blocks build strictly and render right: labelled inputs with units, hints with ranges, CPython's results."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

from calckit import Input, api, book
from tests.build.good_site import AUTHOR_INPUTS
from tests.build.sites import Build, Element, build_fixture, parse_html

ROOFLINE = book.calculator("roofline")
NUMBERS = [spec for spec in ROOFLINE.inputs if spec.kind in ("number", "integer")]
CHOICES = [spec for spec in ROOFLINE.inputs if spec.kind == "choice"]


def _page(site: Build, page: str) -> Element:
    assert site.returncode == 0, site.output
    return parse_html(site.html(page))


@pytest.fixture(scope="module")
def index(good_site: Build) -> Element:
    return _page(good_site, "index.html")


def test_good_site_builds_strictly_without_errors_or_warnings(good_site: Build) -> None:
    """A site whose blocks are all valid (plain, in an admonition, tilde, long fence, inside examples) builds
    strictly and logs neither an error nor a warning."""
    assert good_site.returncode == 0, good_site.output
    assert good_site.errors() == []
    assert "WARNING" not in good_site.output


@pytest.mark.parametrize("spec", ROOFLINE.inputs, ids=lambda spec: spec.key)
def test_every_input_has_a_label_with_its_unit(spec: Input, index: Element) -> None:
    """Each of the calculator's inputs has a <label> naming it, with its unit in parentheses when it has one."""
    label = index.find("section", id="calc-1").find("label", for_=f"calc-1-{spec.key}")
    assert label.text() == (f"{spec.label} ({spec.unit})" if spec.unit else spec.label)


@pytest.mark.parametrize("spec", NUMBERS, ids=lambda spec: spec.key)
def test_every_number_has_a_hint_with_its_allowed_range(spec: Input, index: Element) -> None:
    """A number's hint states its allowed range ('>= 0.01 and <= 1 × 10⁶'), then its help."""
    hint = index.find("section", id="calc-1").find("p", class_="calc-hint", id=f"calc-1-{spec.key}-hint").text()
    assert spec.range_text
    assert hint == (f"{spec.range_text}. {spec.help}" if spec.help else f"{spec.range_text}.")


@pytest.mark.parametrize("spec", CHOICES, ids=lambda spec: spec.key)
def test_every_choice_offers_exactly_its_allowed_values(spec: Input, index: Element) -> None:
    """A choice's <select> offers exactly the values the calculator accepts, in order, and its hint is its help."""
    calculator = index.find("section", id="calc-1")
    options = calculator.find("select", id=f"calc-1-{spec.key}").find_all("option")
    assert tuple(option.attrs["value"] for option in options) == spec.choice_values
    assert calculator.find("p", class_="calc-hint", id=f"calc-1-{spec.key}-hint").text() == spec.help


@pytest.mark.parametrize(("key", "value"), AUTHOR_INPUTS.items())
def test_fields_hold_the_authors_values(key: str, value: float, index: Element) -> None:
    """The field of each input the author set holds the author's value, written as the author wrote it."""
    field = index.find("section", id="calc-1").find("input", id=f"calc-1-{key}")
    assert (field.attrs["name"], field.attrs["value"]) == (key, str(value))


def test_figures_without_a_chip_select_custom_figures(index: Element) -> None:
    """An author who gives a peak and a bandwidth but no chip gets "custom" in the chip picker (their figures are
    used), while a block without figures keeps the default chip."""
    selected = [
        [option.attrs["value"] for option in index.find("select", id=f"{uid}-chip").find_all("option", selected="")]
        for uid in ("calc-1", "calc-2")
    ]
    assert selected == [["custom"], [ROOFLINE.defaults["chip"]]]


@pytest.mark.parametrize(
    ("uid", "inputs"),
    [
        ("calc-1", AUTHOR_INPUTS),  # the author's numbers
        ("calc-2", {}),  # the calculator's defaults
    ],
)
def test_results_are_cpythons_for_the_authors_inputs(uid: str, inputs: dict[str, float], index: Element) -> None:
    """The results in the HTML, before any script runs, are the text of `calckit.api.run` for the block's inputs."""
    result = api.run("roofline", inputs)
    assert result["ok"], result
    calculator = index.find("section", id=uid)
    shown = [
        (output.attrs["data-output"], output.find("output").text())
        for output in calculator.find_all("div", class_="calc-output")
    ]
    assert shown == [(output["key"], output["text"]) for output in result["outputs"]]
    assert calculator.find("p", class_="calc-summary").text() == result["summary"]


@pytest.mark.parametrize(
    ("uid", "field", "meant", "misread"), [("calc-1", "9.5", 9.5, 95), ("calc-2", "1400", 1400, 1.4)]
)
def test_a_number_written_with_a_comma_is_read_as_the_forms_read_it(
    uid: str, field: str, meant: float, misread: float, good_site: Build
) -> None:
    """`intensity: 9,5` in a block is 9.5 (a decimal comma) and `intensity: 1,400.0` is 1400 (thousands; "1,400"
    alone could be either, and is refused), as a form reads them: the field holds the number meant, and the results
    are CPython's for it, which differ from those for the number a comma dropped or misplaced would give."""
    calculator = _page(good_site, "numbers/index.html").find("section", id=uid)
    assert calculator.find("input", id=f"{uid}-intensity").attrs["value"] == field
    shown = [output.find("output").text() for output in calculator.find_all("div", class_="calc-output")]
    results = {number: api.run("roofline", {"intensity": number}) for number in (meant, misread)}
    assert all(result["ok"] for result in results.values()), results
    assert shown == [output["text"] for output in results[meant]["outputs"]]
    assert shown != [output["text"] for output in results[misread]["outputs"]]


def test_two_blocks_on_a_page_get_distinct_ids(index: Element) -> None:
    """Blocks are numbered calc-1, calc-2 in page order, and no id on the page is used twice."""
    assert [element.attrs["id"] for element in index.find_all("section", class_="calc")] == ["calc-1", "calc-2"]
    ids = Counter(element.attrs["id"] for element in index.iter() if "id" in element.attrs)
    assert [name for name, count in ids.items() if count > 1] == []


def test_a_calculator_fence_inside_a_markdown_example_stays_code(good_site: Build) -> None:
    """In a guide, a ```calculator fence inside a ````markdown example is shown as code: no calculator, no error."""
    guide = _page(good_site, "guide/index.html")
    assert guide.find_all(class_="calc") == []
    assert guide.find_all(class_="calc-broken") == []
    code = [element.text() for element in guide.find_all("code")]
    assert "````calculator\nuse: not-a-calculator\n````\n" in code
    assert "```calculator\nuse: roofline\nintensity: -1\n```\n" in code


def test_admonition_tilde_and_long_fences_render_calculators(good_site: Build) -> None:
    """An indented fence in an admonition, a ~~~ fence and a ```` fence each become a calculator with its inputs;
    the first stays inside its admonition."""
    forms = _page(good_site, "forms/index.html")
    calculators_on_page = forms.find_all("section", class_="calc")
    assert [element.attrs["id"] for element in calculators_on_page] == ["calc-1", "calc-2", "calc-3"]
    values = [element.find("input", name="intensity").attrs["value"] for element in calculators_on_page]
    assert values == ["20", "30", "40"]
    assert any({"admonition", "note"} <= parent.classes() for parent in calculators_on_page[0].ancestors())


def test_disabled_plugin_leaves_the_fence_as_a_code_block(tmp_path: Path) -> None:
    """With `enabled: false` a ```calculator fence is an ordinary code block (even a broken one: nothing checks it)
    and the site gets no calculator runtime."""
    build = build_fixture(
        tmp_path,
        {"docs/index.md": "# Off\n\n```calculator\nuse: not-a-calculator\n```\n"},
        plugin={"enabled": False},
    )
    page = _page(build, "index.html")
    assert page.find_all(class_="calc") == []
    assert page.find_all(class_="calc-broken") == []
    assert [element.text() for element in page.find_all("code")] == ["use: not-a-calculator\n"]
    assert not (build.site / "assets/calculators").exists()
