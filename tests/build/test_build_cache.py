"""A build reuses what the last one rendered from the same package and pages (extras/build_cache.py), and nothing else:
edit the package's code or data, or a page, and it runs the book's code again; a problem is said on every build.

The fixture's compute prints a mark (the child passes what the book's code prints on to the build's log), so the log
says whether the book's code ran.
"""

from __future__ import annotations

from pathlib import Path

from tests.build.sites import Build, build_fixture
from tests.build.test_author_code import CHIPS_TEXT, H100_BANDWIDTH, PACKAGE, build_with_package
from tests.build.test_author_code_limits import roofline_with

MARK = "COMPUTE-RAN-FOR-THE-CACHE-TEST"
PRINTING = {"roofline.py": roofline_with(f'    print("{MARK}", file=__import__("sys").stderr)')}
PAGE = "# Roofline\n\n```calculator\nuse: roofline\nintensity: 7\n```\n"
PLUGIN = {"snapshot": False}


def attainable(html: str) -> str:
    """The pre-rendered attainable throughput of the page's calculator."""
    start = html.index('data-output="attainable"')
    return html[html.index("<output", start) : html.index("</output>", start)].split(">", 1)[1]


def rebuild(root: Path, page: str = PAGE, **plugin: object) -> Build:
    """Build the site at `root` again, its package as it is now."""
    return build_fixture(root, {"docs/index.md": page}, plugin=PLUGIN | plugin)


def test_an_unchanged_page_is_not_computed_again_and_comes_out_the_same(tmp_path: Path) -> None:
    first = build_with_package(tmp_path, PRINTING, PAGE, plugin=PLUGIN)
    assert first.returncode == 0, first.output
    assert MARK in first.output
    html, chips_page = first.html(), first.html("reference/chips/index.html")
    assert attainable(html) == "23.4 TFLOP/s"  # 7 FLOP/byte x 3.35 TB/s = 23.45, to 3 digits
    entries = tmp_path / ".cache" / "mkdocs-calculators" / "pages"
    kept = {path.name: path.stat().st_mtime_ns for path in entries.glob("*.json")}
    second = rebuild(tmp_path)
    assert second.returncode == 0, second.output
    assert MARK not in second.output
    assert second.html() == html
    # Every page came from the cache, none was rendered and kept again: the page and the generated progress page
    # (whose slot once had a new token at each build).
    assert len(kept) >= 2 and {path.name: path.stat().st_mtime_ns for path in entries.glob("*.json")} == kept
    # The package's reference pages, made once and kept, come out the same.
    assert (entries.parent / "generated.json").is_file()
    assert second.html("reference/chips/index.html") == chips_page


# Printed by the package's __init__ as it is imported, with the program importing it: the build's own process (MkDocs)
# or the child that runs the book's code (sandbox/compute_child.py), whose output the build's log shows too.
IMPORTED = "PACKAGE-IMPORTED-BY"


def importers(build: Build) -> list[str]:
    """The programs that imported the package during `build`: "mkdocs" or "child", sorted."""
    lines = [line.split(IMPORTED, 1)[1].strip() for line in build.output.splitlines() if IMPORTED in line]
    return sorted("child" if line.endswith("compute_child.py") else "mkdocs" for line in lines)


def importing_package() -> dict[str, str]:
    """The package's __init__.py, printing IMPORTED first."""
    text = (PACKAGE / "__init__.py").read_text(encoding="utf-8")
    return {"__init__.py": f'import sys\nprint("{IMPORTED}", sys.argv[0], file=sys.stderr)\n{text}'}


def wheel_names(build: Build) -> list[str]:
    """The wheels the site ships: calckit's and the book's, each named with its version and a hash of its files."""
    return sorted(path.name for path in (build.site / "assets" / "calculators").glob("*.whl"))


def test_a_build_that_renders_nothing_again_does_not_import_the_package_in_mkdocs(tmp_path: Path) -> None:
    """The build's process imports the book's package only when it renders something of it again: a build of the
    same files that reuses every page ships the same site from the child's import alone (the version it ships is
    the one the build cache kept), and an edited page has it imported again, to render that page."""
    first = build_with_package(tmp_path, {**PRINTING, **importing_package()}, PAGE, plugin=PLUGIN)
    assert first.returncode == 0, first.output
    assert importers(first) == ["child", "mkdocs"] and MARK in first.output
    html, wheels = first.html(), wheel_names(first)  # the site's folder is built again below
    second = rebuild(tmp_path)
    assert second.returncode == 0, second.output
    assert importers(second) == ["child"] and MARK not in second.output
    assert second.html() == html
    assert wheel_names(second) == wheels and any(name.startswith("calculators-0.1.0+") for name in wheels)
    edited = rebuild(tmp_path, PAGE.replace("intensity: 7", "intensity: 5"))
    assert edited.returncode == 0, edited.output
    assert importers(edited) == ["child", "mkdocs"] and MARK in edited.output
    assert attainable(edited.html()) == "16.8 TFLOP/s"  # 5 x 3.35 = 16.75, to 3 digits


def h100_row(build: Build) -> str:
    """The H100's row of the chip database's generated reference page."""
    return build.html("reference/chips/index.html").split("<tr id=chip-h100-sxm>", 1)[1].split("</tr>", 1)[0]


def test_an_edit_to_the_package_data_or_the_page_runs_the_code_again(tmp_path: Path) -> None:
    first = build_with_package(tmp_path, PRINTING, PAGE, plugin=PLUGIN)
    assert first.returncode == 0, first.output
    before = h100_row(first)  # the site's folder is built again below
    chips = tmp_path / "calculators" / "chips.toml"
    chips.write_text(CHIPS_TEXT.replace(H100_BANDWIDTH, H100_BANDWIDTH.replace("3.35", "3.2")), encoding="utf-8")
    data = rebuild(tmp_path)
    assert data.returncode == 0, data.output
    assert MARK in data.output
    assert attainable(data.html()) == "22.4 TFLOP/s"  # 7 x 3.2
    # The reference page is made again from the edited data, not taken from the cache.
    assert 'data-value="3.35"' in before and 'data-value="3.35"' not in h100_row(data)
    assert 'data-value="3.2"' in h100_row(data)
    page = rebuild(tmp_path, PAGE.replace("intensity: 7", "intensity: 5"))
    assert MARK in page.output
    assert attainable(page.html()) == "16 TFLOP/s"
    again = rebuild(tmp_path, PAGE.replace("intensity: 7", "intensity: 5"))
    assert MARK not in again.output
    assert again.html() == page.html()


def test_a_problem_is_said_on_every_build(tmp_path: Path) -> None:
    broken = PAGE.replace("intensity: 7", "intensity: -3")
    message = "docs/index.md:5: calculator 'roofline': 'intensity' must be >= 0.01 (got -3)"
    first = build_with_package(tmp_path, {}, broken, plugin=PLUGIN)
    assert first.errors() == [message], first.output
    second = rebuild(tmp_path, broken)
    assert second.returncode != 0
    assert second.errors() == [message], second.output


def test_cache_false_runs_the_code_on_every_build(tmp_path: Path) -> None:
    first = build_with_package(tmp_path, PRINTING, PAGE, plugin=PLUGIN | {"cache": False})
    assert MARK in first.output
    second = rebuild(tmp_path, cache=False)
    assert second.returncode == 0, second.output
    assert MARK in second.output
    assert not (tmp_path / ".cache").exists()
