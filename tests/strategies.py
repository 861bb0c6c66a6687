"""Hypothesis strategies shared by the test layers: values a calculator may be handed, good and bad."""

from __future__ import annotations

import itertools
import math
from collections.abc import Iterator
from typing import Any

from hypothesis import strategies as st

from calckit import Calculator, Input
from calckit.spec import CUSTOM

# Round numbers, where formulas meet their singular points (a division by n - 1, a ridge at a whole intensity).
_ROUND_MANTISSAS = (1, 1.5, 2, 2.5, 3, 4, 5, 6, 7, 8, 9)
# Under another value of a choice (a precision, an attention kind: another branch of the same formulas), the 1-2-5
# series: the full series walks the default branch's singular points; another branch needs its round values reached.
_CHOICE_MANTISSAS = (1, 2, 5)
# Under a picker's entry (a chip: its figures fill other fields), each power of ten: the entry's figures are one point
# of the space that the picker's "custom" entry walks on the full series, field by field, and each entry's own
# branches (a precision it lacks, a model that does not fit it) are met across every decade of the other fields.
_PICKED_MANTISSAS = (1,)


def _in_range(spec: Input, value: float) -> bool:
    low = spec.min if spec.min is not None else -math.inf
    high = spec.max if spec.max is not None else math.inf
    return (value > low if spec.min_exclusive else value >= low) and value <= high


def _round_values(spec: Input, low: float, high: float, mantissas: tuple[float, ...] = _ROUND_MANTISSAS) -> list[float]:
    """Whole numbers and round decimals across the range: 0.001, 0.0015, ..., 7, 8, 9, 10, 15, ..."""
    exponents = range(math.floor(math.log10(max(abs(low), 1e-6))) - 1, math.ceil(math.log10(max(abs(high), 1))) + 1)
    candidates = {0.0, 1.0, *(m * 10.0**e for m in mantissas for e in exponents)}
    return sorted(
        value for value in candidates if _in_range(spec, value) and (spec.kind != "integer" or value % 1 == 0)
    )


def number_value(spec: Input) -> st.SearchStrategy[float]:
    """A number anywhere in the input's declared space: edges and interior alike.

    Plain float draws cluster at a range's ends; so this mixes them with log-uniform draws over wide positive ranges,
    whole numbers and round decimals, where a formula's interior singular points usually lie.
    """
    low = spec.min if spec.min is not None else -1e12
    high = spec.max if spec.max is not None else 1e12
    if spec.kind == "integer":
        first = math.floor(low) + 1 if spec.min_exclusive or low % 1 else int(low)
        return st.one_of(st.integers(min_value=first, max_value=math.floor(high)).map(float), _rounds(spec, low, high))
    options = [
        st.floats(min_value=low, max_value=high, allow_nan=False, allow_infinity=False, exclude_min=spec.min_exclusive)
    ]
    if low > 0 and high / low > 100:
        logs = st.floats(min_value=math.log10(low), max_value=math.log10(high)).map(lambda exponent: 10.0**exponent)
        options.append(logs.filter(lambda value: _in_range(spec, value)))
    options.append(_rounds(spec, low, high))
    return st.one_of(*options)


def _rounds(spec: Input, low: float, high: float) -> st.SearchStrategy[float]:
    values = _round_values(spec, low, high)
    return st.sampled_from(values) if values else st.nothing()


def valid_value(spec: Input) -> st.SearchStrategy[Any]:
    """A value inside the input's declared space, as an author (number) or a reader (text) gives it."""
    if spec.kind == "choice":
        return st.sampled_from(spec.choice_values)
    if spec.kind == "choices":
        picked = st.lists(st.sampled_from(spec.choice_values), min_size=spec.min_count, unique=True)
        return st.one_of(picked, picked.map(",".join))
    numbers = number_value(spec)
    return st.one_of(numbers, numbers.map(repr))


def any_value() -> st.SearchStrategy[Any]:
    """Anything at all: out of range, zero, negative, huge, NaN, infinities, wrong types, junk text."""
    return st.one_of(
        st.floats(allow_nan=True, allow_infinity=True),
        st.integers(min_value=-(10**400), max_value=10**400),
        st.sampled_from([0, -1, 1e308, -1e308, 1e-308, "", " ", "nan", "inf", "-inf", "1e999", "1,000", "abc", True]),
        st.text(max_size=12),
        st.none(),
        st.lists(st.integers(), max_size=2),
        st.dictionaries(st.text(max_size=3), st.integers(), max_size=2),
    )


def inputs_for(calculator: Calculator, *, valid: bool) -> st.SearchStrategy[dict[str, Any]]:
    """A dict of inputs for `calculator`: each from its valid space, or (valid=False) from anything at all.

    Valid inputs sometimes give two numeric fields one value, where a difference of two inputs is zero.
    """
    drawn = st.fixed_dictionaries(
        {}, optional={spec.key: (valid_value(spec) if valid else any_value()) for spec in calculator.inputs}
    )
    numeric = [spec for spec in calculator.inputs if spec.kind in ("number", "integer")]
    if not valid or len(numeric) < 2:
        return drawn
    return st.one_of(drawn, _coincident(drawn, numeric))


@st.composite
def _coincident(draw: st.DrawFn, drawn: st.SearchStrategy[dict[str, Any]], numeric: list[Input]) -> dict[str, Any]:
    inputs = draw(drawn)
    source, target = draw(st.permutations(numeric))[:2]
    value = draw(number_value(source))
    if _in_range(target, value) and (target.kind != "integer" or value % 1 == 0):
        inputs[source.key] = inputs[target.key] = value
    return inputs


def sweep(calculator: Calculator) -> Iterator[dict[str, Any]]:
    """A deterministic walk through the interior of the calculator's space, where random draws rarely land exactly:
    every round value of each numeric input (the others at their defaults, or a picker's "custom" entry), and under
    each other value of each choice input a coarser series of them (1-2-5; under a picker's entries, such as each chip,
    the powers of ten), and pairs of numeric inputs set equal."""
    numeric = [spec for spec in calculator.inputs if spec.kind in ("number", "integer")]
    pickers = {spec.filled_by for spec in calculator.inputs if spec.filled_by}
    contexts: list[dict[str, Any]] = [{}]
    contexts += [
        {spec.key: value}
        for spec in calculator.inputs
        if spec.kind == "choice"
        for value in spec.choice_values
        if value != spec.default  # the default is the first context's
    ]
    for context in contexts:
        picked = any(key in pickers and value != CUSTOM for key, value in context.items())
        custom = any(key in pickers and value == CUSTOM for key, value in context.items())  # walks the picked fields
        mantissas = _PICKED_MANTISSAS if picked else _ROUND_MANTISSAS if custom or not context else _CHOICE_MANTISSAS
        for spec in numeric:
            if spec.filled_by in context and context[spec.filled_by] != CUSTOM:
                continue  # the picker's figure replaces the value: the run would repeat the picker's own
            low = spec.min if spec.min is not None else -1e12
            high = spec.max if spec.max is not None else 1e12
            for value in _round_values(spec, low, high, mantissas):
                yield {**context, spec.key: value}
    for first, second in itertools.combinations(numeric, 2):
        for value in (0.0, 1.0, 2.0, 10.0, 100.0):
            if all(_in_range(spec, value) for spec in (first, second)):
                yield {first.key: value, second.key: value}
