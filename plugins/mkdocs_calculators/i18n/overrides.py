"""An author's own words for the plugin's strings: the `strings` option, checked at build.

    plugins:
      - calculators:
          strings:                      # replaces some of the plugin's words in the book's language
            quiz.check: Valider
            progress.count: {one: "{count} activité", other: "{count} activités"}

or `strings: strings.yml`, a file beside mkdocs.yml holding the same mapping (a language the plugin lacks gives every
key there). Each key must be one of the catalogue's (i18n/en.json), and keep the placeholders of the text it replaces;
a plural's forms are the language's CLDR categories. A mistake is `mkdocs.yml:LINE: message` (or the file's line),
found by reading the YAML's nodes: the file is not loaded, so MkDocs' own tags (`!ENV`) need no constructor.
"""

from __future__ import annotations

from difflib import get_close_matches
from pathlib import Path
from typing import Any

import yaml

from . import SOURCE, Entry, Strings, catalogue, placeholders, plural_categories, strings_for

__all__ = ["StringsProblemError", "book_strings", "check_strings", "untranslated"]


def _node_lines(text: str, where: tuple[str, ...]) -> tuple[int, dict[str, int]]:
    """The line of the mapping at `where` in a YAML text (`plugins` lists are searched for the named entry), and the
    line of each of its keys; (1, {}) when it is not found."""
    try:
        node = yaml.compose(text, Loader=yaml.SafeLoader)
    except yaml.YAMLError:
        return 1, {}
    line = 1
    for name in where:
        found = None
        if isinstance(node, yaml.SequenceNode):  # plugins: [- search, - calculators: {...}]
            for item in node.value:
                if isinstance(item, yaml.MappingNode):
                    found = next((value for key, value in item.value if key.value == name), None) or found
        elif isinstance(node, yaml.MappingNode):
            for key, value in node.value:
                if key.value == name:
                    found, line = value, key.start_mark.line + 1
        if found is None:
            return line, {}
        node = found
    keys = (
        {str(key.value): key.start_mark.line + 1 for key, _ in node.value} if isinstance(node, yaml.MappingNode) else {}
    )
    return line, keys


def check_strings(
    given: Any, language: str, shown: str, line: int, lines: dict[str, int]
) -> tuple[dict[str, Entry], list[str]]:
    """The author's strings that can be used, and a `shown:LINE: message` for each mistake in them."""
    source = catalogue(SOURCE)
    problems: list[str] = []
    if not isinstance(given, dict):
        return {}, [f"{shown}:{line}: strings: must be a mapping from the plugin's keys to texts (got {given!r})"]
    categories = plural_categories(language) | {"other"}
    kept: dict[str, Entry] = {}
    for key, value in given.items():
        at = f"{shown}:{lines.get(str(key), line)}: strings: "
        if key not in source:
            close = get_close_matches(str(key), list(source), n=1)
            hint = f" (did you mean '{close[0]}'?)" if close else " (docs/own-book.md lists the keys)"
            problems.append(f"{at}unknown key '{key}'{hint}")
            continue
        if isinstance(value, dict):
            wrong = sorted(set(map(str, value)) - categories)
            if wrong or "other" not in value or not all(isinstance(text, str) for text in value.values()):
                problems.append(
                    f"{at}'{key}': a plural's forms are texts for {', '.join(sorted(categories))} "
                    f"('other' required){f'; not {wrong}' if wrong else ''}"
                )
                continue
        elif not isinstance(value, str):
            problems.append(f"{at}'{key}' must be text (got {value!r})")
            continue
        needed = placeholders(source[key]) - ({"count"} if isinstance(source[key], dict) else set())
        missing, extra = needed - placeholders(value), placeholders(value) - placeholders(source[key])
        if missing:
            problems.append(f"{at}'{key}' must keep {', '.join('{' + name + '}' for name in sorted(missing))}")
        elif extra:
            problems.append(f"{at}'{key}' has no {', '.join('{' + name + '}' for name in sorted(extra))} to fill")
        else:
            kept[str(key)] = value
    return kept, problems


def book_strings(language: str, given: Any, config_file: Path | None, where: tuple[str, ...]) -> Strings:
    """The book's strings: the plugin's in `language` with the author's `given` (the `strings` option: a mapping, or
    a file beside `config_file` holding one) on top; StringsProblemError listing every mistake in them. `where` is the
    option's place in the configuration, for the lines of its keys (("plugins", "calculators", "strings"))."""
    if not given:
        return strings_for(language)
    folder = config_file.parent if config_file else Path.cwd()
    shown_config = config_file.name if config_file else "mkdocs.yml"
    text = config_file.read_text(encoding="utf-8") if config_file and config_file.is_file() else ""
    line, lines = _node_lines(text, where)
    if isinstance(given, str):  # a file of the book's
        path = folder / given
        try:
            text = path.read_text(encoding="utf-8")
            given = yaml.safe_load(text) or {}
        except (OSError, yaml.YAMLError) as error:
            raise StringsProblemError([f"{shown_config}:{line}: strings: cannot read {given}: {error}"]) from None
        shown, (line, lines) = _given_name(path, folder), (1, _node_lines(text, ())[1])
    else:
        shown = shown_config
    kept, problems = check_strings(given, language, shown, line, lines)
    if problems:
        raise StringsProblemError(problems)
    return strings_for(language, kept)


def _given_name(path: Path, folder: Path) -> str:
    try:
        return path.relative_to(folder).as_posix()
    except ValueError:
        return path.as_posix()


class StringsProblemError(Exception):
    """The author's strings have mistakes: `lines`, each `path:LINE: message`."""

    def __init__(self, lines: list[str]) -> None:
        super().__init__("\n".join(lines))
        self.lines = lines


def untranslated(strings: Strings) -> list[str]:
    """The keys that `strings` leaves in English: none for a language the plugin ships."""
    if catalogue(strings.language) or catalogue(strings.language.split("-")[0]) or strings.language == SOURCE:
        return []
    source = catalogue(SOURCE)
    return [key for key, entry in source.items() if strings.table.get(key) is entry]
