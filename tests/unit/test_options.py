"""The plugin's options are declared once (mkdocs_calculators.config.OPTIONS): the MkDocs plugin's configuration, the
Markdown extension's and the command line's reading of mkdocs.yml take each one's name, type and default from there,
and the guide's table of the options (docs/own-book.md) says what OPTIONS says, word for word."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import yaml

from mkdocs_calculators import config
from mkdocs_calculators.config import EXTENSION, OPTIONS, PLUGIN, CalculatorsConfig
from mkdocs_calculators.hosts.cli import UsageError, read_options
from mkdocs_calculators.hosts.markdown import CalculatorsExtension

GUIDE = Path(__file__).parents[2] / "docs" / "own-book.md"
PLUGIN_OPTIONS = [option for option in OPTIONS if PLUGIN in option.hosts]


def guide_table() -> dict[str, tuple[str, str]]:
    """The guide's table of the plugin's options: option -> (its default as the table writes it, what it does)."""
    text = GUIDE.read_text(encoding="utf-8")
    table = text[text.index("The plugin's options, under `calculators:`:") :].split("\n\n")[1]
    rows = [line.removeprefix("| ").removesuffix(" |").split(" | ") for line in table.splitlines()[2:]]
    assert all(len(row) == 3 for row in rows), "a row of the options table has a '|' in it"
    return {row[0].strip("`"): (row[1].strip("`"), row[2]) for row in rows}


def test_the_guides_table_is_the_plugins_options() -> None:
    table = guide_table()
    assert sorted(table) == sorted(option.name for option in PLUGIN_OPTIONS)
    for option in PLUGIN_OPTIONS:
        shown, help_ = table[option.name]
        default = list(option.default) if isinstance(option.default, tuple) else option.default
        assert yaml.safe_load(shown) == default, option.name
        assert help_ == option.help, option.name


def test_the_plugins_configuration_is_the_plugins_options() -> None:
    """Each of the plugin's options, in OPTIONS' order, under its own name, with its default."""
    schema = CalculatorsConfig()._schema
    assert [name for name, _ in schema] == [option.name for option in PLUGIN_OPTIONS]
    assert all(getattr(CalculatorsConfig, option.name) is dict(schema)[option.name] for option in PLUGIN_OPTIONS)
    defaults = {name: option.default for name, option in schema}
    assert defaults == {
        "enabled": True,
        "package": "calculators",
        "node_modules": "node_modules",
        "snapshot": True,
        "math": True,
        "time_limit": 5.0,
        "browser_dependencies": [],
        "cache": True,
        "strings": {},
    }


@pytest.mark.parametrize(
    ("given", "said"),
    [
        ({"time_limit": "5"}, "Expected type: (<class 'int'>, <class 'float'>) but received: <class 'str'>"),
        ({"snapshot": "no"}, "Expected type: <class 'bool'> but received: <class 'str'>"),
        ({"package": 3}, "Expected type: <class 'str'> but received: <class 'int'>"),
        ({"browser_dependencies": "attrs"}, "Expected a list of items, but a <class 'str'> was given."),
        ({"browser_dependencies": [1]}, "Expected type: <class 'str'> but received: <class 'int'>"),
    ],
)
def test_mkdocs_says_what_a_value_of_the_wrong_type_should_be(given: dict[str, Any], said: str) -> None:
    checked = CalculatorsConfig()
    checked.load_dict(given)
    failed, _ = checked.validate()
    assert [str(error) for _, error in failed] == [said]


def test_a_good_configuration_keeps_its_values() -> None:
    checked = CalculatorsConfig()
    checked.load_dict({"time_limit": 2, "browser_dependencies": ["attrs"], "enabled": False})
    assert checked.validate() == ([], [])
    assert (checked.time_limit, checked.browser_dependencies, checked.enabled, checked.cache) == (
        2,
        ["attrs"],
        False,
        True,
    )


def test_the_extensions_configuration_is_its_options() -> None:
    extension = CalculatorsExtension()
    assert extension.getConfigs() == {
        "package": "calculators",
        "time_limit": 5.0,
        "language": "",
        "strings": {},
        "strict": True,
    }
    for option in OPTIONS:
        assert (option.name in extension.config) == (EXTENSION in option.hosts)
    assert extension.getConfigInfo() == [(option.name, option.help) for option in OPTIONS if EXTENSION in option.hosts]


def test_the_command_line_reads_the_options_defaults(tmp_path: Path) -> None:
    """An option left out of mkdocs.yml has the plugin's default in the commands, as in the plugin."""
    (tmp_path / "mkdocs.yml").write_text("site_name: A\nplugins:\n  - calculators\n", encoding="utf-8")
    options = read_options(tmp_path / "mkdocs.yml")
    assert options.package == config.PACKAGE.default == "calculators"
    assert options.node_modules == tmp_path / config.NODE_MODULES.default
    assert (options.snapshot, options.time_limit, options.browser_dependencies) == (True, 5.0, ())
    assert options.strings.language == "en"


def test_the_command_line_speaks_the_themes_language(tmp_path: Path) -> None:
    """`mkdocs-calculators pages` and `ship` (Zensical's steps) write the plugin's words in `theme.language`, with
    the extension's `strings`, and refuse a mistake in them at its line."""
    config_file = tmp_path / "mkdocs.yml"
    text = (
        "theme:\n  language: fr\nmarkdown_extensions:\n  - calculators:\n      strings:\n        quiz.check: Valider\n"
    )
    config_file.write_text(text, encoding="utf-8")
    options = read_options(config_file)
    assert (options.strings.language, options.strings("quiz.check"), options.strings("quiz.retry")) == (
        "fr",
        "Valider",
        "Réessayer",
    )
    config_file.write_text(text.replace("quiz.check", "quiz.chek"), encoding="utf-8")
    with pytest.raises(UsageError, match=r"^mkdocs.yml:6: strings: unknown key 'quiz.chek'"):
        read_options(config_file)
