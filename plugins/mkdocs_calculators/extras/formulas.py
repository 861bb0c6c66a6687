"""Math typeset at build: `$...$` and `$$...$$` in pages become KaTeX's HTML with MathML, so that a reader's browser
runs no math script and a screen reader reads the MathML.

pymdownx.arithmatex (generic mode) finds the formulas, minding code spans, code blocks, escaped dollars and prices
(`$5 and $6` is no formula: a formula's dollar signs hug it), and wraps each in `<span class="arithmatex">\\(...\\)`
or `<div class="arithmatex">\\[...\\]`. This module collects them from every page's content, typesets all the build's
new ones in one Node process (katex.mjs, KaTeX pinned in package.json), caches the results by content (in memory
and under node_modules/.cache/), and puts them in place as each page is written: search indexes the TeX source, not
KaTeX's glyph soup. A formula KaTeX cannot parse is `docs/page.md:LINE: math: KaTeX's message`.

KaTeX's stylesheet (with our few rules for dark mode and narrow screens), its woff2 fonts and its copy-tex script (a
copied formula is its TeX, and a copied sentence keeps its inline math between dollars) are copied into the site
under assets/calculators/katex/, linked only from pages that have math, and precached by the service worker.

KaTeX's fonts are declared by a few lines of script (the CSS Font Loading API), not by @font-face rules in its
stylesheet: as Material's script starts, Chromium parses every stylesheet of the page again, and a stylesheet's
@font-face rules then count as new fonts, which lays the whole page out a second time ("Fonts changed" in a trace:
chapter 27 laid out 10,200 objects at load, 6,200 with the fonts declared by script). Declared so, each font still
loads only when a formula uses it. The script is in the head, and again at the end of the content for instant
navigation (which runs no script of a new page's head). For a reader without script, the stylesheet keeps the same
faces as @font-face rules under `@media (scripting: none)`, which Chromium does not count as the page's fonts otherwise
(a <noscript> link would not do: instant navigation reads the next page with script off, and put its link in place).
"""

from __future__ import annotations

import hashlib
import html
import json
import os
import re
import shutil
import subprocess
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path

from ..runtime.layout import NODE_CACHE
from ..runtime.stylesheets import compact_css

__all__ = ["KATEX_CSS", "Formulas", "arithmatex_problem", "display_height"]

SCRIPT = Path(__file__).with_name("katex.mjs")
KATEX_DIR = "assets/calculators/katex"
KATEX_CSS = f"{KATEX_DIR}/katex.css"
COPY_TEX = "copy-tex.mjs"  # KaTeX's contrib script, beside its stylesheet: a copied formula is its TeX
TIMEOUT = 120  # seconds for one build's formulas: thousands take a few seconds
_SPAN = re.compile(r'<(span|div) class="arithmatex">(.*?)</\1>', re.DOTALL)
_FONT_FALLBACKS = re.compile(r',url\([^)]*\.(?:woff|ttf)\) format\("(?:woff|truetype)"\)')
_FONT_FACE = re.compile(r"@font-face\{([^}]*)\}")
# Material's page content, to the end of its article: what instant navigation replaces, and whose scripts it runs again.
_CONTENT = re.compile(r'<article class="md-content__inner[^"]*">.*?(?=</article>)', re.DOTALL)
# KaTeX sizes each run of a formula with an empty strut: its height and how far below the baseline it reaches, in em.
_STRUT = re.compile(r'class="katex-strut" style="height:([0-9.]+)em;(?:vertical-align:(-?[0-9.]+)em;)?')
# The line box of a display formula is at least KaTeX's line (line-height 1.2 in its fonts): measured in Chromium
# as 0.91em above the baseline and 0.35em below at most (0.29em to 0.35em as the letters' font varies).
_LINE_ABOVE, _LINE_BELOW = 0.91, 0.35


@dataclass(frozen=True)
class Formula:
    tex: str
    display: bool

    def key(self) -> str:
        return hashlib.sha256(f"{int(self.display)}{self.tex}".encode()).hexdigest()[:24]


