"""Math typeset at build (extras/formulas.py, katex.mjs): `$...$` and `$$...$$` become KaTeX's HTML with MathML, in one
Node process per build; code, prices and escaped dollars stay text; a formula KaTeX cannot parse stops the strict
build at its line; pages without math link no KaTeX stylesheet; the stylesheet and fonts are in the site and in the
service worker's precache."""

from __future__ import annotations

import json
import re
from pathlib import Path

from tests.build.sites import build_fixture
from tests.support import NODE_MODULES, service_worker_manifest

PAGE = """---
title: Math
---

# Formulas

The ridge point is $I^* = P / B$, in FLOP per byte.

$$
T_{\\text{ring}} = 2 \\frac{N - 1}{N} \\cdot \\frac{S}{B}
$$

A GPU hour costs $2 and an hour of TPU $3 here, and \\$4 is escaped.

Code keeps its dollars: `$x$` and

```sh
echo "$HOME $PATH"
```
"""

PLAIN = "# No math\n\nJust $5 and $6 of text.\n"


def test_formulas_are_typeset_with_mathml_and_the_rest_stays_text(tmp_path: Path) -> None:
    plugins = ["search", {"calculators": {"node_modules": str(NODE_MODULES), "snapshot": False}}]
    build = build_fixture(tmp_path, {"docs/index.md": PAGE, "docs/plain.md": PLAIN}, plugins=plugins)
    assert build.returncode == 0, build.output
    page = build.html()
    assert page.count('<span class="katex">') == 2  # one inline, one display
    assert '<math xmlns="http://www.w3.org/1998/Math/MathML"' in page  # for screen readers
    assert '<annotation encoding="application/x-tex">I^* = P / B</annotation>' in page
    # A display formula scrolls in a focusable box and stands in at its height off screen (math.css): T_ring's
    # fractions rise 1.36em above the baseline and reach 0.69em below (KaTeX's struts), 2.05em in all.
    display = re.search(
        r'<div class="math-display" tabindex="0" style="--math-height: ([0-9.]+)"><span class="katex-display">', page
    )
    assert display and float(display[1]) == 2.046, display
    assert 'class="arithmatex"' not in page  # every formula was replaced
    assert "costs $2 and an hour of TPU $3 here, and $4 is escaped." in page
    assert "<code>$x$</code>" in page
    assert "$HOME" in page
    assert 'href="assets/calculators/katex/katex.css"' in page
    assert "katex" not in build.html("plain/index.html")  # no math, no KaTeX stylesheet
    assert "Just $5 and $6 of text." in build.html("plain/index.html")
    css = (build.site / "assets/calculators/katex/katex.css").read_text()
    # KaTeX's fonts are declared by script in the head and at the end of the content, not by @font-face in its
    # stylesheet (whose rules, parsed again as Material's script starts, laid the whole page out twice:
    # extras/formulas.py); woff2 only. No script before the content's end: the parser pauses before one to paint.
    script_off = css.split("@media (scripting: none) {", 1)
    assert "@font-face" not in script_off[0] and ".katex .mathnormal" in script_off[0]
    article = page.split('<article class="md-content__inner md-typeset">', 1)[1].split("</article>", 1)[0]
    declared = re.search(r'<script>\(\(base, faces\) => \{.*?\}\)\("([^"]*)", (\[\[.*?\]\])\)</script>', article)
    assert declared and declared[1] == "assets/calculators/katex/fonts/", article[-300:]
    # No math script: the content's only scripts are these two at its end, the fonts' and copy-tex's import.
    assert article.index("<script") == declared.start(), article[: article.index("<script") + 100][-300:]
    assert re.fullmatch(
        r'\s*<script>import\(new URL\("[^"]*copy-tex\.mjs", document\.baseURI\)\.href\)</script>\s*',
        article[declared.end() :],
    ), article[declared.end() :]
    assert declared[0] in page.split("</head>", 1)[0]  # before the first layout; again for instant navigation
    faces = json.loads(declared[2])
    assert ["KaTeX_Main", "KaTeX_Main-Regular.woff2", "normal", "400"] in faces
    assert ["KaTeX_Math", "KaTeX_Math-Italic.woff2", "italic", "400"] in faces
    assert len(faces) == 20 and all(file.endswith(".woff2") for _, file, _, _ in faces)
    # Without script, the same faces come from the stylesheet; woff2 only.
    assert script_off[1].count("@font-face") == len(faces) and "url(fonts/KaTeX_Main-Regular.woff2)" in script_off[1]
    assert ".ttf" not in css and ".woff)" not in css
    assert "FontFace" not in build.html("plain/index.html")
    # Off screen, a display formula's drawing and every formula's MathML cost no style or layout: without these,
    # the roofline lesson's formulas cost a phone most of the blocking time it had over the page without them. Nor
    # does a paragraph with a formula, whose layout would ask for KaTeX's fonts before the page's first paint, nor an
    # outermost list of the text with one (a quiz's, a calculator's and an exercise's are left to their scripts).
    skipped = re.findall(r"([^{}]+)\{content-visibility:auto;", css)  # compacted (runtime/stylesheets.py)
    assert skipped == [
        ".md-typeset .math-display",
        ".md-typeset .katex .katex-mathml",
        ".md-typeset p:has(.katex)",
        ".md-typeset :is(ul,ol):has(.katex):not(li *,.quiz *,.calc *,.exercise *)",
    ]
    fonts = {path.name for path in (build.site / "assets/calculators/katex/fonts").iterdir()}
    assert "KaTeX_Main-Regular.woff2" in fonts and all(name.endswith(".woff2") for name in fonts)
    precached = {path for path, _ in service_worker_manifest(build.site)["pages"]}
    assert "assets/calculators/katex/katex.css" in precached
    assert "assets/calculators/katex/fonts/KaTeX_Main-Regular.woff2" in precached
    # The search index holds the TeX source, not KaTeX's glyphs.
    index = json.loads((build.site / "search/search_index.json").read_text())
    text = " ".join(doc["text"] for doc in index["docs"])
    assert "I^* = P / B" in text and "katex-html" not in text


def test_a_formula_katex_cannot_parse_stops_the_build_at_its_line(tmp_path: Path) -> None:
    broken = PAGE.replace("2 \\frac{N - 1}{N}", "2 \\frac{N - 1}{N").replace("$I^* = P / B$", "$\\sqrt$")
    build = build_fixture(tmp_path, {"docs/index.md": broken})
    assert build.returncode != 0
    assert build.errors()[:2] == [
        "docs/index.md:7: math: KaTeX parse error: Expected group as argument to '\\sqrt' at end of input: \\sqrt",
        "docs/index.md:10: math: KaTeX parse error: Unexpected end of input in a macro argument, expected '}' at end "
        "of input: …dot \\frac{S}{B}",
    ], build.output
    assert "Traceback" not in build.output


def test_arithmatex_outside_generic_mode_is_refused(tmp_path: Path) -> None:
    build = build_fixture(
        tmp_path,
        {"docs/index.md": PAGE},
        markdown_extensions=["pymdownx.superfences", {"pymdownx.arithmatex": {"generic": False}}],
    )
    assert build.returncode != 0
    assert "pymdownx.arithmatex needs `generic: true`" in build.output
