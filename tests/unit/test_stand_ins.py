"""calckit.stand_ins: a module of the book's package that imports one the browser lacks (`mkdocs serve` goes on
with it) no longer stops the whole package, only the calculators whose code uses it.

The browser's worker runs this in Pyodide (tests/browser/test_missing_import.py); here CPython imports a copy of the
second book whose ohm.py imports a module that exists nowhere, at its top level in each way a module may be used
there (a name taken from it, a decorator, a call, a base class), and whose compute function uses it.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

from tests.support import SECOND_BOOK

USES = """
import nowhere_to_be_found
from nowhere_to_be_found.sub import helper

SETTING = nowhere_to_be_found.field(default=3)


@nowhere_to_be_found.define
class Spare(nowhere_to_be_found.Base):
    pass


def _uses_it() -> object:
    return helper(1)
"""

PROBE = """
import json, sys
from calckit.stand_ins import use_with_stand_ins
book = use_with_stand_ins("circuits", ["nowhere_to_be_found"])
answers = {}
for name in ("rc-filter", "ohms-law"):
    calculator = book.calculator(name)
    try:
        answers[name] = sorted(calculator.run({}).values)
    except Exception as error:
        answers[name] = f"{type(error).__name__}: {error}"
from calckit.api import run
answers["failure"] = run("ohms-law", {})["failure"]
print(json.dumps(answers))
"""


def _book_with_missing_import(root: Path) -> None:
    shutil.copytree(SECOND_BOOK / "circuits", root / "circuits", ignore=shutil.ignore_patterns("__pycache__"))
    ohm = root / "circuits" / "ohm.py"
    text = ohm.read_text(encoding="utf-8")
    text = text.replace("\n\ndef _compute", USES + "\n\ndef _compute", 1)
    text = text.replace("    volts, ohms =", "    _uses_it()\n    volts, ohms =", 1)
    ohm.write_text(text, encoding="utf-8")


def _run(root: Path, code: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-c", code], cwd=root, capture_output=True, text=True, check=False, timeout=60
    )


def test_the_package_imports_and_only_the_calculator_that_uses_the_module_fails(tmp_path: Path) -> None:
    _book_with_missing_import(tmp_path)
    plain = _run(tmp_path, "import circuits")
    assert "ModuleNotFoundError: No module named 'nowhere_to_be_found'" in plain.stderr  # as the browser would
    probe = _run(tmp_path, PROBE)
    assert probe.returncode == 0, probe.stderr
    answers = json.loads(probe.stdout)
    text = (tmp_path / "circuits" / "ohm.py").read_text(encoding="utf-8")
    line = text[: text.index("    return helper(1)")].count("\n") + 1
    assert answers.pop("failure") == {
        "error": "ModuleNotFoundError: No module named 'nowhere_to_be_found'",
        "where": f"circuits/ohm.py:{line}",  # the line that used it, not the stand-in's own
        "message": "calculator 'ohms-law' failed for these inputs (volts=12, ohms=100): ModuleNotFoundError: No module "
        f"named 'nowhere_to_be_found' (circuits/ohm.py:{line})",
    }
    assert answers == {
        "rc-filter": ["cutoff_hz", "tau_ms"],
        "ohms-law": "ModuleNotFoundError: No module named 'nowhere_to_be_found'",
    }
