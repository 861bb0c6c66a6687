"""The contributing guide's worked calculator is real: added to a copy of the package exactly as the guide says, it
builds strictly, renders its form and results, and passes the guide's own lint rules."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path

import calculators
from tests.build.sites import build_fixture, parse_html
from tests.support import ROOT, SECOND_BOOK, build_second_book

GUIDE = ROOT / "docs/contributing.md"


def _guide_blocks() -> tuple[str, str]:
    """The module and the registry lines shown under "Add a calculator"."""
    text = GUIDE.read_text(encoding="utf-8")
    section = text[text.index("## Add a calculator") : text.index("### Inputs")]
    blocks = re.findall(r"^```python\n(.*?)^```$", section, re.MULTILINE | re.DOTALL)
    assert len(blocks) == 2, "the guide shows the module, then the registry edit"
    return blocks[0], blocks[1]


def test_the_guides_calculator_builds_and_renders(tmp_path: Path) -> None:
    module, registry_lines = _guide_blocks()
    package = tmp_path / "calculators"
    shutil.copytree(Path(calculators.__file__).parent, package, ignore=shutil.ignore_patterns("__pycache__"))
    (package / "decode_ceiling.py").write_text(module, encoding="utf-8")
    # The registry edit, as the guide shows it: the import line, and the name added to the tuple.
    import_line = registry_lines.splitlines()[0]
    registry = (package / "registry.py").read_text(encoding="utf-8")
    registry = registry.replace("from .energy import ENERGY\n", f"from .energy import ENERGY\n{import_line}\n")
    registry, added = re.subn(r"= registry\(", "= registry(DECODE_CEILING, ", registry, count=1)
    assert added == 1, "the registry lists its calculators in one registry(...) call"
    (package / "registry.py").write_text(registry, encoding="utf-8")

    page = "# Decode\n\n```calculator\nuse: decode-ceiling\nparams_b: 7\n```\n"
    build = build_fixture(tmp_path, {"docs/index.md": page}, plugin={"snapshot": False})
    assert build.returncode == 0, build.output
    html = parse_html(build.html())
    outputs = {
        element.attrs["data-output"]: element.find("output").text()
        for element in html.find_all("div", class_="calc-output")
    }
    # 7 B parameters at 2 bytes, read once per token from 3.35 TB/s: 14 GB per token, 239.3 tokens/s.
    assert outputs == {"weight_bytes": "14 GB", "tokens_per_s": "240 tokens/s"}
    assert "at most 240 tokens/s for one sequence" in html.find("p", class_="calc-summary").text()

    lint = subprocess.run(
        [
            sys.executable,
            "-m",
            "ruff",
            "check",
            "--config",
            str(ROOT / "pyproject.toml"),
            str(package / "decode_ceiling.py"),
        ],
        capture_output=True,
        text=True,
        check=False,
    )
    assert lint.returncode == 0, lint.stdout


def test_the_guides_duplicate_name_message_points_at_the_lines_it_names() -> None:
    """The message the guide quotes for a second calculator named 'roofline' names the line that declares the guide's
    calculator and the line that declares the roofline (test_book_names checks the message itself)."""
    module, _ = _guide_blocks()
    roofline = (Path(calculators.__file__).parent / "roofline.py").read_text(encoding="utf-8")
    expected = (
        f"calculators/decode_ceiling.py:{_line_of(module, '= Calculator(')}: two calculators are named 'roofline' "
        f"(the first at calculators/roofline.py:{_line_of(roofline, '= Calculator(')}): give each a name of its own"
    )
    assert expected in " ".join(GUIDE.read_text(encoding="utf-8").split())


def _line_of(text: str, snippet: str) -> int:
    return text[: text.index(snippet)].count("\n") + 1


def _block_kind_guide() -> tuple[str, str, str]:
    """The module, the registry line and the example page block shown under "Add a block kind"."""
    section = _block_kind_section()
    python = re.findall(r"^```python\n(.*?)^```$", section, re.MULTILINE | re.DOTALL)
    assert len(python) == 3, "the guide shows the module, then the registry line, then a kind's browser declaration"
    (example,) = re.findall(r"^````markdown\n(.*?)^````$", section, re.MULTILINE | re.DOTALL)
    return python[0], python[1], example


def _block_kind_section() -> str:
    text = GUIDE.read_text(encoding="utf-8")
    return text[text.index("## Add a block kind") : text.index("## Error messages")]


def test_the_guides_block_kind_builds_and_reports_its_mistakes_at_their_line(tmp_path: Path) -> None:
    """The guide's `term` kind, added to a copy of the plugin as one folder and one registry line: its example renders
    as the module says, and a misspelt key stops the build at that key's line."""
    import mkdocs_calculators

    module, registry_line, example = _block_kind_guide()
    plugin = tmp_path / "mkdocs_calculators"  # the build runs in tmp_path, so this copy is the plugin it imports
    shutil.copytree(Path(mkdocs_calculators.__file__).parent, plugin, ignore=shutil.ignore_patterns("__pycache__"))
    (plugin / "blocks/term").mkdir()
    (plugin / "blocks/term/__init__.py").write_text(module, encoding="utf-8")
    registry_file = plugin / "blocks/__init__.py"
    registry, added = re.subn(r"(REGISTRY = \([^)]*)\)", rf"\1{registry_line})", registry_file.read_text(), count=1)
    assert added == 1, "the registry names its kinds in one REGISTRY = (...) tuple"
    registry_file.write_text(registry, encoding="utf-8")

    broken = "# Broken\n\n```term\nword: roofline\nmeanign: a model of attainable throughput\n```\n"
    pages = {"docs/index.md": f"# Terms\n\n{example}", "docs/broken.md": broken}
    build = build_fixture(tmp_path, pages, strict=False, plugin={"snapshot": False})
    assert build.errors() == [
        "docs/broken.md:3: term block needs 'meaning': what it means",
        "docs/broken.md:5: term block: unknown key 'meanign' (did you mean 'meaning'? expected one of: word, meaning)",
    ], build.output
    term = parse_html(build.html()).find("dl", class_="term")
    assert [term.find("dt").text(), term.find("dd").text()] == [
        "arithmetic intensity",
        "FLOPs done per byte moved to or from memory.",
    ]