@dataclass
class _Page:
    path: str  # docs/page.md, for messages
    formulas: list[tuple[Formula, int]] = field(default_factory=list)  # each with its line in the source


def arithmatex_problem(extensions: Sequence[object], configs: Mapping[str, Mapping[str, object]]) -> str:
    """Why the site's arithmatex setup cannot feed the typesetting ("" when it can, or when the plugin adds it)."""
    if "pymdownx.arithmatex" in extensions and not configs.get("pymdownx.arithmatex", {}).get("generic"):
        return (
            "calculators: pymdownx.arithmatex needs `generic: true` in mkdocs.yml: the plugin typesets its formulas "
            "at build (MathJax's script mode would need a math script in every reader's browser)"
        )
    return ""


def _formula(tag: str, body: str) -> Formula:
    tex = html.unescape(body).strip()
    for opening, closing in (("\\(", "\\)"), ("\\[", "\\]"), ("$$", "$$"), ("$", "$")):
        if tex.startswith(opening) and tex.endswith(closing) and len(tex) >= len(opening) + len(closing):
            tex = tex[len(opening) : len(tex) - len(closing)]
            break
    return Formula(tex.strip(), display=tag == "div")


def _line_of(source: str, tex: str, start: int) -> tuple[int, int]:
    """The 1-based line of `tex` in the page's source, searching from `start`, and where the search goes on from."""
    needle = tex.splitlines()[0].strip() if tex.strip() else tex
    found = source.find(needle, start) if needle else -1
    if found < 0:
        found = source.find(needle) if needle else -1
    if found < 0:
        return 1, start
    return source.count("\n", 0, found) + 1, found + len(needle)


def display_height(katex_html: str) -> float:
    """A display formula's height in em of its font, from KaTeX's struts: the tallest part above the baseline and the
    deepest below it, each at least the line's own (within 0.06em of Chromium's, slightly above rather than below)."""
    struts = [(float(height), -float(align or 0)) for height, align in _STRUT.findall(katex_html)]
    above = max([_LINE_ABOVE] + [height - depth for height, depth in struts])
    below = max([_LINE_BELOW] + [depth for _, depth in struts])
    return round(above + below, 3)


def _font_faces(css: str) -> list[tuple[str, str, str, str]]:
    """KaTeX's fonts from its stylesheet's @font-face rules: (family, woff2 file, style, weight) each."""
    faces = []
    for rule in _FONT_FACE.findall(css):
        descriptors = dict(part.split(":", 1) for part in rule.split(";") if ":" in part)
        woff2 = re.search(r"url\(fonts/([\w.-]+\.woff2)\)", descriptors.get("src", ""))
        if woff2:
            family = descriptors["font-family"].strip("\"'")
            faces.append(
                (family, woff2[1], descriptors.get("font-style", "normal"), descriptors.get("font-weight", "400"))
            )
    return faces


def _fonts_script(faces: list[tuple[str, str, str, str]], fonts_url: str) -> str:
    """The script that declares KaTeX's fonts (the module's docstring says why), once per document: instant navigation
    runs it again on each page with math."""
    return (
        "<script>((base, faces) => { if (![...document.fonts].some((face) => face.family === "
        f"{json.dumps(faces[0][0])})) for (const [family, file, style, weight] of faces) document.fonts.add(new "
        'FontFace(family, `url(${base}${file})`, { style, weight, display: "block" })) })'
        f"({json.dumps(fonts_url)}, {json.dumps(faces, separators=(',', ':'))})</script>"
    )


def _copy_script(url: str) -> str:
    """The script that has copying a formula give its TeX, and a sentence its inline math between dollars (KaTeX's
    copy-tex, which listens on the document): a module, so run once per document however often instant navigation
    runs this line again."""
    return f"<script>import(new URL({json.dumps(url)}, document.baseURI).href)</script>"


