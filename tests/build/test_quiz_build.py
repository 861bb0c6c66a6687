"""Quizzes at build time: broken quizzes stop the strict build at the right line; good ones carry their answer key.

Each broken quiz is checked in this process, its pages rendered as the strict build's page hook renders them
(sites.render_fixture), and all of them are built strictly once, as one site, by `tests.support.build_site`, as a
contributor builds; so are the good quizzes.
"""

from __future__ import annotations

import hashlib
import json
import re
from html import unescape
from pathlib import Path

import pytest
import yaml

from calckit.api import run
from calckit.quiz import grading_data
from calckit.quiz_checks import read_quiz
from calculators import CALCULATORS
from mkdocs_calculators.runtime.site import LIVE_MARK
from tests.build.sites import render_fixture
from tests.support import NODE_MODULES, build_site

FRONT_MATTER = "---\ntitle: A quiz\n---\n"
FENCE_LINE = 6  # the ```quiz line of `page()`, counting the front matter
ROOFLINE = CALCULATORS["roofline"]


def page(body: str, *, fence: str = "```") -> str:
    """docs/index.md with front matter, a heading, and a quiz fence whose body starts on line FENCE_LINE + 1."""
    return f"{FRONT_MATTER}# A quiz\n\n{fence}quiz\n{body.strip(chr(10))}\n{fence}\n"


def build(root: Path, files: dict[str, str]) -> tuple[int, list[str], Path]:
    """Write the files and a minimal mkdocs.yml under `root`, build strictly; the exit code, error lines, site."""
    config = {
        "site_name": "Quiz fixture",
        "plugins": [{"calculators": {"node_modules": str(NODE_MODULES), "snapshot": False}}],
    }
    (root / "mkdocs.yml").write_text(yaml.safe_dump(config), encoding="utf-8")
    for name, text in files.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text, encoding="utf-8")
    result = build_site(root / "mkdocs.yml", root / "site")
    errors = re.findall(r"^ERROR\s+-\s+(.*?)\s*$", result.stderr, re.MULTILINE)
    return result.returncode, errors, root / "site"


SINGLE = """
id: basics
questions:
  - id: ridge
    kind: single
    text: What is the ridge?
    choices:
      - text: Where the roofs meet
        correct: true
      - text: The peak
"""

SORT = """
id: kernels
questions:
  - id: sort
    kind: sort
    text: Sort them.
    buckets:
      - {id: compute, text: Compute-bound}
      - {id: memory, text: Memory-bound}
    items:
      - {text: Big matmul, bucket: compute}
      - {text: Vector add, bucket: memory}
"""

NUMERIC = """
id: numbers
questions:
  - id: attainable
    kind: numeric
    text: "{intensity} FLOP/byte on the default chip: how many TFLOP/s?"
    inputs: {intensity: 60}
    answer: {calculator: roofline, output: attainable}
    unit: TFLOP/s
    tolerance: 2%
"""

INPUTS = ", ".join(ROOFLINE.input_keys)
OUTPUTS = ", ".join(output.key for output in ROOFLINE.outputs if output.format != "text")

