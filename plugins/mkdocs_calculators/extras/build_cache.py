"""What one build worked out that the next may reuse: each page's rendered blocks, the imports of the book's
package that a reader's browser lacks, and the pages the package makes (its reference pages).

These cost most of what the plugin adds to a build. Rendering a page's blocks runs the book's code: every compute,
and each exercise's solution on its cases. The import check parses every module of the package. The reference pages
take 60-75 ms of every build of this book (every calculator's fields described in the book's language, every chip's
figures). Each result is kept with a digest of everything it was made from, and reused only while that digest is the
same:

- the code that made it, as this process runs it: every file in the book's package folder (its data as much as its
  modules, imported afresh for every build), the modules of calckit and of this plugin as this process loaded them
  (`running_code`: `mkdocs serve` never imports them again, so an edit to them on disk is not the code that renders
  until serve restarts), the MkDocs hooks' files as loaded (MkDocs loads them once per process too), each block
  kind's `read` and `render` as registered (a hook may replace them), the version of the Python that ran them and of
  each browser dependency, and the time limit (a lower one may stop code that finished before);
- for a page (its blocks' HTML, and what each adds to the reader's progress page): its Markdown, its front matter,
  its place (its path, its file, its address), and each file its blocks read (a quiz file beside it), whose digests
  are checked again on reuse;
- for the import check: the modules the reader's browser has (imports.BrowserModules).

A page whose render had any problem, a warning included, is never kept: whether the book's code beat its time limit
depends on the machine's load, and every build must say every problem. Results live beside mkdocs.yml, in
`.cache/mkdocs-calculators/` (Material's plugins keep theirs in `.cache/` too), one file per page; each file is
written whole or not at all, and one that cannot be read is ignored. The plugin's `cache: false` turns reuse off,
for a book whose code reads files from outside its package folder.
"""

from __future__ import annotations

import functools
import hashlib
import json
import os
import sys
import weakref
from collections.abc import Iterable
from dataclasses import asdict, dataclass
from pathlib import Path
from types import CodeType, ModuleType
from typing import Any

from ..pages.fences import Fence
from ..pages.page import RenderedBlock, RenderedPage
from ..pages.progress_page import BlockItem
from ..pages.values import RenderedValue

__all__ = [
    "CACHE_DIR",
    "BuildCache",
    "PagePlace",
    "book_cache",
    "code_digest",
    "kinds_code",
    "loaded_module",
    "running_code",
]

CACHE_DIR = Path(".cache") / "mkdocs-calculators"  # under the folder of mkdocs.yml
_FORMAT = 2  # raised when what an entry holds changes shape (2: each block's progress item)


def code_digest(folders: Iterable[tuple[Path, str]], also: Iterable[str] = ()) -> str:
    """A digest of the files under each folder whose name matches its pattern (`*` or `*.py`), caches left out, of
    the Python that runs them, and of `also` (the versions of other code they run)."""
    digest = hashlib.sha256(json.dumps([_FORMAT, sys.version, *also]).encode())
    for folder, pattern in folders:
        for path in sorted(folder.rglob(pattern)):
            if "__pycache__" in path.parts or not path.is_file():
                continue
            digest.update(f"\0{path.relative_to(folder).as_posix()}\0".encode())
            digest.update(path.read_bytes())
    return digest.hexdigest()


@functools.cache
def running_code(*packages: str) -> str:
    """A digest of the modules of `packages` (imported already: calckit, the plugin) as this process runs them: their
    files as they were the first time this process asked, which is as they were imported. Python imports a module
    once per process, so an edit made on disk afterwards (under `mkdocs serve`) is not the code that renders: results
    made by this process are kept under the code it runs, and a build in a fresh process, running the edited code,
    does not reuse them. (A module first imported after the first ask is read as it is then: results made with it
    are kept under the older digest, which a fresh process does not match either.)"""
    folders = [(Path(sys.modules[name].__file__ or "").parent, "*.py") for name in packages]
    return code_digest(folders)


_LOADED: weakref.WeakKeyDictionary[ModuleType, str] = weakref.WeakKeyDictionary()


def loaded_module(module: ModuleType) -> str:
    """A digest of `module`'s file as it was when this process first asked about that module object (a module loaded
    from a file once per process, as MkDocs loads its `hooks:`); a module loaded again is another object, read
    again."""
    if module not in _LOADED:
        origin = module.__spec__.origin if module.__spec__ is not None else None
        _LOADED[module] = f"{module.__name__} {_file_digest(origin) if origin else ''}"
    return _LOADED[module]


