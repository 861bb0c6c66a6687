"""The one error type for bad calculator input."""

from __future__ import annotations

__all__ = ["InputError"]


class InputError(ValueError):
    """A value that a calculator cannot accept.

    It names the field, the rule that was broken and the value that broke it, so a
    caller can point at the field (the browser marks it, the build prints it).
    """

    def __init__(self, field: str, rule: str, value: object) -> None:
        self.field = field
        self.rule = rule
        self.value = value
        super().__init__(f"'{field}' must be {rule} (got {shown(value)})")

    @property
    def message(self) -> str:
        """The whole sentence, naming the field: for authors and logs."""
        return str(self)

    @property
    def hint(self) -> str:
        """The sentence without the field's name: for a message placed next to the field."""
        return f"Must be {self.rule} (got {shown(self.value)})."

    def as_dict(self) -> dict[str, str]:
        return {"field": self.field, "rule": self.rule, "message": self.message, "hint": self.hint}


def shown(value: object) -> str:
    """How a rejected value is quoted back: numbers plainly, anything else as Python would write it."""
    if isinstance(value, bool):
        return repr(value)
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        return f"{value:g}"
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."
