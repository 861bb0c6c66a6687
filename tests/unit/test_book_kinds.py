"""A book registers kinds of its own (the entry-point group mkdocs_calculators.kinds): the plugin adds them after its
own, and a broken registration is refused in one line that says where it is and what is wrong."""

from __future__ import annotations

import json
from collections.abc import Iterator
from importlib import metadata
from pathlib import Path

import pytest

from mkdocs_calculators import blocks
from mkdocs_calculators.blocks import ENTRY_POINTS, KindError, kinds, registered
from tests.support import SECOND_BOOK, installed_metadata

OWN = ["calculator", "quiz", "exercise", "table"]


@pytest.fixture
def second_book(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """The second book on sys.path with its metadata, as `pip install -e tests/second_book` would make it; the
    registry read again with it, and again after."""
    monkeypatch.syspath_prepend(str(SECOND_BOOK))
    monkeypatch.syspath_prepend(str(installed_metadata(SECOND_BOOK)))
    kinds.cache_clear()
    yield
    kinds.cache_clear()


def entry(name: str, value: str) -> metadata.EntryPoint:
    return metadata.EntryPoint(name, value, ENTRY_POINTS)


def test_a_books_kind_comes_after_the_plugins_own(second_book: None) -> None:
    assert [kind.name for kind in kinds()] == [*OWN, "resistor"]
    resistor = kinds()[-1]
    assert type(resistor).__module__ == "circuit_blocks.resistor"
    assert resistor.browser is not None and resistor.browser.module == "resistor.js"


def test_the_registration_is_found_at_its_line_of_the_books_pyproject(second_book: None) -> None:
    """An editable install says where its project is: the message points at the registration's line."""
    [found] = [point for point in metadata.entry_points(group=ENTRY_POINTS) if point.name == "resistor"]
    lines = (SECOND_BOOK / "pyproject.toml").read_text(encoding="utf-8").splitlines()
    line = lines.index('resistor = "circuit_blocks.resistor:KIND"') + 1
    with pytest.raises(KindError) as refused:
        registered(found, list(kinds()))  # as if a kind of that name had been registered before it
    assert str(refused.value).endswith(
        f"second_book/pyproject.toml:{line}: 'circuit_blocks.resistor:KIND', registered in mkdocs_calculators.kinds "
        "as the kind 'resistor', has the name of another registered resistor kind (circuit_blocks.resistor): give it "
        "a name of its own"
    )


@pytest.mark.parametrize(
    ("name", "value", "says"),
    [
        ("term", "json:dumps", "is a function, not a block kind"),
        ("term", "json:nothing_here", "does not load: AttributeError"),
        (
            "term",
            "no_such_module_here:KIND",
            "does not load: ModuleNotFoundError: No module named 'no_such_module_here'",
        ),
        ("term", "mkdocs_calculators.blocks.quiz:KIND", "is the kind 'quiz': register it under its own name"),
        (
            "quiz",
            "mkdocs_calculators.blocks.quiz:KIND",
            "has the name of the plugin's own quiz kind (mkdocs_calculators.blocks.quiz): give it a name of its own",
        ),
    ],
)
def test_a_broken_registration_is_one_line(name: str, value: str, says: str) -> None:
    """Something that is not a kind, a module that does not load, a name that is not the kind's or that a kind of the
    plugin has: each refused, naming the registration (here without a distribution: no pyproject.toml to point at)."""
    with pytest.raises(KindError) as refused:
        registered(entry(name, value), list(kinds()[:4]))
    message = str(refused.value)
    assert message.startswith(f"a distribution's entry point {name} = \"{value}\": '{value}', registered in ")
    assert says in message and "\n" not in message


def test_the_plugin_stops_on_a_broken_registration(monkeypatch: pytest.MonkeyPatch) -> None:
    """kinds() raises it as the plugin starts a build (on_config turns it into MkDocs' one-line PluginError)."""
    broken = entry("term", "json:dumps")
    monkeypatch.setattr(blocks.metadata, "entry_points", lambda group: [broken] if group == ENTRY_POINTS else [])
    kinds.cache_clear()
    try:
        with pytest.raises(KindError, match="is a function, not a block kind"):
            kinds()
    finally:
        monkeypatch.undo()
        kinds.cache_clear()


def test_the_harness_writes_what_an_editable_install_would(tmp_path: Path) -> None:
    folder = installed_metadata(SECOND_BOOK)
    [info] = folder.glob("*.dist-info")
    assert info.name == "circuits-0.1.0.dist-info"
    assert "[mkdocs_calculators.kinds]\nresistor = circuit_blocks.resistor:KIND\n" in (
        info / "entry_points.txt"
    ).read_text(encoding="utf-8")
    assert json.loads((info / "direct_url.json").read_text(encoding="utf-8"))["dir_info"] == {"editable": True}