def kinds_code(kinds: Iterable[Any]) -> list[str]:
    """What each registered block kind runs: its name, its class, and the code of its `read` and `render` as they
    are now (a hook, or another plugin, may have replaced them)."""
    described = []
    for kind in kinds:
        parts = [kind.name, f"{type(kind).__module__}.{type(kind).__qualname__}"]
        for method in ("read", "render"):
            bound = getattr(kind, method, None)
            function = getattr(bound, "__func__", bound)  # a method's function, or what replaced it on the kind
            code = getattr(function, "__code__", None)
            parts.append(_code_digest(code) if isinstance(code, CodeType) else repr(function))
        described.append(" ".join(parts))
    return described


def _code_digest(code: CodeType) -> str:
    """A digest of compiled code: its bytecode, names and constants, nested code included (not marshal's bytes,
    which vary between processes with the objects' reference counts)."""
    digest = hashlib.sha256(code.co_code)
    digest.update(repr((code.co_names, code.co_varnames, code.co_freevars, code.co_qualname)).encode())
    for constant in code.co_consts:
        digest.update(_code_digest(constant).encode() if isinstance(constant, CodeType) else repr(constant).encode())
    return digest.hexdigest()


@dataclass(frozen=True)
class PagePlace:
    """Where a page's Markdown comes from: what its render may depend on besides the Markdown and the code."""

    path: str  # as shown in messages: docs/lessons/roofline.md
    source: str | None  # its file
    url: str  # its address in the site
    offset: int  # lines of front matter above the Markdown
    file_text: str | None  # the whole file, front matter included

    @property
    def entry(self) -> str:
        """The page's file in the cache: one per page, replaced as the page changes."""
        return f"pages/{_digest(self.path, self.source, self.url)[:32]}.json"

    @property
    def key(self) -> tuple[str | int | None, ...]:
        return self.path, self.source, self.url, self.offset, self.file_text


def _digest(*parts: str | int | None) -> str:
    """A digest of `parts`, each told apart by its type and length: a page's Markdown and file go in as they are (JSON's
    escaping of a 150 kB page took a third of a warm build's page hook)."""
    digest = hashlib.sha256()
    for part in parts:
        data = part.encode("utf-8", "surrogatepass") if isinstance(part, str) else repr(part).encode()
        digest.update(f"{type(part).__name__} {len(data)}:".encode())
        digest.update(data)
    return digest.hexdigest()


def _file_digest(path: str) -> str:
    try:
        return hashlib.sha256(Path(path).read_bytes()).hexdigest()
    except OSError:
        return ""


