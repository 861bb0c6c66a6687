"""Hypothesis strategies shared by the test layers: values a calculator may be handed, good and bad."""

from __future__ import annotations

from typing import Any

from hypothesis import strategies as st

from calculators import Calculator, Input


def valid_value(spec: Input) -> st.SearchStrategy[Any]:
    """A value inside the input's declared space, as an author (number) or a reader (text) gives it."""
    if spec.kind == "choice":
        return st.sampled_from(spec.choice_values)
    if spec.kind == "choices":
        picked = st.lists(st.sampled_from(spec.choice_values), min_size=spec.min_count, unique=True)
        return st.one_of(picked, picked.map(",".join))
    low = spec.min if spec.min is not None else -1e12
    high = spec.max if spec.max is not None else 1e12
    numbers = st.floats(
        min_value=low, max_value=high, allow_nan=False, allow_infinity=False, exclude_min=spec.min_exclusive
    )
    if spec.kind == "integer":
        numbers = st.integers(min_value=int(low) + (1 if spec.min_exclusive else 0), max_value=int(high)).map(float)
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
    """A dict of inputs for `calculator`: each from its valid space, or (valid=False) from anything at all."""
    return st.fixed_dictionaries(
        {}, optional={spec.key: (valid_value(spec) if valid else any_value()) for spec in calculator.inputs}
    )
