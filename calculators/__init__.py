"""Calculators for a course book on AI accelerators: one package for the build (CPython) and the browser (Pyodide).

Standard library only.
"""

from .api import run, run_json
from .errors import InputError
from .registry import CALCULATORS, get
from .spec import Calculator, Input, Output, Result

__all__ = ["CALCULATORS", "Calculator", "Input", "InputError", "Output", "Result", "get", "run", "run_json"]
__version__ = "0.1.0"