# (name, body of the fence, body line of the mistake (1 = first line inside the fence; 0 = the fence), message)
BROKEN = [
    (
        "no correct choice",
        SINGLE.replace("        correct: true\n", ""),
        6,
        "question 'ridge': no choice is marked correct (mark one with 'correct: true')",
    ),
    (
        "duplicate question ids",
        SINGLE
        + "  - id: ridge\n    kind: single\n    text: Again?\n    choices: [{text: a, correct: true}, {text: b}]\n",
        10,
        "duplicate question id 'ridge' (question 1 has it too; ids must differ within a quiz)",
    ),
    ("empty text", SINGLE.replace("What is the ridge?", "''"), 5, "question 'ridge': 'text' is empty"),
    (
        "item without a bucket",
        SORT.replace("{text: Vector add, bucket: memory}", "{text: Vector add}"),
        11,
        "question 'sort': item 2 has no 'bucket' (expected one of: compute, memory)",
    ),
    (
        "item with an unknown bucket",
        SORT.replace("bucket: memory}", "bucket: cpu}"),
        11,
        "question 'sort': item 2: unknown bucket 'cpu' (expected one of: compute, memory)",
    ),
    (
        "numeric without a tolerance",
        NUMERIC.replace("    tolerance: 2%\n", ""),
        3,
        "question 'attainable' has no 'tolerance' (give an absolute one, such as 'tolerance: 0.5', or a relative "
        "one, such as 'tolerance: 2%')",
    ),
    (
        "a choice that is more than a line",
        SINGLE.replace(
            "      - text: The peak\n", "      - text: |\n          The peak\n\n          - a list under it\n"
        ),
        9,
        "question 'ridge', choice 2 must be one line of Markdown (a code block, a list or a second paragraph goes in "
        "the question's text or its explanation)",
    ),
    (
        "an input inside a formula",
        NUMERIC.replace('"{intensity} FLOP/byte', '"$I = {intensity}$ FLOP/byte'),
        5,
        "question 'attainable': {intensity} is inside a formula, which is typeset at build: write it outside the $...$",
    ),
    (
        "an input inside a link's address",
        NUMERIC.replace('"{intensity} FLOP/byte', '"[{intensity}](https://example.org/{intensity}) FLOP/byte'),
        5,
        "question 'attainable': {intensity} is inside a link's address, where new numbers cannot go",
    ),
    (
        "unknown calculator",
        NUMERIC.replace("calculator: roofline", "calculator: rooftop"),
        7,
        f"question 'attainable': unknown calculator 'rooftop' (expected one of: {', '.join(sorted(CALCULATORS))})",
    ),
    (
        "unknown input",
        NUMERIC.replace("inputs: {intensity: 60}", "inputs:\n      intensity: 60\n      tokens_per_s: 3"),
        8,
        f"question 'attainable': calculator 'roofline': unknown input 'tokens_per_s' (expected one of: {INPUTS})",
    ),
    (
        "input out of range",
        NUMERIC.replace("{intensity: 60}", "{intensity: -3}"),
        6,
        "question 'attainable': calculator 'roofline': 'intensity' must be >= 0.01 (got -3)",
    ),
    (
        "unknown output",
        NUMERIC.replace("output: attainable", "output: speed"),
        7,
        f"question 'attainable': calculator 'roofline' has no output 'speed' (expected one of: {OUTPUTS})",
    ),
    (
        "unknown field",
        SINGLE.replace("    kind: single\n", "    kind: single\n    hint: think\n"),
        5,
        "question 'ridge': unknown field 'hint' (expected one of: id, kind, text, explanation, choices, shuffle)",
    ),
    (
        "unknown kind",
        SINGLE.replace("kind: single", "kind: essay"),
        4,
        "question 'ridge': unknown kind 'essay' (expected one of: single, multiple, sort, numeric)",
    ),
    (
        "no quiz id",
        SINGLE.replace("id: basics\n", ""),
        0,
        "quiz has no 'id' (give it one, such as 'id: roofline-basics': progress is saved under it)",
    ),
    (
        "a key twice",
        SINGLE.replace("    text: What is the ridge?\n", "    text: What is the ridge?\n    text: Again?\n"),
        6,
        "quiz has the key 'text' twice here (YAML would keep only the last)",
    ),
    (
        "not YAML",
        SINGLE.replace("text: The peak", 'text: "The peak'),
        9,
        "quiz block is not valid YAML: while scanning a quoted scalar, found unexpected end of stream (a quote "
        "opened here is never closed)",
    ),
]


# Sites with one broken quiz each: name -> (files, the errors its strict build logs). Each is checked in this process
# as the build renders its pages (sites.render_fixture); all of them, one folder each, are built strictly once.
BROKEN_SITES: dict[str, tuple[dict[str, str], list[str]]] = {
    name: ({"docs/index.md": page(body)}, [f"docs/index.md:{FENCE_LINE + line}: {message}"])
    for name, body, line, message in BROKEN
}
UNCLOSED = page(SINGLE, fence="````").rstrip("\n").removesuffix("````")
BROKEN_SITES["an unclosed fence"] = (
    {"docs/index.md": UNCLOSED},
    [
        f"docs/index.md:{FENCE_LINE}: the ````quiz block opened at line {FENCE_LINE} is not closed: add a ```` line "
        "after it"
    ],
)
# Progress is saved by quiz id, so a page's quizzes need different ones: the second is reported.
TWO_QUIZZES = page(SINGLE) + "\n```quiz\n" + SINGLE.strip("\n") + "\n```\n"
BROKEN_SITES["two quizzes with one id"] = (
    {"docs/index.md": TWO_QUIZZES},
    [
        f"docs/index.md:{TWO_QUIZZES.split(chr(10)).index('```quiz', FENCE_LINE) + 2}: duplicate quiz id 'basics' on "
        "this page (each quiz saves progress under its id)"
    ],
)
# A quiz kept in `lessons/check.yml` beside `lessons/page.md`: errors point into the YAML file.
BROKEN_SITES["a referenced file"] = (
    {
        "docs/index.md": "# Home\n",
        "docs/lessons/page.md": page("file: check.yml"),
        "docs/lessons/check.yml": SORT.lstrip("\n").replace("bucket: memory}", "bucket: cpu}"),
    },
    ["docs/lessons/check.yml:11: question 'sort': item 2: unknown bucket 'cpu' (expected one of: compute, memory)"],
)
BROKEN_SITES["a missing file"] = (
    {"docs/index.md": page("file: quizzes/nowhere.yml")},
    [
        f"docs/index.md:{FENCE_LINE + 1}: quiz file 'quizzes/nowhere.yml' not found (looked for "
        "docs/quizzes/nowhere.yml)"
    ],
)
BROKEN_SITES["a file and more"] = (
    {"docs/index.md": page("file: quiz.yml\nid: basics")},
    [
        f"docs/index.md:{FENCE_LINE + 2}: a quiz block that names a 'file' must hold nothing else (the quiz goes in "
        "the file; got also: id)"
    ],
)
BROKEN_SITES["a path out of the docs"] = (
    {"docs/index.md": page("file: ../secrets.yml")},
    [
        f"docs/index.md:{FENCE_LINE + 1}: quiz 'file' must name a YAML file beside the page, such as "
        "'file: quiz.yml' (got '../secrets.yml')"
    ],
)


