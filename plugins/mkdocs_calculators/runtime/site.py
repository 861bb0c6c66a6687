"""Putting the browser runtime into the built site: Pyodide and Vega from node_modules, the wheel, our own assets.

Layout under the site (`assets/calculators/`):

    entry.js, runtime.js, worker.js, vega.js, ...  the plugin's shared front end, from assets/
    kinds.js                                 entry.js's mount table, from the registered kinds (mount_table)
    calculator.js, quiz.js, exercise.js, ...   each kind's browser files, from its folder (blocks/quiz/, a book's
                                             kind's own), written flat beside them (exercise_worker.js: readers' code,
                                             in a Pyodide of its own)
    build-info.js                            this build's values, which those scripts import (layout.BuildInfo)
    strings.js                               the plugin's words in the book's language (layout.BookStrings, i18n/)
    calculators.css                          the styles every page needs (PAGE_STYLES, and each kind's page_styles:
                                             quiz.css), as one file; it and exercise.css compacted (stylesheets.py)
    calckit-<version>+<hash>-py3-none-any.whl, <package>-<version>+<hash>-...whl    calckit, and the book's package
    snapshot-<key>.bin                           Python's memory with the package imported, gzipped (snapshot.py)
    exercise-snapshot-<key>.bin                  the same with calckit's exercise runner alone, for exercise_worker.js
    pyodide/                                                                       Pyodide core, as npm ships it
    vega/                                                                          vega, vega-lite, vega-embed
    editor/                                 CodeMirror, for exercises: one module per package, imports rewritten
"""

from __future__ import annotations

import json
import re
import shutil
from collections.abc import Iterable
from importlib import resources
from pathlib import Path
from typing import Any

from mkdocs.exceptions import PluginError

import calckit
from calckit.book import Book

from ..blocks import BlockKind, kinds
from ..blocks.hooks import kind_folder
from ..i18n import ENGLISH, Strings
from ..sandbox.compute_process import DEFAULT_LIMIT
from .dependencies import Dependency, dependency_wheel
from .digests import KEPT_DIGESTS, copied
from .layout import (
    ASSETS,
    BUILD_INFO,
    EDITOR_DIR,
    ENTRY_SCRIPT,
    KINDS_MODULE,
    RUNTIME_CACHE_PREFIX,
    SERVICE_WORKER,
    STRINGS_MODULE,
    STYLESHEET,
    VENDORED,
    WORKER_FETCHES,
    BookStrings,
    BuildInfo,
)
from .service_worker import worker_cached
from .snapshot import EXERCISE_SNAPSHOT_GLOB, SNAPSHOT_GLOB, provide_exercise_snapshot, provide_snapshot
from .stylesheets import compact_css
from .wheel import build_wheel

PLUGIN = (__package__ or "mkdocs_calculators").partition(".")[0]  # the browser's shared files are in its assets/

__all__ = [
    "ASSETS",
    "ENTRY_SCRIPT",
    "LIVE_MARK",
    "STYLESHEET",
    "check_node_modules",
    "kind_files",
    "kinds_module",
    "mount_table",
    "write_runtime",
]

# In every page's head: <html> says, before the body is parsed, that the components' scripts will run, so that the
# styles for a page waiting for them (quiz.css: a long quiz shows only its first question) apply from the first style
# pass. entry.js cannot say it in time: it runs after the parse, and Material's script at the end of the body styles
# the whole page before that (lesson 102's 20-question quiz put 2,600 elements into that pass). If entry.js never
# runs (it failed to load), the page says so once parsed, and shows what the build wrote.
# It also listens to popstate before Material's script does, for entry.js (calculatorsOldAnchor): an address changed
# on the page to a quiz's old anchor (#quiz-2) is pointed at its new one before Material reads it, which it would
# otherwise target again a moment later, pushing the old one back into the history.
LIVE_MARK = (
    "<script>(function(){var h=document.documentElement;if(location.protocol==='file:')return;"
    "h.classList.add('calculators-live');document.addEventListener('DOMContentLoaded',function(){"
    "if(!h.classList.contains('calculators-entry'))h.classList.add('calculators-static')});"
    "addEventListener('popstate',function(){var f=window.calculatorsOldAnchor;if(f)f()})})()</script>"
)
# The stylesheets in assets/ that every page needs, written into the site as that one file with the kinds' own
# (`Browser.page_styles`, quiz.css), which come after calculators.css and before progress.css and print.css: each
# stylesheet a page's head links is one more request before a phone's first paint. Exercises load exercise.css
# themselves.
PAGE_STYLES = ("calculators.css", "progress.css", "print.css")
# The exercises' code editor, CodeMirror 6: ES modules that import each other by package name. Each is written flat
# into editor/ with those names rewritten to the files beside it, so the browser loads them without a bundler or an
# import map; only pages with an exercise load them (exercise.js, through editor.js).
EDITOR_MODULES = {
    "@codemirror/state": "dist/index.js",
    "@codemirror/view": "dist/index.js",
    "@codemirror/language": "dist/index.js",
    "@codemirror/commands": "dist/index.js",
    "@codemirror/autocomplete": "dist/index.js",
    "@codemirror/lang-python": "dist/index.js",
    "@codemirror/streamparser": "dist/index.js",
    "@lezer/common": "dist/index.js",
    "@lezer/highlight": "dist/index.js",
    "@lezer/lr": "dist/index.js",
    "@lezer/python": "dist/index.js",
    "@marijn/find-cluster-break": "src/index.js",
    "style-mod": "src/style-mod.js",
    "w3c-keyname": "index.js",
    "crelt": "index.js",
}
_IMPORTED = re.compile(r"""^((?:import|export)\b[^\n]*?\bfrom\s*|import\s*)(['"])([^'"./][^'"]*)\2""", re.MULTILINE)


