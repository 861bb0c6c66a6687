"""Reading an author's ```calculator block: YAML that names a calculator and overrides some of its inputs.

Every problem comes back with the line of the source file it is on, so the build can say `docs/page.md:12: ...`.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import yaml

from .fences import Fence
from .ids import ID_RULE, check_id
from .yaml_errors import compose, describe_yaml_error

if TYPE_CHECKING:
    from calckit.spec import Calculator, Value

__all__ = ["CalculatorBlock", "Problem", "read_calculator_block"]


@dataclass(frozen=True)
class Problem:
    line: int
    message: str


@dataclass(frozen=True)
class CalculatorBlock:
    calculator: Calculator
    inputs: dict[str, Value]  # every input, parsed; the calculator's default where the author gave none
    id: str | None = None  # the author's id (`id: h100-decode`), None to be numbered among the page's calculators
    id_line: int = 0  # the file line of `id`, or of the fence when there is none


def _registry() -> Mapping[str, Calculator]:
    # Looked up on each call, not kept: `mkdocs serve` re-imports an edited package between builds.
    from calckit import book

    return book.current().calculators


def _known() -> str:
    return ", ".join(sorted(_registry()))


def read_calculator_block(fence: Fence, fence_line: int) -> CalculatorBlock | list[Problem]:
    """The block's calculator and inputs, or every problem in it; `fence_line` is the opening fence's file line."""
    mapping = load_mapping(
        fence.body, fence_line, "calculator", expected=f"'use: NAME', NAME one of: {_known()}", holds="'use' and inputs"
    )
    if isinstance(mapping, Problem):
        return [mapping]
    values, key_lines = mapping
    raw_id = values.pop("id", None)
    block_id = check_id(raw_id) if raw_id is not None else None
    if raw_id is not None and block_id is None:
        return [Problem(key_lines["id"], f"calculator block: 'id' must be {ID_RULE} (got {raw_id!r})")]
    if "use" not in values:
        return [Problem(fence_line, f"calculator block has no 'use' (expected 'use: NAME', NAME one of: {_known()})")]
    name = values.pop("use")
    if not isinstance(name, str):
        got = "nothing" if name is None else repr(name)
        return [Problem(key_lines["use"], f"'use' must name a calculator (got {got}; expected one of: {_known()})")]
    if name not in _registry():
        return [Problem(key_lines["use"], f"unknown calculator {name!r} (expected one of: {_known()})")]
    calculator = _registry()[name]
    problems = [
        Problem(
            key_lines[key],
            f"calculator '{name}': unknown input '{key}' (expected one of: {', '.join(calculator.input_keys)})",
        )
        for key in values
        if key not in calculator.input_keys
    ]
    # `intensity:` with nothing after it: say so, rather than "must be a number (got None)".
    problems += [
        Problem(key_lines[key], f"calculator '{name}': input '{key}' has no value (give one, or remove the line)")
        for key, value in values.items()
        if value is None and key in calculator.input_keys
    ]
    given = {key: value for key, value in values.items() if value is not None}
    inputs, errors = calculator.check(given, author=True)
    problems += [
        Problem(key_lines.get(error.field, fence_line), f"calculator '{name}': {error.message}") for error in errors
    ]
    id_line = key_lines["id"] if block_id is not None else fence_line
    return sorted(problems, key=lambda problem: problem.line) or CalculatorBlock(calculator, inputs, block_id, id_line)


def load_mapping(
    body: str, fence_line: int, kind: str, *, expected: str, holds: str
) -> tuple[dict[str, Any], dict[str, int]] | Problem:
    """A block's top-level mapping, keyed as the author wrote the keys, and the file line of each key; or the first
    problem. Messages name the block's `kind`, what an empty one `expected`, and what its mapping `holds`."""
    first_body_line = fence_line + 1
    try:
        loader, node = compose(body)
        try:
            if isinstance(node, yaml.MappingNode):
                loader.construct_mapping(node, deep=True)  # rejects unhashable keys; merges `<<` keys into node.value
                pairs = [(key_node, loader.construct_object(value, deep=True)) for key_node, value in node.value]
        finally:
            loader.dispose()
    except yaml.MarkedYAMLError as error:
        line, message = describe_yaml_error(error, body)
        return Problem(first_body_line + line, f"{kind} block is {message}")
    if node is None:
        return Problem(fence_line, f"{kind} block is empty (expected {expected})")
    if not isinstance(node, yaml.MappingNode):
        found = "a list" if isinstance(node, yaml.SequenceNode) else "a single value"
        return Problem(fence_line, f"{kind} block must be a mapping of {holds}, not {found}")
    values: dict[str, Any] = {}
    key_lines: dict[str, int] = {}
    for key_node, value in pairs:
        # The key's text, not its YAML value: `yes:` is the author's 'yes', not True.
        key = str(key_node.value)
        if key in key_lines:
            return Problem(first_body_line + key_node.start_mark.line, f"{kind} block has the key '{key}' twice")
        key_lines[key] = first_body_line + key_node.start_mark.line
        values[key] = value
    return values, key_lines
