"""What one build worked out that the next may reuse: each page's rendered blocks, and the imports of the book's
package that a reader's browser lacks.

The two cost most of what the plugin adds to a build. Rendering a page's blocks runs the book's code: every compute,
and each exercise's solution on its cases. The import check parses every module of the package. Each result is kept
with a digest of everything it was made from, and reused only while that digest is the same:

- the code that made it: every file in the book's package folder (its data as much as its modules), the modules of
  calckit and of this plugin, the version of the Python that ran them and of each browser dependency, and the time
  limit (a lower one may stop code that finished before);
- for a page: its Markdown, its front matter, its place (its path, its file, its address), and each file its blocks
  read (a quiz file beside it), whose digests are checked again on reuse;
- for the import check: the modules the reader's browser has (imports.BrowserModules).

A page whose render had any problem, a warning included, is never kept: whether the book's code beat its time limit
depends on the machine's load, and every build must say every problem. Results live beside mkdocs.yml, in
`.cache/mkdocs-calculators/` (Material's plugins keep theirs in `.cache/` too), one file per page; each file is
written whole or not at all, and one that cannot be read is ignored. The plugin's `cache: false` turns reuse off,
for a book whose code reads files from outside its package folder.
"""

from __future__ import annotations

import hashlib
import json
import os
import sys
from collections.abc import Iterable
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from .fences import Fence
from .page import RenderedBlock, RenderedPage

__all__ = ["CACHE_DIR", "BuildCache", "PagePlace", "code_digest"]

CACHE_DIR = Path(".cache") / "mkdocs-calculators"  # under the folder of mkdocs.yml
_FORMAT = 1  # raised when what an entry holds changes shape


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
    def key(self) -> tuple[object, ...]:
        return self.path, self.source, self.url, self.offset, self.file_text


def _digest(*parts: object) -> str:
    return hashlib.sha256(json.dumps(parts, ensure_ascii=False).encode()).hexdigest()


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
                RenderedBlock(Fence(**block["fence"]), block["kind"], block["html"], block["searchable"])
                for block in entry["blocks"]
            ]
        except (KeyError, TypeError, AttributeError):
            return None
        return RenderedPage(markdown, blocks)

    def keep_page(self, rendered: RenderedPage, place: PagePlace, reads: Iterable[str]) -> None:
        """Keep `rendered` (made at `place`, having read the files `reads`) unless it has a problem."""
        if rendered.problems:
            return
        entry = {
            "key": _digest(self.code, rendered.source, *place.key),
            "reads": {path: _file_digest(path) for path in reads},
            "blocks": [
                {"fence": asdict(block.fence), "kind": block.kind, "html": block.html, "searchable": block.searchable}
                for block in rendered.blocks
            ],
        }
        self._save(place.entry, entry)

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
