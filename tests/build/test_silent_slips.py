"""Slips that MkDocs would let pass in silence (issue 22, item 6): each is a located warning or error, so the strict
build stops on it."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.build.sites import Build, build_fixture, render_problems

TIMEOUT = 120  # seconds: a build that takes longer has hung
BLOCK = "use: roofline\nintensity: 7\n```\n"


SLIPS = {"calcualtor": "calculator", "Calculator": "calculator", "quizz": "quiz", "exercice": "exercise"}


def _slip_page(name: str) -> str:
    return f"# Page\n\nText.\n\n```{name}\n{BLOCK}"


def _slip_warning(path: str, name: str) -> str:
    return f"{path}:5: a fence named '{name}' is shown as code: did you mean ```{SLIPS[name]}? "


@pytest.mark.parametrize("name", SLIPS)
def test_a_fence_named_almost_like_a_block_is_a_warning_at_its_line(tmp_path: Path, name: str) -> None:
    """As the strict build's page hook finds it (sites.render_problems): a warning, at the fence's line."""
    problems = render_problems(tmp_path, {"docs/index.md": _slip_page(name)})
    assert [problem.warning for problem in problems] == [True]
    assert str(problems[0]).startswith(_slip_warning("docs/index.md", name))


def test_fences_named_almost_like_blocks_stop_the_strict_build(tmp_path: Path) -> None:
    """Every slip on a page of its own, in one strict build: it stops, and logs each as a warning at its line."""
    files = {f"docs/{name.lower()}-{number}.md": _slip_page(name) for number, name in enumerate(SLIPS)}
    build = build_fixture(tmp_path, files, timeout=TIMEOUT, plugin={"snapshot": False})
    assert build.returncode != 0, build.output
    for number, name in enumerate(SLIPS):
        assert f"WARNING -  {_slip_warning(f'docs/{name.lower()}-{number}.md', name)}" in build.output, build.output
    assert "Traceback" not in build.output


def test_fences_of_other_languages_and_examples_inside_fences_pass(good_site: Build) -> None:
    """The good site's page with a ```python fence, and a ```calcualtor slip shown inside a ````markdown example,
    builds strictly."""
    assert good_site.returncode == 0, good_site.output
    assert (good_site.site / "other-languages/index.html").is_file()


def test_an_authors_page_at_a_generated_pages_path_is_an_error_naming_both(tmp_path: Path) -> None:
    files = {"docs/index.md": "# Home\n", "docs/reference/calculators.md": "# My own calculators page\n"}
    build = build_fixture(tmp_path, files, timeout=TIMEOUT, plugin={"snapshot": False})
    assert build.returncode != 0, build.output
    assert build.errors() == [
        "docs/reference/calculators.md: this page is where the plugin writes its generated reference "
        "(reference/calculators.md, from the package 'calculators'): move your page, and link to the generated one"
    ], build.output
    assert "Traceback" not in build.output


ANCHORS: dict[str, Any] = {"validation": {"anchors": "warn"}}


def test_links_to_a_blocks_id_pass_anchor_validation(tmp_path: Path) -> None:
    files = {
        "docs/index.md": (
            "# Home\n\nSee [the calculator](#calc-1) and [the other page's](other.md#calc-1).\n\n"
            f"```calculator\n{BLOCK}"
        ),
        "docs/other.md": f"# Other\n\n```calculator\n{BLOCK}",
    }
    build = build_fixture(tmp_path, files, timeout=TIMEOUT, plugin={"snapshot": False}, **ANCHORS)
    assert build.returncode == 0, build.output


def test_a_link_to_a_missing_anchor_stops_the_strict_build(tmp_path: Path) -> None:
    files = {
        "docs/index.md": "# Home\n\nSee [it](other.md#calc-9).\n",
        "docs/other.md": f"# Other\n\n```calculator\n{BLOCK}",
    }
    build = build_fixture(tmp_path, files, timeout=TIMEOUT, plugin={"snapshot": False}, **ANCHORS)
    assert build.returncode != 0, build.output
    assert "contains a link 'other.md#calc-9', but the doc 'other.md' does not contain an anchor '#calc-9'" in (
        build.output
    ), build.output


def test_a_heading_with_a_blocks_id_is_reported(tmp_path: Path) -> None:
    page = f"# Home\n\n## Calc 1\n\nText.\n\n```calculator\n{BLOCK}"
    build = build_fixture(tmp_path, {"docs/index.md": page}, timeout=TIMEOUT, plugin={"snapshot": False}, **ANCHORS)
    assert build.returncode != 0, build.output
    assert (
        "WARNING -  docs/index.md:7: this block's id 'calc-1' is also the id of a heading or an element of this page, "
        "so a link to #calc-1 may reach either: give the heading an id of its own, such as "
        "'## Calc 1 {#first-calculation}'"
    ) in build.output, build.output