class BuildCache:
    """Results kept in `folder` (None: nothing is kept or reused) for the code whose digest is `code`."""

    def __init__(self, folder: Path | None, code: str) -> None:
        self.folder = folder
        self.code = code

    def _load(self, name: str, key: str) -> dict[str, Any] | None:
        if self.folder is None:
            return None
        try:
            entry = json.loads((self.folder / name).read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return None
        return entry if isinstance(entry, dict) and entry.get("key") == key else None

    def _save(self, name: str, entry: dict[str, Any]) -> None:
        if self.folder is None:
            return
        target = self.folder / name
        try:
            target.parent.mkdir(parents=True, exist_ok=True)
            partial = target.with_name(f"{target.name}.{os.getpid()}.partial")
            partial.write_text(json.dumps(entry, ensure_ascii=False), encoding="utf-8")
            partial.replace(target)
        except OSError:
            pass  # a cache: a build that cannot keep its results is only slower next time

    # Pages.

    def page(self, markdown: str, place: PagePlace) -> RenderedPage | None:
        """The blocks of `markdown` at `place` as an earlier build of the same code rendered them, or None."""
        entry = self._load(place.entry, _digest(self.code, markdown, *place.key))
        if entry is None:
            return None
        try:
            if any(_file_digest(path) != digest for path, digest in entry["reads"].items()):
                return None
            blocks = [
                RenderedBlock(
                    Fence(**block["fence"]),
                    block["kind"],
                    block["html"],
                    block["searched"],
                    BlockItem(**block["progress"]) if block["progress"] is not None else None,
                )
                for block in entry["blocks"]
            ]
            values = [RenderedValue(**value) for value in entry["values"]]
        except (KeyError, TypeError, AttributeError):
            return None
        return RenderedPage(markdown, blocks, values=values)

    def keep_page(self, rendered: RenderedPage, place: PagePlace, reads: Iterable[str]) -> None:
        """Keep `rendered` (made at `place`, having read the files `reads`) unless it has a problem."""
        if rendered.problems:
            return
        entry = {
            "key": _digest(self.code, rendered.source, *place.key),
            "reads": {path: _file_digest(path) for path in reads},
            "blocks": [
                {
                    "fence": asdict(block.fence),
                    "kind": block.kind,
                    "html": block.html,
                    "searched": block.searched,
                    "progress": asdict(block.progress) if block.progress is not None else None,
                }
                for block in rendered.blocks
            ],
            "values": [asdict(value) for value in rendered.values],
        }
        self._save(place.entry, entry)

    # The pages the package makes.

    def generated_pages(self, token: str) -> dict[str, str] | None:
        """The package's pages (hosts/ship.py, generated_pages; `token`: the progress page's slot) as an earlier
        build of the same code made them, or None."""
        entry = self._load("generated.json", _digest(self.code, token))
        pages = entry.get("pages") if entry is not None else None
        if not isinstance(pages, dict) or not all(isinstance(text, str) for text in pages.values()):
            return None
        return {str(path): text for path, text in pages.items()}

    def keep_generated_pages(self, token: str, pages: dict[str, str]) -> None:
        self._save("generated.json", {"key": _digest(self.code, token), "pages": pages})

    # The book's version.

    def book_version(self) -> str | None:
        """The `__version__` of the book's package as an earlier build of the same code (the package's files among
        it) imported it, or None."""
        entry = self._load("book.json", _digest(self.code))
        version = entry.get("version") if entry is not None else None
        return version if isinstance(version, str) and version else None

    def keep_book_version(self, version: str) -> None:
        self._save("book.json", {"key": _digest(self.code), "version": version})

    # The progress page's list.

    def progress_list(self, state: str) -> str | None:
        """The progress page's list (pages/progress_page.py) as an earlier build of the same code made it for the
        same `state` (what the build saw of the book's quizzes and exercises, and the nav's order), or None."""
        entry = self._load("progress.json", _digest(self.code, state))
        html = entry.get("html") if entry is not None else None
        return html if isinstance(html, str) else None

    def keep_progress_list(self, state: str, html: str) -> None:
        self._save("progress.json", {"key": _digest(self.code, state), "html": html})

    # The import check.

    def imports(self, browser: str) -> tuple[list[str], list[str]] | None:
        """The import check's problems and missing modules for this code and the browser's modules `browser`."""
        entry = self._load("imports.json", _digest(self.code, browser))
        if entry is None:
            return None
        problems, missing = entry.get("problems"), entry.get("missing")
        if not isinstance(problems, list) or not isinstance(missing, list):
            return None
        return [str(problem) for problem in problems], [str(module) for module in missing]

    def keep_imports(self, browser: str, problems: list[str], missing: list[str]) -> None:
        self._save("imports.json", {"key": _digest(self.code, browser), "problems": problems, "missing": missing})


def book_cache(
    root: Path, directory: Path, hooks: list[ModuleType], versions: list[str], dependencies: Iterable[str]
) -> BuildCache:
    """Where a build of the book in `directory` reuses what an earlier one worked out from the same code: calckit's,
    the plugin's, its kinds' (a book's own too, with its folder's files), the site's hooks, the package's files, and
    `versions` (the time limit, which may stop code that finished before; the site's Markdown setup) with the
    installed version of each of the browser's `dependencies`."""
    from importlib import metadata

    import calckit  # noqa: F401  (imported: running_code reads it as loaded)

    from ..blocks import kinds
    from ..blocks.hooks import kind_folder
    from ..hosts.mkdocs_site import plugins_own

    versions = list(versions)
    for name in dependencies:
        try:
            versions.append(f"{name} {metadata.version(name)}")
        except metadata.PackageNotFoundError:
            versions.append(name)
    plugin = (__package__ or "mkdocs_calculators").partition(".")[0]
    code = [running_code("calckit", plugin), *kinds_code(kinds())]
    code += [loaded_module(hook) for hook in hooks]
    # A book's own kinds (entry points): the files of each one's folder, as its package's are.
    folders = [(directory, "*"), *((kind_folder(kind), "*") for kind in kinds() if not plugins_own(kind))]
    return BuildCache(root / CACHE_DIR, code_digest(folders, [*code, *versions]))
