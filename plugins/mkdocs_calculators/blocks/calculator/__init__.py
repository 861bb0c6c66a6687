"""```calculator: YAML that names one of the book's calculators (`use`) and sets some of its inputs.

The block is checked against the calculator's declared inputs, computed with CPython, and rendered as a form with
its results (pages/render.py), so that the page is right before any script runs.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, ClassVar

from ...extras.budgets import over_chart_budget
from ...extras.chart_check import chart_problem
from ...pages.ids import ID_RULE, check_id
from ...pages.render import render_calculator
from ..base import Authored, BlockKind, Followed, Option, Problems
from ..hooks import Browser

if TYPE_CHECKING:
    from calckit.contracts import RunReply
    from calckit.spec import Calculator, Value

__all__ = ["KIND", "CalculatorKind", "CalculatorModel"]


@dataclass(frozen=True)
class CalculatorModel:
    calculator: Calculator
    inputs: dict[str, Value]  # every input, parsed; the calculator's default where the author gave none
    result: RunReply  # calckit.api.run's answer for them
    anchor: str  # calc-3, or calc-ID for an author's `id`
    given: dict[str, Value]  # the inputs the author wrote: what a value that follows it starts from


class CalculatorKind(BlockKind[CalculatorModel]):
    name = "calculator"
    title = "calculator block"
    anchor = "calc"
    searchable = False  # its form and results are not prose: the page's text around it is what search finds
    # calculator.js (with calculator_form.js, calculator_link.js and calculator_prose.js) recomputes in Python
    # (runtime.js) as the reader changes the form; a page with one keeps that runtime for reading offline. The inputs
    # its prose adjusts (calculator_prose.js, which entry.js mounts at once) are styled in every page's stylesheet.
    browser = Browser(
        "calculator.js",
        "[data-calculator]",
        "mountCalculators",
        near_viewport=True,
        keeps_offline=True,
        page_styles=("calculator_prose.css",),
    )
    options: ClassVar = {
        "use": Option("the calculator's name", required=True),
        "id": Option(f"the calculator's id on the page, {ID_RULE}"),
    }
    open_options = True  # every other key sets one of the calculator's inputs

    def read(self, block: Authored) -> CalculatorModel:
        from calckit.api import inputs_text, run

        calculators = block.book.calculators
        known = ", ".join(sorted(calculators))
        loaded = block.load(self.title)
        values = dict(self.mapping(block, loaded, f"'use: NAME', NAME one of: {known}", "'use' and inputs"))
        raw_id = values.pop("id", None)
        block_id = check_id(raw_id) if raw_id is not None else None
        if raw_id is not None and block_id is None:
            raise Problems(
                [block.problem(loaded.line(("id",)), f"{self.title}: 'id' must be {ID_RULE} (got {raw_id!r})")]
            )
        if "use" not in values:
            message = f"{self.title} has no 'use' (expected 'use: NAME', NAME one of: {known})"
            raise Problems([block.problem(block.line, message)])
        name = values.pop("use")
        use_line = loaded.line(("use",))
        if not isinstance(name, str):
            got = "nothing" if name is None else repr(name)
            raise Problems(
                [block.problem(use_line, f"'use' must name a calculator (got {got}; expected one of: {known})")]
            )
        if name not in calculators:
            raise Problems([block.problem(use_line, f"unknown calculator {name!r} (expected one of: {known})")])
        calculator = calculators[name]
        label = f"calculator '{name}'"
        problems = [
            block.problem(
                loaded.line((key,)),
                f"{label}: unknown input '{key}' (expected one of: {', '.join(calculator.input_keys)})",
            )
            for key in values
            if key not in calculator.input_keys
        ]
        # `intensity:` with nothing after it: say so, rather than "must be a number (got None)".
        problems += [
            block.problem(loaded.line((key,)), f"{label}: input '{key}' has no value (give one, or remove the line)")
            for key, value in values.items()
            if value is None and key in calculator.input_keys
        ]
        given = {key: value for key, value in values.items() if value is not None}
        inputs, errors = calculator.check(given, author=True)
        problems += [block.problem(loaded.line((error.field,)), f"{label}: {error.message}") for error in errors]
        if problems:
            raise Problems(problems)
        anchor = f"{self.anchor}-{block_id}" if block_id is not None else block.anchor
        id_line = loaded.line(("id",)) if block_id is not None else block.line
        first = block.ids.claim(anchor, id_line)
        if first is not None:
            if block_id is not None:
                message = f"calculator id '{block_id}' is taken: the calculator at line {first} is #{anchor} already"
            else:
                message = (
                    f"this calculator, the page's calculator {block.anchor.removeprefix('calc-')}, would be #{anchor}, "
                    f"but the calculator at line {first} is #{anchor} already (a calculator without an 'id' is "
                    "numbered by its place among the page's calculators)"
                )
            raise Problems([block.problem(id_line, message + ": give one of them another 'id'")])
        result = run(calculator.name, inputs, book=block.book)
        if failure := result.get("failure"):
            raise Problems([block.problem(block.line, failure["message"])])
        spec = result.get("chart")
        chart = chart_problem(spec) if spec else ""
        if chart:
            shown = inputs_text(inputs)
            raise Problems(
                [block.problem(block.line, f"calculator '{calculator.name}' draws {chart} (for these inputs: {shown})")]
            )
        if spec and (over := over_chart_budget(spec)):
            block.warn(block.line, f"calculator '{calculator.name}': {over} (for these inputs: {inputs_text(inputs)})")
        return CalculatorModel(calculator, inputs, result, anchor, given)

    def render(self, model: CalculatorModel, block: Authored) -> str:
        return render_calculator(model.anchor, model.calculator, model.inputs, model.result, block.page.strings)

    def followed(self, model: CalculatorModel) -> Followed:
        numbers = {
            output["key"]: output["text"]
            for output in model.result.get("outputs", [])
            if isinstance(output["value"], int | float) and not isinstance(output["value"], bool)
        }
        return Followed(model.anchor, model.calculator.name, model.given, model.inputs, numbers)


KIND = CalculatorKind()