@pytest.mark.parametrize("name", BROKEN_SITES)
def test_a_broken_quiz_is_reported_at_its_line(tmp_path: Path, name: str) -> None:
    """One mistake, one error: `docs/index.md:LINE: message` (or the quiz file's), with lines counted from the top of
    the file, as the strict build's page hook finds it."""
    files, errors = BROKEN_SITES[name]
    assert render_fixture(tmp_path, files) == errors


def test_the_broken_quizzes_as_one_site_stop_the_build(tmp_path: Path) -> None:
    """Every broken quiz site as a folder of one site (docs/NAME/...), built strictly once: the build fails and logs
    exactly each site's errors, its paths under its folder, in the build's page order (the folders sorted)."""
    folders = {name: re.sub(r"\W+", "-", name) for name in BROKEN_SITES}
    files = {
        path.replace("docs/", f"docs/{folders[name]}/", 1): text
        for name, (site, _) in BROKEN_SITES.items()
        for path, text in site.items()
    }
    returncode, errors, _ = build(tmp_path, files)
    assert returncode != 0
    assert errors == [
        error.replace("docs/", f"docs/{folders[name]}/")
        for name in sorted(BROKEN_SITES, key=folders.__getitem__)
        for error in BROKEN_SITES[name][1]
    ]


EVIL = "<script>alert(1)</script> <img src=x onerror=alert(2)>"

HOSTILE = f"""
id: hostile
title: "{EVIL}"
intro: "{EVIL}"
questions:
  - id: q
    kind: single
    text: "{EVIL}"
    explanation: "{EVIL}"
    choices:
      - text: "{EVIL}"
        correct: true
        explanation: "{EVIL}"
      - text: plain
  - id: s
    kind: sort
    text: "{EVIL}"
    buckets:
      - {{id: a, text: "{EVIL}"}}
      - {{id: b, text: B}}
    items:
      - {{text: "{EVIL}", bucket: a, explanation: "{EVIL}"}}
"""


MARKDOWN = r"""
id: written
intro: "Two questions on **the roofline**; see [the lesson](other.md#ridge)."
questions:
  - id: ridge
    kind: single
    text: |
      Which call is *memory-bound*, where $I < I^*$?

      ```python
      y = x + 1
      ```
    explanation: "The ridge is at $I^* = P / B$; `x + 1` reads [more](javascript:alert(3)) than it computes."
    choices:
      - text: "`vector_add(x, y)`"
        correct: true
        explanation: "One FLOP per **12** bytes."
      - text: "`matmul(a, b)`"
  - id: speed
    kind: numeric
    text: "At `{intensity}` FLOP/byte and {intensity} FLOP/byte, how many *TFLOP/s*?"
    inputs: {intensity: 60}
    answer: {calculator: roofline, output: attainable}
    unit: TFLOP/s
    tolerance: 2%
"""


@pytest.fixture(scope="module")
def good_site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """One strict build of good quizzes: inline, from a file beside the page, and one full of HTML."""
    root = tmp_path_factory.mktemp("quiz-site")
    files = {
        "docs/index.md": page(SINGLE) + "\n```quiz\nfile: numbers.yml\n```\n\n```quiz\n" + HOSTILE.strip() + "\n```\n",
        "docs/numbers.yml": NUMERIC.lstrip("\n"),
        "docs/sort.md": page(SORT),
        "docs/markdown.md": page(MARKDOWN, fence="````"),
        "docs/other.md": "# Other\n\n## The ridge {#ridge}\n",
    }
    returncode, errors, site = build(root, files)
    assert (returncode, errors) == (0, [])
    return site