class Formulas:
    """The build's formulas: collected page by page, typeset together, put in place as pages are written."""

    def __init__(self, node_modules: Path) -> None:
        self.node_modules = node_modules
        self._pages: dict[str, _Page] = {}  # by the page's source path in docs/
        self._done: dict[str, str] = {}  # Formula.key() -> KaTeX's HTML (kept across `mkdocs serve` rebuilds)
        self._failed: dict[str, str] = {}  # Formula.key() -> KaTeX's message, for this build
        self._loaded_cache = False
        self._faces: list[tuple[str, str, str, str]] | None = None  # KaTeX's fonts, read once from its stylesheet

    @property
    def used(self) -> bool:
        return any(page.formulas for page in self._pages.values())

    def collect(self, src_uri: str, path: str, content_html: str, source: Callable[[], str]) -> None:
        """Note the formulas that arithmatex left in a page's content; `source` gives the page's file, front matter
        and all, so that lines count as an editor shows them (read only for a page with math)."""
        page = _Page(path)
        start = 0
        found = list(_SPAN.finditer(content_html))
        text = source() if found else ""
        for match in found:
            formula = _formula(match[1], match[2])
            line, start = _line_of(text, formula.tex, start)
            page.formulas.append((formula, line))
        if page.formulas:
            self._pages[src_uri] = page
        else:
            self._pages.pop(src_uri, None)

    def typeset(self) -> list[str]:
        """Typeset every formula not yet done, in one Node process; every problem as `docs/page.md:LINE: math: ...`."""
        self._failed = {}
        if not self.used:
            return []
        self._load_cache()
        wanted = {formula.key(): formula for page in self._pages.values() for formula, _ in page.formulas}
        new = [formula for key, formula in wanted.items() if key not in self._done]
        if new:
            problem = self._run(new)
            if problem:
                first = next(page for page in self._pages.values() if page.formulas)
                return [f"{first.path}:{first.formulas[0][1]}: math: {problem}"]
            self._save_cache(set(wanted))
        return [
            f"{page.path}:{line}: math: {self._failed[formula.key()]}"
            for page in self._pages.values()
            for formula, line in page.formulas
            if formula.key() in self._failed
        ]

    def _run(self, formulas: list[Formula]) -> str:
        katex = self.node_modules / "katex"
        if not (katex / "package.json").is_file():
            return f"KaTeX is not installed ({katex} is missing); run `npm ci` (package.json pins katex)"
        node = shutil.which("node")
        if node is None:
            return "typesetting math needs Node.js (20 or later) on PATH, which runs KaTeX at build"
        payload = json.dumps([{"tex": formula.tex, "display": formula.display} for formula in formulas])
        try:
            result = subprocess.run(
                [node, str(SCRIPT), str(katex.resolve())],
                input=payload,
                capture_output=True,
                text=True,
                encoding="utf-8",
                timeout=TIMEOUT,
                check=False,
            )
        except subprocess.TimeoutExpired:
            return f"KaTeX did not finish typesetting {len(formulas)} formulas within {TIMEOUT} s"
        except OSError as error:
            return f"could not start Node.js to typeset math ({error})"
        if result.returncode != 0:
            detail = (result.stderr.strip().splitlines() or ["no message"])[-1]
            return f"KaTeX stopped (node exited with {result.returncode}: {detail})"
        for formula, reply in zip(formulas, json.loads(result.stdout), strict=True):
            if "html" in reply:
                self._done[formula.key()] = reply["html"]
            else:
                self._failed[formula.key()] = reply["error"]
        return ""

    def page_html(self, src_uri: str, output: str, stylesheet: str) -> str:
        """The written page with its formulas typeset and KaTeX's stylesheet linked (`stylesheet`: its address from
        the page); pages without math are left as they are."""
        if src_uri not in self._pages:
            return output

        def typeset(match: re.Match[str]) -> str:
            formula = _formula(match[1], match[2])
            done = self._done.get(formula.key())
            if done is None:
                return match[0]  # reported at build; `mkdocs serve` shows the source
            if formula.display:
                # Focusable: a formula wider than a phone scrolls sideways, in its own box, by keyboard too. Its
                # height stands in for it while it is off screen (math.css).
                height = f"--math-height: {display_height(done)}"
                return f'<div class="math-display" tabindex="0" style="{height}">{done}</div>'
            return done

        output = _SPAN.sub(typeset, output)
        folder = stylesheet.rsplit("/", 1)[0] + "/" if "/" in stylesheet else ""
        # The fonts' script in the head, so that they are declared before the page is first laid out, and again at the
        # end of the content, which instant navigation runs when it brings this page (it runs no script of the head),
        # in the same task as it puts the content in place. Not at the top of the content: the parser stops before a
        # script to let the page paint, and the first paint then showed the header alone; Lighthouse's mobile model
        # then counts everything requested before the text's own paint (Material's script, ours, their long tasks)
        # as holding up the largest paint (the roofline quiz: 2.9 s against 1.3 s for its first paint).
        script = _fonts_script(self._katex_faces(), folder + "fonts/") + _copy_script(folder + COPY_TEX)
        head = f'<link rel="stylesheet" href="{html.escape(stylesheet)}">{script}'
        output = output.replace("</head>", f"{head}</head>", 1)
        content = _CONTENT.search(output)
        return output[: content.end()] + script + output[content.end() :] if content else output

    def _katex_faces(self) -> list[tuple[str, str, str, str]]:
        if self._faces is None:
            self._faces = _font_faces(
                (self.node_modules / "katex" / "dist" / "katex.min.css").read_text(encoding="utf-8")
            )
        return self._faces

    def write_assets(self, site_dir: Path) -> None:
        """KaTeX's stylesheet (woff2 fonts only: every browser we serve reads them) and its fonts, into the site."""
        if not self.used:
            return
        source = self.node_modules / "katex" / "dist"
        target = site_dir / KATEX_DIR
        (target / "fonts").mkdir(parents=True, exist_ok=True)
        css = _FONT_FALLBACKS.sub("", (source / "katex.min.css").read_text(encoding="utf-8"))
        ours = compact_css(resources.files(__package__).joinpath("math.css").read_text(encoding="utf-8"))
        faces = "".join(f"@font-face{{{rule}}}" for rule in _FONT_FACE.findall(css))
        without_script = f"@media (scripting: none) {{\n{faces}\n}}\n"  # the module's docstring says why
        (target / "katex.css").write_text(_FONT_FACE.sub("", css) + "\n" + ours + without_script, encoding="utf-8")
        shutil.copyfile(source / "contrib" / "copy-tex.mjs", target / COPY_TEX)
        for font in sorted((source / "fonts").glob("*.woff2")):
            copy = target / "fonts" / font.name
            if not (copy.is_file() and copy.stat().st_size == font.stat().st_size):
                shutil.copyfile(font, copy)

    def _cache_file(self) -> Path | None:
        try:
            version = json.loads((self.node_modules / "katex" / "package.json").read_text(encoding="utf-8"))["version"]
        except (OSError, ValueError, KeyError):
            return None
        script = hashlib.sha256(SCRIPT.read_bytes()).hexdigest()[:12]  # new options, new results
        return self.node_modules / NODE_CACHE / f"katex-{version}-{script}.json"

    def _load_cache(self) -> None:
        if self._loaded_cache:
            return
        self._loaded_cache = True
        cache = self._cache_file()
        try:
            if cache and cache.is_file():
                self._done.update(json.loads(cache.read_text(encoding="utf-8")))
        except (OSError, ValueError):
            pass  # a damaged cache is made again

    def _save_cache(self, keys: set[str]) -> None:
        """Keep this build's formulas (a formula edited away leaves the cache with the build that dropped it)."""
        cache = self._cache_file()
        if cache is None:
            return
        try:
            cache.parent.mkdir(parents=True, exist_ok=True)
            partial = cache.with_suffix(f".{os.getpid()}.partial")
            kept = {key: self._done[key] for key in sorted(keys) if key in self._done}
            partial.write_text(json.dumps(kept), encoding="utf-8")
            partial.replace(cache)
        except OSError:
            pass  # a read-only node_modules: typeset again next time
