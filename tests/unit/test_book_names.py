"""A book's calculators are kept by name, each name once: two calculators of one name are refused at import, at the
line that declares the second and with the first's place (calckit.names), whether the book gathers them with
`calckit.registry` or in a dict written by hand, in the build (books.load_book) and in a plain import alike."""

from __future__ import annotations

import inspect
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from calckit import Calculator, Input, Output, Result, number, registry
from calckit.names import DuplicateName
from mkdocs_calculators.sandbox.books import load_book


def _module(name: str, title: str) -> str:
    return f'''"""{title}."""

from calckit.spec import Calculator, Input, Output, Result, number

{name.upper().replace("-", "_")} = Calculator(
    name="ohms-law",
    title="{title}",
    description="A calculator.",
    inputs=(Input("volts", "Voltage", default=12.0, min=0, max=100),),
    outputs=(Output("amps", "Current", unit="A"),),
    compute=lambda inputs: Result({{"amps": number(inputs, "volts") / 4}}, ""),
)
'''


DECLARATION_LINE = 5  # of `X = Calculator(` in each module above


@pytest.fixture
def book(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """A package `namesbook` with two modules whose calculators are both named 'ohms-law'; tests write __init__."""
    package = tmp_path / "namesbook"
    package.mkdir()
    (package / "ohm.py").write_text(_module("ohms_law", "Ohm's law"), encoding="utf-8")
    (package / "heat.py").write_text(_module("heat", "Heat"), encoding="utf-8")
    monkeypatch.syspath_prepend(str(tmp_path))
    # Tests rewrite a module within the second it was first imported, sometimes at the same size: a compiled copy
    # in __pycache__ (make test lets Python keep them) would then pass for the new source.
    monkeypatch.setattr(sys, "dont_write_bytecode", True)
    yield package
    for name in [name for name in sys.modules if name.split(".")[0] == "namesbook"]:
        del sys.modules[name]


EXPECTED = (
    f"namesbook/heat.py:{DECLARATION_LINE}: two calculators are named 'ohms-law' (the first at "
    f"namesbook/ohm.py:{DECLARATION_LINE}): give each a name of its own"
)

WITH_REGISTRY = """from calckit import registry

from .ohm import OHMS_LAW
from .heat import HEAT

CALCULATORS = registry(OHMS_LAW, HEAT)
__version__ = "0.1.0"
"""

# The guide's old way: the dict keeps HEAT alone, and OHMS_LAW vanished without a word.
BY_HAND = WITH_REGISTRY.replace("registry(OHMS_LAW, HEAT)", "{OHMS_LAW.name: OHMS_LAW, HEAT.name: HEAT}")


@pytest.mark.parametrize("init", [WITH_REGISTRY, BY_HAND], ids=["registry", "dict-by-hand"])
def test_the_build_says_where_the_second_is_declared(book: Path, init: str) -> None:
    (book / "__init__.py").write_text(init, encoding="utf-8")
    assert load_book("namesbook", book.parent, reload=True) == EXPECTED


def test_a_plain_import_says_it_too(book: Path) -> None:
    """`python -c 'import namesbook'` from the project's folder ends with the same line (paths from where it runs)."""
    (book / "__init__.py").write_text(WITH_REGISTRY, encoding="utf-8")
    run = subprocess.run(
        [sys.executable, "-c", "import namesbook"], cwd=book.parent, capture_output=True, text=True, timeout=60
    )
    assert run.returncode == 1
    assert run.stderr.strip().splitlines()[-1] == f"calckit.names.DuplicateName: {EXPECTED}"


def test_names_of_their_own_are_kept_in_order(book: Path) -> None:
    (book / "heat.py").write_text(_module("heat", "Heat").replace('"ohms-law"', '"heat"'), encoding="utf-8")
    (book / "__init__.py").write_text(WITH_REGISTRY, encoding="utf-8")
    loaded = load_book("namesbook", book.parent, reload=True)
    assert not isinstance(loaded, str), loaded
    assert list(loaded.calculators) == ["ohms-law", "heat"]


def _calculator(name: str) -> Calculator:
    return Calculator(
        name=name,
        title=name,
        description="",
        inputs=(Input("x", "X", default=1.0),),
        outputs=(Output("y", "Y"),),
        compute=lambda inputs: Result({"y": number(inputs, "x")}, ""),
    )


def test_registry_keeps_one_calculator_given_twice_and_refuses_what_is_not_one() -> None:
    one = _calculator("one")
    assert registry(one, one) == {"one": one}
    with pytest.raises(TypeError, match=r"registry\(\) takes Calculators, not a str"):
        registry(one, "two")  # type: ignore[arg-type]
    with pytest.raises(DuplicateName) as raised:
        registry(one, _calculator("one"))
    # Both were declared in _calculator, by its `return Calculator(` line: the book's code that called calckit.
    here = Path(__file__).resolve()
    line = inspect.getsourcelines(_calculator)[1] + 1
    assert raised.value.first == raised.value.second == (str(here), line)
    assert raised.value.shown(here.parent) == (
        f"{here.name}:{line}: two calculators are named 'one' (the first at {here.name}:{line}): give each a name of "
        "its own"
    )


def test_a_private_template_may_share_its_name_with_the_calculator_made_from_it(book: Path) -> None:
    """`_BASE` with `replace(_BASE, title=...)` made from it: one calculator in the book, and no complaint; the same
    two under public names would be the dict-by-hand mistake."""
    (book / "heat.py").write_text(
        "import dataclasses\n\nfrom .ohm import _OHMS_LAW as _BASE\n\n"
        "HEAT = dataclasses.replace(_BASE, title='Heat')\n",
        encoding="utf-8",
    )
    (book / "__init__.py").write_text(
        "from .heat import HEAT\n\nCALCULATORS = {HEAT.name: HEAT}\n__version__ = '0.1.0'\n", encoding="utf-8"
    )
    (book / "ohm.py").write_text(_module("_ohms_law", "Ohm's law"), encoding="utf-8")
    loaded = load_book("namesbook", book.parent, reload=True)
    assert not isinstance(loaded, str), loaded
    heat = loaded.calculators["ohms-law"]
    assert heat.title == "Heat"
    assert heat.declared_at == (str((book / "heat.py").resolve()), 5)  # the replace() line, not dataclasses.py's


TABLE_MODULE = '''"""Parts."""

from calckit.table import Column, DataTable

TABLE = DataTable(
    name="table",
    title="Parts",
    intro="Parts.",
    columns=(Column("mass", "Mass (kg)"),),
    default_columns=("mass",),
    reference_columns=("mass",),
    rows=dict,
    sources=dict,
)
'''


def test_a_data_table_named_like_a_block_kind_is_refused_where_it_is_declared(book: Path) -> None:
    """A table named 'table' would share its fence with the plugin's generic ```table block (the kinds the plugin
    registers, not a list calckit keeps): refused at the table's declaration."""
    (book / "parts.py").write_text(TABLE_MODULE, encoding="utf-8")
    (book / "heat.py").write_text(_module("heat", "Heat").replace('"ohms-law"', '"heat"'), encoding="utf-8")
    (book / "__init__.py").write_text(WITH_REGISTRY + "from .parts import TABLE\n", encoding="utf-8")
    assert load_book("namesbook", book.parent, reload=True) == (
        "namesbook/parts.py:5: the data table is named 'table', which is the plugin's own ```table block: give the "
        "table a name of its own"
    )
    (book / "parts.py").write_text(TABLE_MODULE.replace('name="table"', 'name="parts"'), encoding="utf-8")
    loaded = load_book("namesbook", book.parent, reload=True)
    assert not isinstance(loaded, str) and loaded.table is not None and loaded.table.name == "parts"