def quiz_elements(html: str) -> list[str]:
    """Each quiz's opening tag, as the page has it."""
    return re.findall(r'<div class="quiz" [^>]*>', html)


def attribute(tag: str, name: str) -> str:
    match = re.search(rf'{name}="([^"]*)"', tag)
    assert match, f"no {name} in {tag[:80]}"
    return unescape(match[1])


class TestGoodQuizzes:
    def test_answer_keys_are_the_packages(self, good_site: Path) -> None:
        """Each quiz's data attribute holds, as JSON, what `grading_data` computes for the author's YAML, less the
        explanations (the page holds them as HTML) and a numeric question's text (the page shows it, with its values
        in place)."""
        html = (good_site / "index.html").read_text(encoding="utf-8")
        inline, from_file, _ = quiz_elements(html)
        single = dict(grading_data(read_quiz(yaml.safe_load(SINGLE), CALCULATORS))["questions"][0])
        assert json.loads(attribute(inline, "data-quiz-data")) == {
            "id": "basics",
            "questions": [{"id": "ridge", "kind": "single", "correct": [0], "choices": 2, "shuffle": True}],
        }
        assert single["correct"] == [0] and single["choices"] == ["", ""]  # the package's key: two, unexplained
        assert attribute(inline, "data-quiz-key") == "quiz:docs/index.md#basics"
        numeric = json.loads(attribute(from_file, "data-quiz-data"))["questions"][0]
        expected = grading_data(read_quiz(yaml.safe_load(NUMERIC), CALCULATORS))["questions"][0]
        assert numeric == {
            **{key: value for key, value in expected.items() if key not in ("explanation", "text")},
            "values": ["60"],
        }
        outputs = {output["key"]: output["value"] for output in run("roofline", {"intensity": 60})["outputs"]}
        assert numeric["answer"] == outputs["attainable"] / 1e12
        # The question shows its value where new numbers will put theirs.
        assert '<span class="quiz-text"><span class="quiz-value">60</span> FLOP/byte on the default chip' in html

    def test_a_quiz_keeps_its_version_while_its_answer_key_stays(self, good_site: Path) -> None:
        """Saved progress is kept across builds as long as the answer key (with its explanations) is the same: the
        version is the key's digest, whatever the page's HTML around it."""
        html = (good_site / "index.html").read_text(encoding="utf-8")
        inline = quiz_elements(html)[0]
        key = grading_data(read_quiz(yaml.safe_load(SINGLE), CALCULATORS))
        digest = hashlib.sha256(json.dumps(key, separators=(",", ":"), sort_keys=True).encode()).hexdigest()[:12]
        assert attribute(inline, "data-quiz-version") == digest

    def test_questions_are_readable_before_any_script(self, good_site: Path) -> None:
        text = (good_site / "sort/index.html").read_text(encoding="utf-8")
        assert "Question 1 of 1" in text and ">Big matmul</button>" in text and ">Memory-bound</button>" in text

    def test_the_answer_key_is_not_in_a_script(self, good_site: Path) -> None:
        """Material's instant navigation re-runs a page's scripts without their type: data goes in attributes."""
        html = (good_site / "index.html").read_text(encoding="utf-8")
        start = html.index('<div class="quiz"')
        assert "<script" not in html[start : html.rindex("</form>")]

    def test_the_head_says_scripts_will_run_before_any_stylesheet(self, good_site: Path) -> None:
        """An inline script first in the head marks <html> live, so that a waiting quiz's styles apply from the
        first style pass (entry.js runs only after the body is parsed)."""
        html = (good_site / "index.html").read_text(encoding="utf-8")
        head = html[: html.index("</head>")]
        assert head.count(LIVE_MARK) == 1
        assert head.index(LIVE_MARK) < head.index("stylesheet")

    def test_the_styles_come_in_the_one_stylesheet_the_page_links(self, good_site: Path) -> None:
        """A quiz's styles are in calculators.css, the plugin's only stylesheet in a page's head (each one more is a
        request before a phone's first paint)."""
        html = (good_site / "index.html").read_text(encoding="utf-8")
        linked = re.findall(r'<link[^>]*href="([^"]*assets/calculators/[^"]*)"', html)
        assert linked == ["assets/calculators/calculators.css"]
        styles = (good_site / "assets/calculators/calculators.css").read_text(encoding="utf-8")
        assert ".calc{" in styles and ".quiz{" in styles
        assert "/*" not in styles  # compacted: the sources' comments stay in the sources (runtime/stylesheets.py)
        assert not (good_site / "assets/calculators/quiz.css").exists()
        assert (good_site / "assets/calculators/quiz.js").is_file()