def editor_file(package: str) -> str:
    """The site path (under ASSETS) of a vendored editor package: '@codemirror/view' is editor/codemirror-view.js."""
    return f"{EDITOR_DIR}/{package.removeprefix('@').replace('/', '-')}.js"


def _editor_sources(node_modules: Path) -> dict[str, Path]:
    return {editor_file(package): node_modules / package / file for package, file in EDITOR_MODULES.items()}


def _linked(text: str) -> str:
    """An editor module with its imports of the other packages pointed at their files beside it."""

    def link(match: re.Match[str]) -> str:
        package = match[3]
        if package not in EDITOR_MODULES:
            raise PluginError(f"calculators: the editor's modules import '{package}', which EDITOR_MODULES lacks")
        return f"{match[1]}{match[2]}./{editor_file(package).removeprefix(EDITOR_DIR + '/')}{match[2]}"

    return _IMPORTED.sub(link, text)


def _vendored_sources(node_modules: Path) -> dict[str, Path]:
    """Site path (under ASSETS) -> file in node_modules."""
    sources = {f"pyodide/{name}": node_modules / "pyodide" / name for name in VENDORED["pyodide"]}
    sources.update({f"vega/{Path(name).name}": node_modules / name for name in VENDORED["vega"]})
    return sources


def check_node_modules(node_modules: Path) -> None:
    sources = [*_vendored_sources(node_modules).values(), *_editor_sources(node_modules).values()]
    missing = [str(path) for path in sources if not path.is_file()]
    if missing:
        raise PluginError(
            f"calculators: the browser runtime is not installed ({missing[0]} is missing); run `npm ci` "
            "in the folder of mkdocs.yml, which installs the versions its package-lock.json pins"
        )


def _copy(source: Path, target: Path, node_modules: Path) -> None:
    """Copy unless `target` already holds the same file (serve rebuilds skip 14 MB of unchanged runtime); its digest is
    the source's, worked out once (service_worker.copied)."""
    if not (
        target.exists()
        and target.stat().st_size == source.stat().st_size
        and target.stat().st_mtime >= source.stat().st_mtime
    ):
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(source, target)
    copied(source, target, node_modules / KEPT_DIGESTS)


def _write_if_changed(target: Path, text: str) -> None:
    if not target.is_file() or target.read_text(encoding="utf-8") != text:
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(text, encoding="utf-8")


def build_info_module(info: BuildInfo | BookStrings, declared: str = "BuildInfo") -> str:
    """The ES module BUILD_INFO (or STRINGS_MODULE): one `export const` for each value, as JSON."""
    head = f"// Written by mkdocs_calculators for this build: do not edit (layout.py's {declared} says what each is)."
    return "\n".join([head, *(f"export const {name} = {json.dumps(value)};" for name, value in info.items()), ""])


def mount_table(kinds: Iterable[BlockKind[Any]]) -> list[dict[str, Any]]:
    """entry.js's mount table: one row for each kind with a browser half, in the registry's order."""
    return [kind.browser.mount_entry() for kind in kinds if kind.browser is not None]


def kinds_module(kinds: Iterable[BlockKind[Any]]) -> str:
    """The ES module KINDS_MODULE, which entry.js imports: `kinds`, the mount table."""
    head = "// Written by mkdocs_calculators from the registered block kinds: do not edit (site.py's mount_table)."
    return f"{head}\nexport const kinds = {json.dumps(mount_table(kinds), indent=1)};\n"


