"""Calculators for a course book on AI accelerators: one package for the build (CPython) and the browser (Pyodide).

Standard library only.
"""

from .api import call_json, run
from .errors import InputError
from .registry import CALCULATORS, get
from .spec import Calculator, Input, Output, Result

__all__ = ["CALCULATORS", "Calculator", "Input", "InputError", "Output", "Result", "call_json", "get", "run"]
__version__ = "0.1.0"
