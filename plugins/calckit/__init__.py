"""calckit: the parts of a computing course book that do not depend on its subject.

A book's own package declares its calculators with `calckit.spec` (inputs, outputs, a compute function), gathers them
by name with `calckit.registry()` (which refuses a name taken twice) and keeps the contract in `calckit.book`; calckit
runs them, checks and grades quizzes and exercises, and answers the browser's worker (`calckit.api`). The same code
runs at build in CPython and in the reader's browser in Pyodide.

Standard library only.
"""

from .errors import InputError
from .names import DuplicateName, registry
from .spec import Calculator, Choice, Input, Output, Result, Table, Value, number, text, texts
from .table import Cell, Column, DataTable, Row, Source

__all__ = [
    "Calculator",
    "Cell",
    "Choice",
    "Column",
    "DataTable",
    "DuplicateName",
    "Input",
    "InputError",
    "Output",
    "Result",
    "Row",
    "Source",
    "Table",
    "Value",
    "number",
    "registry",
    "text",
    "texts",
]
__version__ = "0.1.0"