def kind_files(kinds: Iterable[BlockKind[Any]]) -> dict[str, Path]:
    """Site file name (under ASSETS) -> file, for every kind's browser files: the .js and .css files in its folder.
    Two files of one name (a book's kind's and a built-in's, or the plugin's shared ones) would overwrite each other
    in the site: PluginError."""
    shared = {asset.name for asset in resources.files(PLUGIN).joinpath("assets").iterdir()}
    shared |= {BUILD_INFO, KINDS_MODULE, STRINGS_MODULE, Path(STYLESHEET).name}  # written by the build
    found: dict[str, Path] = {}
    for kind in kinds:
        if kind.browser is None:
            continue
        folder = kind_folder(kind)
        files = sorted(path for path in folder.iterdir() if path.suffix in (".js", ".css") and path.is_file())
        if kind.browser.module not in {path.name for path in files}:
            raise PluginError(
                f"{folder / kind.browser.module}: the {kind.name} kind's browser module is not in its folder"
            )
        for path in files:
            if path.name in shared or path.name in found:
                first = found.get(path.name, Path(__package__ or "", "assets", path.name))
                raise PluginError(
                    f"{path}: the {kind.name} kind's file has the name of {first}: both would be "
                    f"assets/calculators/{path.name} in the site (rename the kind's)"
                )
            found[path.name] = path
    return found


def write_runtime(
    site_dir: Path,
    node_modules: Path,
    book: Book,
    *,
    snapshot: bool = True,
    serving: bool = False,
    time_limit: float = DEFAULT_LIMIT,
    dependencies: tuple[Dependency, ...] = (),
    missing: tuple[str, ...] = (),
    strings: Strings = ENGLISH,
) -> list[str]:
    """Write everything the browser needs into the site, for `book`; return the wheels' file names.

    `snapshot`: also the memory snapshot (snapshot.py); `serving`: for `mkdocs serve`, which makes no snapshot (only
    reuses a cached one) and has no service worker; `time_limit`: seconds for one call of the book's code;
    `dependencies`: the distributions the book ships (browser_dependencies), each in a wheel before the book's;
    `missing`: modules the package imports that the browser lacks (a build that is not strict goes on), for which
    the worker puts stand-ins (calckit.stand_ins); `strings`: the book's language's words for readers (i18n/).
    """
    out = site_dir / ASSETS
    for relative, source in _vendored_sources(node_modules).items():
        _copy(source, out / relative, node_modules)
    for relative, source in _editor_sources(node_modules).items():
        _write_if_changed(out / relative, _linked(source.read_text(encoding="utf-8")))
    wheels = [
        build_wheel(Path(calckit.__file__).parent, calckit.__version__, out),
        *(dependency_wheel(dependency, out) for dependency in dependencies),
        build_wheel(book.directory, book.version, out),  # last: the worker checks that it is the book's
    ]
    for stale in out.glob("*.whl"):
        if stale not in wheels:
            stale.unlink()
    made = provide_snapshot(node_modules, wheels, book, out, create=not serving, limit=time_limit) if snapshot else None
    exercise = provide_exercise_snapshot(node_modules, wheels[0], book, out, create=not serving) if snapshot else None
    for glob, provided in ((SNAPSHOT_GLOB, made), (EXERCISE_SNAPSHOT_GLOB, exercise)):
        if provided is None:
            for stale_snapshot in out.glob(glob):
                stale_snapshot.unlink()
    info = BuildInfo(
        wheels=[wheel.name for wheel in wheels],
        bookPackage=book.package,
        snapshot=made.name if made else "",
        snapshotFor=made.made_for if made else "",
        exerciseSnapshot=exercise.name if exercise else "",
        exerciseSnapshotFor=exercise.made_for if exercise else "",
        cached=worker_cached(out, wheels, made) if not serving else {},
        missing=list(missing),
        serviceWorker="" if serving else SERVICE_WORKER,
        timeLimit=time_limit,
        pyodideFiles=list(WORKER_FETCHES),
        runtimeCache=RUNTIME_CACHE_PREFIX,
    )
    _write_if_changed(out / BUILD_INFO, build_info_module(info))
    words = BookStrings(language=strings.language, strings=strings.browser())
    _write_if_changed(out / STRINGS_MODULE, build_info_module(words, "BookStrings"))
    assets = resources.files(PLUGIN).joinpath("assets")
    registered = kinds()
    own = kind_files(registered)
    page_styles = [assets.joinpath(PAGE_STYLES[0])]
    page_styles += [own[name] for kind in registered if kind.browser for name in kind.browser.page_styles]
    page_styles += [assets.joinpath(name) for name in PAGE_STYLES[1:]]
    files: list[Any] = [asset for asset in assets.iterdir() if asset.name not in PAGE_STYLES]
    for asset in [*files, *own.values()]:
        if asset.name in {style.name for style in page_styles}:
            continue
        text = asset.read_text(encoding="utf-8")
        _write_if_changed(out / asset.name, compact_css(text) if asset.name.endswith(".css") else text)
    styles = "\n".join(compact_css(style.read_text(encoding="utf-8")) for style in page_styles)
    _write_if_changed(out / Path(STYLESHEET).name, styles)
    _write_if_changed(out / KINDS_MODULE, kinds_module(registered))
    return [wheel.name for wheel in wheels]
