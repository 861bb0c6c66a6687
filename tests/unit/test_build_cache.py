"""What one build keeps for the next (extras/build_cache.py): reused only for the same code, page and files read."""

from __future__ import annotations

import importlib.util
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from calckit.book import load
from mkdocs_calculators.blocks import PageContext
from mkdocs_calculators.extras.build_cache import BuildCache, PagePlace, code_digest, kinds_code, loaded_module
from mkdocs_calculators.pages.page import RenderedPage, render_page

BOOK = load("calculators")
MARKDOWN = (
    "# A page\n\n```calculator\nuse: roofline\nintensity: 13\n```\n\n"
    "```quiz\nid: q\nquestions:\n  - kind: single\n    text: Which?\n    choices:\n"
    "      - text: This\n        correct: true\n      - text: That\n```\n"
)


def place(markdown: str = MARKDOWN, **changes: object) -> PagePlace:
    fields: dict[str, object] = {
        "path": "docs/x.md",
        "source": "/book/docs/x.md",
        "url": "x/",
        "offset": 0,
        "file_text": markdown,
    }
    return PagePlace(**(fields | changes))  # type: ignore[arg-type]


def rendered(markdown: str = MARKDOWN, context: PageContext | None = None) -> RenderedPage:
    return render_page(markdown, context or PageContext("docs/x.md", BOOK, "/book/docs/x.md", "x/"))


def test_a_page_comes_back_as_it_was_rendered(tmp_path: Path) -> None:
    page = rendered()
    assert [block.kind for block in page.blocks] == ["calculator", "quiz"]
    BuildCache(tmp_path, "code-1").keep_page(page, place(), [])
    again = BuildCache(tmp_path, "code-1").page(MARKDOWN, place())
    assert again is not None
    assert again.blocks == page.blocks  # fences, kinds, HTML, searchability and what each adds to the progress page
    assert [block.progress and block.progress.key for block in again.blocks] == [None, "quiz:docs/x.md#q"]
    assert again.markdown(lambda block: block.kind) == page.markdown(lambda block: block.kind)
    assert again.problems == []


def test_other_code_markdown_or_place_is_not_reused(tmp_path: Path) -> None:
    BuildCache(tmp_path, "code-1").keep_page(rendered(), place(), [])
    assert BuildCache(tmp_path, "code-2").page(MARKDOWN, place()) is None
    edited = MARKDOWN.replace("intensity: 13", "intensity: 14")
    assert BuildCache(tmp_path, "code-1").page(edited, place(edited)) is None
    assert BuildCache(tmp_path, "code-1").page(MARKDOWN, place(url="y/")) is None  # links are relative to it
    assert BuildCache(tmp_path, "code-1").page(MARKDOWN, place(offset=3)) is None  # lines in messages count it
    front = "---\ntitle: X\n---\n" + MARKDOWN
    assert BuildCache(tmp_path, "code-1").page(MARKDOWN, place(file_text=front)) is None
    assert BuildCache(tmp_path, "code-1").page(MARKDOWN, place()) is not None


def test_a_page_with_a_problem_is_never_kept(tmp_path: Path) -> None:
    broken = "```calculator\nuse: roofline\nintensity: -3\n```\n"
    page = rendered(broken)
    assert len(page.problems) == 1
    BuildCache(tmp_path, "code-1").keep_page(page, place(broken), [])
    assert BuildCache(tmp_path, "code-1").page(broken, place(broken)) is None
    assert not list(tmp_path.rglob("*.json"))


def test_a_file_read_beside_the_page_is_checked_again(tmp_path: Path) -> None:
    """A quiz that names a file: the page is reused while that file is the same, rendered again once it changes."""
    docs = tmp_path / "docs"
    docs.mkdir()
    quiz = docs / "quiz.yml"
    quiz.write_text(
        "id: q\nquestions:\n  - kind: single\n    text: Which?\n    choices:\n"
        "      - text: This\n        correct: true\n      - text: That\n",
        encoding="utf-8",
    )
    markdown = "```quiz\nfile: quiz.yml\n```\n"
    context = PageContext("docs/x.md", BOOK, str(docs / "x.md"), "x/")
    page = rendered(markdown, context)
    assert page.problems == []
    assert context.reads == [str(quiz)]
    cache = BuildCache(tmp_path / "cache", "code-1")
    cache.keep_page(page, place(markdown), context.reads)
    assert cache.page(markdown, place(markdown)) is not None
    quiz.write_text(quiz.read_text(encoding="utf-8").replace("Which?", "Which one?"), encoding="utf-8")
    assert cache.page(markdown, place(markdown)) is None
    quiz.unlink()
    assert cache.page(markdown, place(markdown)) is None


def test_no_folder_keeps_nothing_and_a_damaged_entry_is_ignored(tmp_path: Path) -> None:
    off = BuildCache(None, "code-1")
    off.keep_page(rendered(), place(), [])
    assert off.page(MARKDOWN, place()) is None
    cache = BuildCache(tmp_path, "code-1")
    cache.keep_page(rendered(), place(), [])
    (entry,) = tmp_path.rglob("*.json")
    entry.write_text(entry.read_text(encoding="utf-8")[:100], encoding="utf-8")
    assert cache.page(MARKDOWN, place()) is None
    entry.write_text('{"key": "x"}', encoding="utf-8")
    assert cache.page(MARKDOWN, place()) is None


