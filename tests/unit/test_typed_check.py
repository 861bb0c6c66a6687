"""The hand-typed check (pages/typed_check.py): a number in the section of a calculator block that the block outputs
for its author's inputs, typed by hand rather than computed, is a warning at its line; a value role, a figure marked
{typed}, code and another section's text are left alone."""

from __future__ import annotations

from calckit.api import run
from calckit.book import Book, load
from mkdocs_calculators.blocks import PageContext
from mkdocs_calculators.pages.page import RenderedPage, render_page

BOOK: Book = load("calculators")

BLOCK = "```calculator\nuse: roofline\nid: explorer\nchip: h100-sxm\nintensity: 60\n```\n"


def rendered(markdown: str, offset: int = 0) -> RenderedPage:
    return render_page(markdown, PageContext("docs/x.md", BOOK, url="x/"), offset=offset)


def texts(**inputs: object) -> dict[str, str]:
    reply = run("roofline", inputs, BOOK)
    assert reply["ok"], reply
    return {out["key"]: out["text"] for out in reply["outputs"]}


def warnings(page: RenderedPage) -> list[str]:
    assert all(problem.warning for problem in page.problems), page.problems
    return [str(problem) for problem in page.problems]


def message(text: str, key: str) -> str:
    return (
        f"\"{text}\" is typed by hand; calculator #calc-explorer outputs it as '{key}' "
        f"(write {{value}}`#calc-explorer.{key}`)"
    )


def test_the_outputs_it_looks_for_are_the_calculators_texts() -> None:
    # Worked by hand: min(989.4 TFLOP/s, 3.35 TB/s x 60 FLOP/byte) = 201 TFLOP/s, 201 / 989.4 = 20.3% of the peak.
    shown = texts(chip="h100-sxm", intensity=60)
    assert (shown["attainable"], shown["fraction"]) == ("201 TFLOP/s", "20.3%")


def test_a_typed_number_is_found_at_its_line_above_and_below_the_block() -> None:
    markdown = (
        "# Title\n\n"  # 1-2
        "It reaches 20.3% of its peak.\n\n"  # 3: above the block, in its section
        + BLOCK  # 5-10
        + "\nAt 60 FLOP per byte the H100 reaches 201\n"  # 12: the number here, its unit on the next line
        "TFLOP/s, and so on.\n"
    )
    page = rendered(markdown, offset=4)
    assert warnings(page) == [
        f"docs/x.md:7: {message('20.3%', 'fraction')}",
        f"docs/x.md:16: {message('201 TFLOP/s', 'attainable')}",
    ]
    html = page.markdown()  # a warning changes nothing in the prose
    assert html.startswith("# Title\n\nIt reaches 20.3% of its peak.\n") and html.endswith(markdown[-60:])


def test_a_value_role_a_marked_figure_code_raw_html_and_other_numbers_are_not_flagged() -> None:
    markdown = (
        "# Title\n\n" + BLOCK + "\nThe H100 reaches {value}`#calc-explorer.attainable`,\n"
        "{value}`roofline.fraction chip=h100-sxm intensity=60`.\n"
        "A paper measured {typed}`201 TFLOP/s` on it.\n"
        "Write `201 TFLOP/s` in code, or as a block:\n\n"
        "```text\n20.3%\n```\n\n"
        "Not these: 1,201 TFLOP/s, 201 TFLOP/sec, 120.3%, 20.35%, 3201 TFLOP/s, 20.3%s.\n"
        "<table><tr><td>201 TFLOP/s</td></tr></table>\n"  # raw HTML, as a generated reference page's tables
        'Nor a link\'s address: [a](https://example.org/20.3%) or a tag <span title="201 TFLOP/s"></span>.\n'
        "\n## Another section\n\n"
        "Here 201 TFLOP/s belongs to another section.\n"
    )
    page = rendered(markdown)
    assert page.problems == [], page.problems
    assert "A paper measured 201 TFLOP/s on it." in page.markdown()  # a marked figure reads as it was typed


def test_each_block_of_a_section_is_checked_and_a_number_is_said_once() -> None:
    other = BLOCK.replace("id: explorer", "id: other")  # the same outputs, under another anchor
    markdown = "# Title\n\n" + BLOCK + "\n" + other + "\nBoth say 201 TFLOP/s.\n"
    assert warnings(rendered(markdown)) == [f"docs/x.md:17: {message('201 TFLOP/s', 'attainable')}"]


def test_a_block_in_a_later_section_checks_only_its_own() -> None:
    markdown = "# One\n\nTyped: 201 TFLOP/s.\n\n## Two\n\n" + BLOCK + "\nTyped: 20.3%.\n"
    assert warnings(rendered(markdown)) == [f"docs/x.md:14: {message('20.3%', 'fraction')}"]
