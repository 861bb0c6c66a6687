"""```exercise blocks at build: a good one pre-rendered, and each broken one of a corpus stopping the strict build.

The corpus (broken_exercises.yaml) is built as one fixture site with a page per case: every problem is logged as
`docs/PAGE.md:LINE: message`, so each case's errors are the ones that name its page.
"""

from __future__ import annotations

import html
import json
import re
from pathlib import Path
from typing import Any

import pytest
import yaml

import calculators
from calckit import api, book
from calckit.answers import function_key, modules_of
from calckit.exercise import takes_number
from mkdocs_calculators.runtime.site import EDITOR_MODULES
from tests.build.sites import LOCATED, Build, build_fixture

CORPUS_FILE = Path(__file__).with_name("broken_exercises.yaml")
PLACEHOLDER = re.compile(r"\$\{(?P<what>calculators|inputs|numeric|outputs|modules)(?::(?P<name>\w+))?\}")
GOOD = """# Practice

Some text.

```exercise
id: roof
title: The flat and the sloped roof
prompt: >-
  Return the `attainable` throughput, in TFLOP/s.


  A second paragraph with <b>markup</b> that stays text.
function: attainable(peak_tflops, bandwidth_tbs, intensity)
starter: |
  def attainable(peak_tflops, bandwidth_tbs, intensity):
      ...
solution: |
  def attainable(peak_tflops, bandwidth_tbs, intensity):
      return min(peak_tflops, bandwidth_tbs * intensity)
hints:
  - Two roofs.
  - The lower one wins.
check:
  calculator: roofline
  output: attainable
  unit: TFLOP/s
  cases: 5
  fixed:
    - {peak_tflops: 197, bandwidth_tbs: 0.819, intensity: 240}
```
"""


# An exercise checked against a function of the book's package rather than a calculator's output.
BY_FUNCTION = """# Critical batch

```exercise
id: critical
title: The batch that reaches the ridge
prompt: Return the batch.
function: critical_batch(ridge, d, f, weight_bytes, activation_bytes)
starter: |
  def critical_batch(ridge, d, f, weight_bytes, activation_bytes):
      ...
solution: |
  def critical_batch(ridge, d, f, weight_bytes, activation_bytes):
      denominator = 2 * d * f - ridge * activation_bytes * (d + f)
      return ridge * weight_bytes * d * f / denominator if denominator > 0 else None
check:
  function: calculators.matmul.critical_batch
  cases: 4
  vary:
    ridge: {min: 50, max: 700, step: 0.1}
    d: [4096, 8192]
    f: [14336, 28672]
    weight_bytes: [1, 2]
    activation_bytes: [1, 2]
  fixed:
    - {ridge: 295.3, d: 8192, f: 28672, weight_bytes: 2, activation_bytes: 2}
  tolerance: 1e-9 relative
```
"""


def _expand(message: str) -> str:
    def replace(match: re.Match[str]) -> str:
        if match["what"] == "calculators":
            return ", ".join(sorted(calculators.CALCULATORS))
        if match["what"] == "modules":
            return ", ".join(modules_of("calculators"))
        calculator = book.calculator(match["name"])
        if match["what"] == "inputs":
            return ", ".join(calculator.input_keys)
        if match["what"] == "numeric":
            return ", ".join(spec.key for spec in calculator.inputs if takes_number(spec))
        return ", ".join(output.key for output in calculator.outputs if output.format != "text")

    return PLACEHOLDER.sub(replace, message)


def _corpus() -> dict[str, dict[str, Any]]:
    cases = yaml.safe_load(CORPUS_FILE.read_text(encoding="utf-8"))
    corpus = {case["name"]: {**case, "errors": [_expand(error) for error in case["errors"]]} for case in cases}
    assert len(corpus) == len(cases), "two cases share a name"
    for name, case in corpus.items():
        assert case["errors"], f"{name}: a broken block must expect at least one error"
        assert all(error.startswith(f"docs/{name}.md:") for error in case["errors"]), name
        assert all(LOCATED.match(error) for error in case["errors"]), name
    return corpus


CORPUS = _corpus()


@pytest.fixture(scope="module")
def corpus_build(tmp_path_factory: pytest.TempPathFactory) -> Build:
    files = {f"docs/{name}.md": case["page"] for name, case in CORPUS.items()}
    files["docs/index.md"] = "# Home\n"
    return build_fixture(tmp_path_factory.mktemp("broken-exercises"), files)


@pytest.fixture(scope="module")
def good_build(tmp_path_factory: pytest.TempPathFactory) -> Build:
    return build_fixture(
        tmp_path_factory.mktemp("good-exercise"), {"docs/index.md": GOOD, "docs/function.md": BY_FUNCTION}
    )


def test_the_corpus_covers_every_kind_of_mistake() -> None:
    """At least twenty broken blocks, one per rule."""
    assert len(CORPUS) >= 20


def test_the_corpus_stops_the_strict_build_without_a_traceback(corpus_build: Build) -> None:
    """The build fails on the author's mistakes alone: every error is located, and Python never crashes."""
    assert corpus_build.returncode != 0
    assert "Traceback" not in corpus_build.output, corpus_build.output
    assert all(LOCATED.match(error) for error in corpus_build.errors()), corpus_build.output


@pytest.mark.parametrize("name", sorted(CORPUS))
def test_broken_exercise_is_reported_on_its_lines(name: str, corpus_build: Build) -> None:
    """The page's errors are exactly the case's, in order."""
    errors = [error for error in corpus_build.errors() if error.startswith(f"docs/{name}.md:")]
    assert errors == CORPUS[name]["errors"], corpus_build.output