def test_the_guides_block_kind_registered_by_a_book_builds(tmp_path: Path) -> None:
    """The same `term` module as a book's own kind, as the guide says: a folder of a package of the book's
    (`my_blocks/term/__init__.py`, an empty `my_blocks/__init__.py`), named in the book's pyproject.toml by the
    guide's entry-point lines (in place of the second book's own), and the book installed editable (its metadata as
    pip writes it: tests/support.py); its example renders in the book's page."""
    module, _, example = _block_kind_guide()
    (toml,) = re.findall(r"^```toml\n(.*?)^```$", _block_kind_section(), re.MULTILINE | re.DOTALL)
    root = tmp_path / "book"
    shutil.copytree(SECOND_BOOK, root, ignore=shutil.ignore_patterns("__pycache__"))
    (root / "my_blocks/term").mkdir(parents=True)
    (root / "my_blocks/__init__.py").write_text("", encoding="utf-8")
    (root / "my_blocks/term/__init__.py").write_text(module, encoding="utf-8")
    project = (root / "pyproject.toml").read_text(encoding="utf-8")
    own = '[project.entry-points."mkdocs_calculators.kinds"]\nresistor = "circuit_blocks.resistor:KIND"\n'
    assert own in project
    (root / "pyproject.toml").write_text(project.replace(own, toml), encoding="utf-8")
    (root / "docs/terms.md").write_text(f"# Terms\n\n{example}", encoding="utf-8")
    result = build_second_book(tmp_path / "site", root)
    assert result.returncode == 0, result.stderr
    html = (tmp_path / "site/terms/index.html").read_text(encoding="utf-8")
    assert (
        '<dl class="term"><dt>arithmetic intensity</dt><dd>FLOPs done per byte moved to or from memory.</dd></dl>'
        in html
    )


def test_the_guides_quiz_with_code_renders_and_its_three_backtick_form_is_told_the_fix() -> None:
    """The quiz under "Code inside a block", fenced with four backticks, renders with no problem; fenced with three, it
    gets the message the guide quotes, at the lines the guide gives (the quiz opening at line 20)."""
    from calckit.book import load
    from mkdocs_calculators.blocks import PageContext
    from mkdocs_calculators.pages.page import render_page

    text = GUIDE.read_text(encoding="utf-8")
    section = text[text.index("**Code inside a block.**") : text.index("### Single and multiple choice")]
    (example,) = re.findall(r"^`````markdown\n(.*?)^`````$", section, re.MULTILINE | re.DOTALL)
    assert example.startswith("````quiz\n") and example.endswith("\n````\n") and "      ```python\n" in example
    context = PageContext("docs/x.md", load("calculators"), url="x/")
    rendered = render_page("\n" * 19 + example, context)
    assert rendered.problems == [] and [block.kind for block in rendered.blocks] == ["quiz"]
    three = "\n" * 19 + example.replace("````quiz\n", "```quiz\n").replace("\n````\n", "\n```\n")
    (problem,) = render_page(three, context).problems
    assert str(problem).startswith("docs/x.md:20: ")
    quoted = str(problem).removeprefix("docs/x.md:20: ")
    assert f"`{quoted}`" in " ".join(section.split())
