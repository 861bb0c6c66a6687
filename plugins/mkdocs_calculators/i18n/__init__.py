"""The plugin's words for readers, in the book's language: one catalogue, read by the build and sent to the browser.

Every sentence, button, accessible name and announcement the plugin writes for a reader is a key in the catalogue,
one JSON file per language beside this module (`en.json` is the source; `fr.json`, `de.json`, ... translate it, as
Material's `partials/languages/*.html` translate its interface). A value is a text, with `{name}` placeholders, or,
where a count appears, its plural forms by CLDR category (`{"one": "...", "other": "..."}`, each with `{count}`),
chosen by Babel's plural rules here and `Intl.PluralRules` in the browser (assets/i18n.js), the same CLDR rules.

The language is the host's: `theme.language` under MkDocs (Material's), the same setting under Zensical. A language
the plugin lacks falls back key by key to English, as Material does; an author may replace any string and add a
language in the plugin's `strings` option (overrides.py checks them, each mistake at its line of mkdocs.yml).
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cache
from html import escape
from importlib import resources

from babel import Locale, UnknownLocaleError

__all__ = [
    "ENGLISH",
    "LANGUAGES",
    "SOURCE",
    "Entry",
    "Strings",
    "catalogue",
    "placeholders",
    "plural_categories",
    "strings_for",
]

Entry = str | dict[str, str]  # a text, or its plural forms by CLDR category
SOURCE = "en"  # the language every key is written in first, and the fallback for a key another language lacks
# The languages the plugin ships, each a file here: English, French, German, Spanish, Portuguese, Simplified Chinese,
# Japanese (Material's codes).
LANGUAGES = ("en", "fr", "de", "es", "pt", "zh", "ja")
_PLACEHOLDER = re.compile(r"\{(\w+)\}")


@cache
def catalogue(language: str) -> dict[str, Entry]:
    """The plugin's own strings in `language` as shipped ({} for a language it does not ship)."""
    if language not in LANGUAGES:
        return {}
    text = resources.files(__package__ or "").joinpath(f"{language}.json").read_text(encoding="utf-8")
    table: dict[str, Entry] = json.loads(text)
    return table


def placeholders(entry: Entry) -> set[str]:
    """The `{name}` placeholders an entry uses (in any of its forms)."""
    texts = entry.values() if isinstance(entry, dict) else [entry]
    return {name for text in texts for name in _PLACEHOLDER.findall(text)}


@cache
def locale(language: str) -> Locale:
    """Babel's locale for a language code as Material writes it (`pt-BR`, `zh-Hant`); English when Babel lacks it."""
    try:
        return Locale.parse(language.replace("-", "_"))
    except (UnknownLocaleError, ValueError):
        return Locale.parse(SOURCE)


@cache
def plural_categories(language: str) -> frozenset[str]:
    """The CLDR plural categories `language` tells apart for whole numbers ({'other'} for Chinese and Japanese)."""
    rule = locale(language).plural_form
    return frozenset(rule(count) for count in range(0, 1001))


@dataclass(frozen=True)
class Strings:
    """The strings of one language, the author's overrides on top: `strings("quiz.check")`, `strings.plural(...)`."""

    language: str
    table: Mapping[str, Entry] = field(default_factory=dict, repr=False)

    def entry(self, key: str) -> Entry:
        if key in self.table:
            return self.table[key]
        return catalogue(SOURCE)[key]  # KeyError for a key the catalogue lacks: a bug the tests catch

    def __call__(self, key: str, /, **params: object) -> str:
        """The text of `key` with its placeholders filled."""
        entry = self.entry(key)
        text = entry if isinstance(entry, str) else entry.get("other", "")
        return _fill(text, params)

    def plural(self, key: str, count: int, /, **params: object) -> str:
        """The form of `key` for `count` (in `{count}`), by the language's plural rules."""
        entry = self.entry(key)
        if isinstance(entry, str):
            return _fill(entry, {"count": count, **params})
        category = locale(self.language).plural_form(count)
        return _fill(entry.get(category, entry.get("other", "")), {"count": count, **params})

    def html(self, key: str, /, **params: object) -> str:
        """The text of `key`, escaped for HTML (an author's override may hold any character)."""
        return escape(self(key, **params))

    def markup(self, key: str, /, count: int | None = None, **html: str) -> str:
        """HTML: the text of `key` escaped, its placeholders filled with `html` as given (the caller's markup, its
        text escaped); with `count`, the plural form for it."""
        entry = self.entry(key)
        if isinstance(entry, dict):
            category = "other" if count is None else locale(self.language).plural_form(count)
            entry = entry.get(category, entry.get("other", ""))
        return _fill(escape(entry, quote=False), {"count": count, **html})

    def number(self, text: str) -> str:
        """`text` with its numbers written the language's way (`1 400,5`, `2,5 millions` in French): numbers.py."""
        from .numbers import SCALES, worded

        return worded(text, self.language, {scale: self.entry(f"number.{scale}") for scale in SCALES})

    def digest(self) -> str:
        """What a build cache's key takes of the strings: a page rendered in other words is rendered again."""
        return "strings " + hashlib.sha256(json.dumps([self.language, self.table], sort_keys=True).encode()).hexdigest()

    def browser(self) -> dict[str, Entry]:
        """Every key, as the browser's scripts look them up (the build's values: runtime/layout.py's BuildInfo)."""
        return {key: self.entry(key) for key in catalogue(SOURCE)}


def _fill(text: str, params: Mapping[str, object]) -> str:
    return _PLACEHOLDER.sub(lambda match: str(params.get(match[1], match[0])), text)


def strings_for(language: str, overrides: Mapping[str, Entry] | None = None) -> Strings:
    """The strings of `language` (the plugin's own, English for what it lacks), with an author's `overrides`."""
    shipped = catalogue(language) or catalogue(language.split("-")[0])  # pt-BR: Portuguese, where no pt-BR ships
    table: dict[str, Entry] = {**catalogue(SOURCE), **shipped, **(overrides or {})}
    return Strings(language or SOURCE, table)


ENGLISH = strings_for(SOURCE)