class TestMarkdown:
    """What an author writes in a quiz is Markdown, with the page's extensions and its math."""

    def test_code_emphasis_links_and_code_blocks(self, good_site: Path) -> None:
        html = (good_site / "markdown/index.html").read_text(encoding="utf-8")
        assert '<div class="quiz-intro"><p>Two questions on <strong>the roofline</strong>; see ' in html
        assert '<a href="../other/#ridge">the lesson</a>' in html  # the page's own link rewriting
        legend = re.search(r'<span class="quiz-text">(.*?)</span></legend>', html, re.DOTALL)
        assert legend and legend[1].startswith("Which call is <em>memory-bound</em>, where ")
        # The code block, below the legend (this site has MkDocs's own extensions: fenced_code, not superfences).
        assert '<div class="quiz-text-more"><pre><code class="language-python">y = x + 1\n</code></pre></div>' in html
        assert '<span class="quiz-choice-text"><code>vector_add(x, y)</code></span>' in html
        assert (
            '<template class="quiz-why" data-search-exclude>One FLOP per <strong>12</strong> bytes.</template>' in html
        )

    def test_math_is_typeset_at_build_in_the_question_and_its_explanation(self, good_site: Path) -> None:
        html = (good_site / "markdown/index.html").read_text(encoding="utf-8")
        explanation = html[html.index('<template class="quiz-explanation"') :]
        explanation = explanation[: explanation.index("</template>")]
        assert (
            'class="katex"' in explanation
            and '<annotation encoding="application/x-tex">I^* = P / B</annotation>' in explanation
        )
        legend = html[html.index('<span class="quiz-text">Which call') :]
        assert '<annotation encoding="application/x-tex">I &lt; I^*</annotation>' in legend[: legend.index("</legend>")]
        assert 'class="arithmatex"' not in html

    def test_a_script_link_keeps_its_words_and_loses_its_address(self, good_site: Path) -> None:
        html = (good_site / "markdown/index.html").read_text(encoding="utf-8")
        assert "javascript:" not in html and "reads <a>more</a> than it computes" in html

    def test_a_numeric_questions_values_are_marked_in_code_and_in_prose(self, good_site: Path) -> None:
        html = (good_site / "markdown/index.html").read_text(encoding="utf-8")
        assert (
            '<span class="quiz-text">At <code><span class="quiz-value">60</span></code> FLOP/byte and '
            '<span class="quiz-value">60</span> FLOP/byte, how many <em>TFLOP/s</em>?</span>'
        ) in html
        quiz = quiz_elements(html)[0]
        assert json.loads(attribute(quiz, "data-quiz-data"))["questions"][1]["values"] == ["60", "60"]


class TestEscaping:
    """R6: HTML in any author text reaches the page as text."""

    def test_no_author_markup_survives(self, good_site: Path) -> None:
        """Markdown, yes; raw HTML, no: it shows as the author typed it, in the question and in its explanations."""
        html = (good_site / "index.html").read_text(encoding="utf-8")
        hostile = quiz_elements(html)[2]
        start = html.index(hostile)
        body = html[start : html.index('<div class="quiz-footer"', start)]
        assert "<script>alert" not in body and "<img src=x" not in body
        # As text: the title, intro, both questions, the choice, the item, the bucket and the bucket's list label,
        # and the three explanations (the question's, the choice's and the item's) in their templates.
        shown = body[len(hostile) :].count("&lt;script&gt;alert(1)&lt;/script&gt; &lt;img src=x onerror=alert(2)&gt;")
        assert shown == 11
        assert body.count('<template class="quiz-why" data-search-exclude>') == 2
        assert body.count('<template class="quiz-explanation" data-search-exclude><p>&lt;script&gt;alert(1)') == 1

    def test_the_answer_key_holds_no_author_text(self, good_site: Path) -> None:
        """Explanations are not in the JSON attribute (they are in the page, as HTML); nothing there is markup."""
        html = (good_site / "index.html").read_text(encoding="utf-8")
        hostile = quiz_elements(html)[2]
        assert "<script" not in hostile and "<img" not in hostile
        data = json.loads(attribute(hostile, "data-quiz-data"))
        assert "explanation" not in data["questions"][0] and data["questions"][0]["choices"] == 2
        assert data["questions"][1]["items"] == [{"bucket": "a"}]