class TestGoodExercise:
    def test_builds_strictly(self, good_build: Build) -> None:
        """A correct exercise passes the strict build with no error or warning."""
        assert good_build.returncode == 0, good_build.output
        assert "WARNING" not in good_build.output

    def test_prompt_starter_and_hints_are_in_the_page(self, good_build: Build) -> None:
        """Readable without scripts: the prompt as paragraphs (text escaped, code spans kept), the starter as code,
        the hints as details; the controls hidden until the script mounts them."""
        page = good_build.html()
        assert "<p>Return the <code>attainable</code> throughput, in TFLOP/s.</p>" in page
        assert "<p>A second paragraph with &lt;b&gt;markup&lt;/b&gt; that stays text.</p>" in page
        starter = "def attainable(peak_tflops, bandwidth_tbs, intensity):\n    ...\n"
        assert f'<pre><code class="language-python">{starter}</code></pre>' in page
        hint = '<details class="exercise-hint" data-search-exclude><summary>Hint 2</summary><p>The lower one wins.</p>'
        assert hint + "</details>" in page
        assert '<div class="exercise-controls" data-search-exclude hidden>' in page
        assert "Write <code>attainable(peak_tflops, bandwidth_tbs, intensity)</code>" in page
        assert "returning the attainable compute, in TFLOP/s." in page
        assert "on 6 cases, within one part in 1,000,000." in page

    def test_the_page_says_how_to_draw_the_cases_and_carries_no_expected_value(self, good_build: Build) -> None:
        """The page carries how a Check draws its cases (the fixed one, then 5 drawn), never an expected value: the
        calculators' worker computes them for each Check, and those are CPython's roofline outputs."""
        page = good_build.html()
        found = re.search(r'data-exercise-data="([^"]*)"', page)
        assert found is not None
        data = json.loads(html.unescape(found[1]))
        assert data["function"] == "attainable"
        assert data["parameters"] == ["peak_tflops", "bandwidth_tbs", "intensity"]
        draw = data["draw"]
        assert draw["fixed"] == [{"peak_tflops": 197.0, "bandwidth_tbs": 0.819, "intensity": 240.0}]
        assert draw["count"] == 5 and draw["calculator"] == "roofline" and draw["output"] == "attainable"
        assert "expected" not in json.dumps(data)
        cases = api.call_json("exercise_cases", json.dumps({**draw, "seed": "any"}))
        for case in json.loads(cases)["cases"]:
            result = api.run("roofline", case["inputs"])
            attainable = next(out["value"] for out in result["outputs"] if out["key"] == "attainable")
            assert case["expected"] == attainable / 1e12
        assert 'data-exercise-key="exercise:docs/index.md#roof"' in page

    def test_a_function_of_the_book_checks_an_exercise(self, good_build: Build) -> None:
        """Checked against `calculators.matmul.critical_batch`: the page does not name it (it carries a key that the
        calculators' worker finds it by), and carries how to draw the cases (whole numbers kept whole) but no
        expected value; the worker calls the function for them."""
        from calculators.matmul import critical_batch

        page = good_build.html("function/index.html")
        assert (
            "Write <code>critical_batch(ridge, d, f, weight_bytes, activation_bytes)</code>, returning a number."
            in page
        )
        assert "compares it with the book's own function on 5 cases" in page
        assert "matmul" not in html.unescape(page)  # the module it is in, named nowhere in the page or its data
        found = re.search(r'data-exercise-data="([^"]*)"', page)
        assert found is not None
        data = json.loads(html.unescape(found[1]))
        draw = data["draw"]
        assert draw["function_key"] == function_key("calculators.matmul.critical_batch") and "calculator" not in draw
        assert draw["whole"] == ["d", "f", "weight_bytes", "activation_bytes"]
        assert "expected" not in json.dumps(data)
        cases = json.loads(api.call_json("exercise_cases", json.dumps({**draw, "seed": "any"})))["cases"]
        assert len(cases) == 5 and cases[0]["expected"] == pytest.approx(309.6512874339642)
        assert all(case["expected"] == critical_batch(**case["inputs"]) for case in cases)

    def test_the_page_loads_the_exercise_script_only_through_entry(self, good_build: Build) -> None:
        """The editor is not on the page as built: entry.js loads exercise.js, which loads the editor."""
        page = good_build.html()
        assert "editor.js" not in page and "exercise.js" not in page and "codemirror" not in page
        assert (good_build.site / "assets/calculators/editor/codemirror-view.js").is_file()

    def test_the_editor_modules_import_only_each_other(self, good_build: Build) -> None:
        """Vendored flat, each CodeMirror module imports the files beside it, so the browser needs no import map."""
        editor = good_build.site / "assets/calculators/editor"
        modules = sorted(editor.glob("*.js"))
        assert len(modules) == len(EDITOR_MODULES)
        imported = re.compile(r"^(?:import|export)\b[^\n]*?\bfrom\s*['\"]([^'\"]+)['\"]", re.MULTILINE)
        for module in modules:
            for target in imported.findall(module.read_text(encoding="utf-8")):
                assert target.startswith("./") and (editor / target).is_file(), (module.name, target)
        entry = (good_build.site / "assets/calculators/editor.js").read_text(encoding="utf-8")
        assert all((editor.parent / target).is_file() for target in imported.findall(entry))
