"""The one error type for bad calculator input."""

from __future__ import annotations

from .contracts import FieldErrorData

__all__ = ["InputError"]


class InputError(ValueError):
    """A value that a calculator cannot accept.

    It names the field, the rule that was broken and the value that broke it, so a
    caller can point at the field (the browser marks it, the build prints it).
    """

    def __init__(self, field: str, rule: str, value: object, advice: str = "") -> None:
        self.field = field
        self.rule = rule
        self.value = value
        self.advice = advice  # for readers: in the form's words, with their value as typed and what to do
        super().__init__(f"'{field}' must be {rule} (got {shown(value)})")

    @property
    def message(self) -> str:
        """The whole sentence, naming the field: for authors and logs."""
        return str(self)

    @property
    def hint(self) -> str:
        """The sentence placed next to the field, for a reader: the advice, or the rule without the field's name."""
        return self.advice or f"Must be {self.rule} (got {shown(self.value)})."

    def as_dict(self) -> FieldErrorData:
        return {"field": self.field, "rule": self.rule, "message": self.message, "hint": self.hint}


def shown(value: object) -> str:
    """How a rejected value is quoted back: numbers plainly, anything else as Python would write it."""
    if isinstance(value, bool):
        return repr(value)
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        # As it would be typed: 999999999, not 1e+09; 0.1, not 0.1000000000000000055.
        return str(int(value)) if value.is_integer() and abs(value) < 1e16 else repr(value)
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."