def test_one_entry_per_page_replaced_as_it_changes(tmp_path: Path) -> None:
    cache = BuildCache(tmp_path, "code-1")
    edited = MARKDOWN.replace("intensity: 13", "intensity: 14")
    cache.keep_page(rendered(), place(), [])
    cache.keep_page(rendered(edited), place(edited), [])
    assert len(list(tmp_path.rglob("*.json"))) == 1
    assert cache.page(MARKDOWN, place()) is None
    kept = cache.page(edited, place(edited))
    assert kept is not None and "14" in kept.blocks[0].html


def test_the_code_digest_covers_every_file_of_the_package_and_no_cache(tmp_path: Path) -> None:
    package = tmp_path / "book"
    (package / "__pycache__").mkdir(parents=True)
    (package / "model.py").write_text("X = 1\n", encoding="utf-8")
    (package / "chips.toml").write_text("peak = 1\n", encoding="utf-8")
    folders = [(package, "*")]
    first = code_digest(folders)
    (package / "__pycache__" / "model.cpython-311.pyc").write_bytes(b"\0")
    assert code_digest(folders) == first
    (package / "chips.toml").write_text("peak = 2\n", encoding="utf-8")  # data changes results as much as code
    second = code_digest(folders)
    assert second != first
    assert code_digest(folders, ["time limit 5.0"]) != second
    assert code_digest([(package, "*.py")]) == code_digest([(package, "*.py")]) != second


def test_the_import_check_is_kept_for_the_same_code_and_browser(tmp_path: Path) -> None:
    cache = BuildCache(tmp_path, "code-1")
    assert cache.imports("os sys") is None
    cache.keep_imports("os sys", ["book/x.py:3: ModuleNotFoundError: No module named 'numpy'"], ["numpy"])
    assert cache.imports("os sys") == (["book/x.py:3: ModuleNotFoundError: No module named 'numpy'"], ["numpy"])
    assert cache.imports("os sys numpy") is None
    assert BuildCache(tmp_path, "code-2").imports("os sys") is None


def test_a_kind_replaced_in_this_process_changes_what_the_cache_is_keyed_on(monkeypatch: pytest.MonkeyPatch) -> None:
    """A hook (or any code) that replaces a registered kind's render changes the kinds' part of the key, and only
    that: the same kinds give the same key, call after call."""
    from mkdocs_calculators.blocks import kinds
    from mkdocs_calculators.blocks.calculator import CalculatorKind

    before = kinds_code(kinds())
    assert kinds_code(kinds()) == before
    assert [line.split()[0] for line in before] == ["calculator", "quiz", "exercise", "table"]
    original = CalculatorKind.render

    def render(self: CalculatorKind, model: Any, block: Any) -> str:
        return original(self, model, block) + "<p>hooked</p>"

    monkeypatch.setattr(CalculatorKind, "render", render)
    after = kinds_code(kinds())
    assert after[0] != before[0] and after[1:] == before[1:]


def test_a_loaded_module_is_read_as_it_was_when_first_seen(tmp_path: Path) -> None:
    """MkDocs loads a `hooks:` file once per process: an edit on disk afterwards is not the code that runs, and is not
    in the key until the file is loaded again (a new module object)."""
    hook = tmp_path / "hook.py"
    hook.write_text("MARK = 1\n", encoding="utf-8")

    def load_hook() -> ModuleType:
        spec = importlib.util.spec_from_file_location("a_hook", hook)
        assert spec is not None and spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        return module

    first = load_hook()
    seen = loaded_module(first)
    hook.write_text("MARK = 2\n", encoding="utf-8")
    assert loaded_module(first) == seen  # still the code that runs
    assert loaded_module(load_hook()) != seen  # loaded again: the edited file


def test_the_packages_pages_are_kept_for_the_same_code_and_slot(tmp_path: Path) -> None:
    cache = BuildCache(tmp_path, "code-1")
    assert cache.generated_pages("built") is None
    pages = {"reference/calculators.md": "# Calculators\n", "progress.md": "# Progress\n"}
    cache.keep_generated_pages("built", pages)
    assert cache.generated_pages("built") == pages
    assert cache.generated_pages("written") is None  # another slot token: the progress page differs
    assert BuildCache(tmp_path, "code-2").generated_pages("built") is None  # other code or data
    assert BuildCache(None, "code-1").generated_pages("built") is None  # `cache: false`
    (tmp_path / "generated.json").write_text('{"key": "x", "pages": 3}', encoding="utf-8")
    assert cache.generated_pages("built") is None


def test_a_key_tells_its_parts_apart() -> None:
    """Parts that run together or print alike make other keys: a page's text split elsewhere, a missing file (None)
    and one whose text is "None", a front matter of 1 line and the text "1"."""
    from mkdocs_calculators.extras.build_cache import _digest

    keys = {_digest("ab", "c"), _digest("a", "bc"), _digest("abc"), _digest(None), _digest("None"), _digest(1)}
    assert len(keys | {_digest("1")}) == 7
    assert _digest("é", 3, None) == _digest("é", 3, None) and len(_digest("x")) == 64
