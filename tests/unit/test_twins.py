"""The browser's twins of Python's types (mkdocs_calculators.runtime.twins): the committed plugins/types/contracts.js
and build-info.d.ts are what the generator writes from calckit.contracts and layout.BuildInfo, and each kind of type
hint becomes the TypeScript type that says the same JSON."""

from __future__ import annotations

from typing import Annotated, Any, Literal, NotRequired, TypedDict

import pytest

from mkdocs_calculators.runtime import twins


def test_the_committed_twins_are_what_the_generator_writes() -> None:
    for path, write in twins.twins().items():
        assert path.read_text(encoding="utf-8") == write(), (
            f"{path.name} is stale: run python -m mkdocs_calculators.runtime.twins"
        )


def test_the_check_names_a_stale_twin(tmp_path: Any, monkeypatch: pytest.MonkeyPatch, capsys: Any) -> None:
    stale = tmp_path / "contracts.js"
    stale.write_text("// by hand\n", encoding="utf-8")
    monkeypatch.setattr(twins, "twins", lambda: {stale: twins.contracts_module})
    assert twins.main(["--check"]) == 1
    assert "contracts.js is stale" in capsys.readouterr().err
    assert stale.read_text(encoding="utf-8") == "// by hand\n"  # --check writes nothing
    assert twins.main([]) == 0
    assert stale.read_text(encoding="utf-8") == twins.contracts_module()
    assert twins.main(["--check"]) == 0


class Inner(TypedDict):
    name: str


@pytest.mark.parametrize(
    ("hint", "expected"),
    [
        (str, "string"),
        (int | float, "number"),
        (bool, "boolean"),
        (Any, "unknown"),
        (float | None, "number | null"),
        (Literal["single", "multiple"], '"single" | "multiple"'),
        (Literal[True], "true"),
        (list[str], "string[]"),
        (list[int | None], "(number | null)[]"),
        (list[list[str]], "string[][]"),
        (dict[str, float], "Record<string, number>"),
        (dict[str, Any] | None, "Record<string, unknown> | null"),
        (tuple[str, str], "[string, string]"),
        (Inner, "Inner"),
        (list[Inner] | None, "Inner[] | null"),
        (NotRequired[Inner | None], "Inner | null"),
        (Annotated[dict[str, Any], "Chart"], 'import("./contracts-browser.js").Chart'),
    ],
)
def test_a_hint_in_typescript(hint: Any, expected: str) -> None:
    assert twins.js_type(hint) == expected


def test_json_has_no_such_type() -> None:
    with pytest.raises(TypeError, match="no JSON type"):
        twins.js_type(set[str])
    with pytest.raises(TypeError, match="no JSON type"):
        twins.js_type(dict[int, str])


def test_a_typeddict_in_jsdoc() -> None:
    """Each key with its type, a NotRequired one in brackets, a renamed shape under the browser's name, the docstring
    and each key's comment (carried on to the next line), and a union under its own typedef."""
    text = twins.contracts_module()
    assert 'export * from "./contracts-browser.js";' in text
    returned = text[text.index(" * What a reader's function returned") : text.index("@typedef {object} Returned") + 300]
    assert "(calckit.contracts.Returned)" in returned
    assert '@property {"number" | "none" | "nonfinite" | "other"} kind' in returned
    assert "@property {string} shown its repr, cut to a length a reader can read" in returned
    assert "@property {number} [value] for a number" in returned
    assert "@typedef {object} Tolerance" in text  # ToleranceData, by the browser's name
    assert "@typedef {ChoiceData | SortData | NumericData} QuestionData" in text
    assert "@property {QuestionData[]} questions" in text  # a union named where it is used
    assert '@property {import("./contracts-browser.js").Chart | null} [chart]' in text
    unreached = text[text.index("@typedef {object} UnreachedData") :]
    assert "@property {number | null} to None: no case runs `line`; a line: no case goes on" in unreached
