"""What MkDocs lets pass in silence stops the strict build with a located line: broken front matter, and footnotes
cited without a definition, defined twice, or defined and never cited. Code that shows footnote syntax is left alone."""

from __future__ import annotations

import re
from pathlib import Path

from tests.build.sites import Build, build_fixture, render_fixture, render_problems
from tests.support import ROOT

_WARNING = re.compile(r"^WARNING\s+-\s+(?P<message>.*?)\s*$", re.MULTILINE)


FRONT_MATTER_PAGE = "---\ntitle: Roofline\nsummary: [unclosed\n---\n# Roofline\n"
FRONT_MATTER_ERROR = (
    ":3: front matter is not valid YAML: while parsing a flow sequence, expected ',' or ']', but got '<stream end>' "
    "(a [ or { opened here is not closed, or its items lack commas)"
)
FOOTNOTES_PAGE = (
    "---\ntitle: Notes\n---\n# Notes\n\n"
    "H100 reads 3.35 TB/s[^h100], and TPU v5e 819 GB/s[^v5e].\n\n"
    "Write `[^name]` to cite, as in this example:\n\n```markdown\nA claim[^example].\n```\n\n"
    "[^h100]: NVIDIA, H100 datasheet.\n[^h100]: Again.\n[^unused]: Nobody cites this.\n"
)
FOOTNOTE_WARNINGS = [
    ":6: footnote [^v5e] is cited but never defined: add a line '[^v5e]: ...' with its source",
    ":15: footnote [^h100] is defined twice (first at line 14)",
    ":16: footnote [^unused] is defined but never cited: cite it with [^unused] or remove it",
]


def test_front_matter_that_is_not_yaml(tmp_path: Path) -> None:
    """As the strict build's page hook finds it (sites.render_problems): one error, at the line of the YAML problem."""
    assert render_fixture(tmp_path, {"docs/index.md": FRONT_MATTER_PAGE}) == [f"docs/index.md{FRONT_MATTER_ERROR}"]


def test_footnotes_without_their_other_half(tmp_path: Path) -> None:
    """As the strict build's page hook finds them: a warning for each footnote without its other half."""
    problems = render_problems(tmp_path, {"docs/index.md": FOOTNOTES_PAGE})
    assert [str(problem) for problem in problems] == [f"docs/index.md{warning}" for warning in FOOTNOTE_WARNINGS]
    assert all(problem.warning for problem in problems)


def test_broken_front_matter_and_footnotes_stop_the_strict_build(tmp_path: Path) -> None:
    """Both pages in one strict build: it stops, with the front matter's error and the footnotes' warnings."""
    build = build_fixture(tmp_path, {"docs/index.md": FRONT_MATTER_PAGE, "docs/notes.md": FOOTNOTES_PAGE})
    assert build.returncode != 0
    assert build.errors() == [f"docs/index.md{FRONT_MATTER_ERROR}"]
    # (MkDocs adds its own warning about the second [^h100], which Markdown reads as a link.)
    assert [warning for warning in _WARNING.findall(build.output) if warning.startswith("docs/")] == [
        f"docs/notes.md{warning}" for warning in FOOTNOTE_WARNINGS
    ]


def test_good_footnotes_pass(good_site: Build) -> None:
    """The good site's footnotes page (a footnote cited twice, its definition continued) builds without a warning."""
    assert good_site.returncode == 0, good_site.output
    assert (good_site.site / "footnotes/index.html").is_file()
    assert "WARNING" not in good_site.output


def test_a_page_left_out_of_nav_stops_the_books_build(tmp_path: Path) -> None:
    """With the book's own validation settings, a page that is not in `nav` stops the strict build, naming it."""
    from mkdocs.utils.yaml import yaml_load

    with (ROOT / "mkdocs.yml").open(encoding="utf-8") as config:
        validation = yaml_load(config)["validation"]
    files = {"docs/index.md": "# Home\n", "docs/chapters/28-new.md": "# New\n"}
    build = build_fixture(tmp_path, files, nav=[{"Home": "index.md"}], validation=validation)
    assert build.returncode != 0
    assert 'are not included in the "nav" configuration:\n  - chapters/28-new.md' in build.output
