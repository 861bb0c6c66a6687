"""What an author writes inside a block (a quiz's questions, options and explanations; an exercise's prompt and hints)
as Markdown, rendered with the page's own extensions: `code`, emphasis, links, lists, code blocks and `$math$`, which
the build then typesets like the page's (extras/formulas.py: the HTML goes into the page's content before its math is
collected).

Raw HTML stays text (the design brief's R6): a question that says `<T>` or `a < b` shows it, and `<script>` in a quiz
is not run. Links keep to the schemes a page may link with (http, https, mailto, relative): `javascript:` and `data:`
addresses are dropped, the link's words kept.

Each host gives the extensions: MkDocs its `markdown_extensions` and `mdx_configs`, plus its own link rewriting for
the page (`[the roofline](roofline.md)` becomes `../roofline/`); Zensical the extensions of the Markdown instance that
renders the page, each made afresh with its configuration. A page gets its own Markdown instance, made on first use
(about half a millisecond; each text then takes about 0.2 ms).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from typing import Any
from xml.etree.ElementTree import Element

from markdown import Markdown
from markdown.treeprocessors import Treeprocessor

__all__ = ["PLAIN_TEXT", "AuthoredText", "is_line"]

_ONE_PARAGRAPH = re.compile(r"<p>((?:(?!</?p[ >]).)*)</p>", re.DOTALL)
_SAFE_SCHEME = re.compile(r"^(?:[a-z][a-z0-9+.-]*:)", re.IGNORECASE)
_SAFE = ("http:", "https:", "mailto:")
_BLOCK_TAG = re.compile(r"<(?:p|div|pre|ul|ol|table|blockquote|h[1-6]|dl|hr|details|figure)[ >/]")


class _SafeLinks(Treeprocessor):  # type: ignore[misc]
    """Drops a link's or an image's address whose scheme could run script (javascript:, vbscript:, data:)."""

    def run(self, root: Element) -> None:
        for element in root.iter():
            for name in ("href", "src"):
                address = (element.get(name) or "").strip()
                scheme = _SAFE_SCHEME.match(address)
                if scheme and scheme[0].lower() not in _SAFE:
                    del element.attrib[name]


class AuthoredText:
    """Markdown for one page's blocks. `extensions` and `configs` as Python-Markdown takes them; `prepare` adds what
    a host adds to its own instance (MkDocs's link rewriting for the page)."""

    def __init__(
        self,
        extensions: Sequence[Any] = (),
        configs: Mapping[str, Mapping[str, Any]] | None = None,
        prepare: Callable[[Markdown], None] | None = None,
    ) -> None:
        self._extensions = list(extensions)
        self._configs = dict(configs or {})
        self._prepare = prepare
        self._md: Markdown | None = None

    def _markdown(self) -> Markdown:
        if self._md is None:
            md = Markdown(extensions=self._extensions, extension_configs=self._configs)
            # Raw HTML is text (R6): no block of it, no inline tag. md_in_html registers its own block reader under
            # the same name.
            for registry, name in ((md.preprocessors, "html_block"), (md.inlinePatterns, "html")):
                if name in registry:
                    registry.deregister(name)
            md.treeprocessors.register(_SafeLinks(md), "calculators_safe_links", -1)  # after every other
            if self._prepare is not None:
                self._prepare(md)
            self._md = md
        self._md.reset()
        return self._md

    def block(self, text: str) -> str:
        """`text` as blocks: paragraphs, lists, code blocks."""
        return self._markdown().convert(text) if text.strip() else ""

    def inline(self, text: str) -> str:
        """`text` as one paragraph's content, for a place that holds a line (a label, a button, a legend); text that
        makes more than one paragraph, or another block, comes back as blocks."""
        html = self.block(text)
        one = _ONE_PARAGRAPH.fullmatch(html.strip())
        return one[1] if one else html


def is_line(html: str) -> bool:
    """Whether HTML from `AuthoredText.inline` is one line (no block element in it)."""
    return not _BLOCK_TAG.search(html)


# For a page whose host says nothing of its extensions: MkDocs's own defaults, less the headings' anchors.
PLAIN_TEXT = AuthoredText(["fenced_code", "tables"])
