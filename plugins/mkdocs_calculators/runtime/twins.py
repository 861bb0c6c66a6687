"""The browser's twins of Python's types, generated: plugins/types/contracts.js from calckit.contracts' TypedDicts (the
JSON between the build and the browser) and plugins/types/build-info.d.ts from layout.BuildInfo (the build's values
for the scripts), so that `tsc --checkJs` checks the scripts against what Python writes, not against a copy kept by
hand.

    python -m mkdocs_calculators.runtime.twins          # rewrite both files
    python -m mkdocs_calculators.runtime.twins --check  # exit 1, naming them, when either is stale (make lint)

A TypedDict becomes a JSDoc `@typedef {object}` with a `@property` per key (`[key]` when it is NotRequired), its
docstring and each key's comment included; a module-level union of them becomes a typedef of the union. A type that
the browser reads more precisely than Python can say names a hand-written typedef of plugins/types/contracts-browser.js
through `Annotated[..., "Name"]` (calckit.contracts.ChartSpec). That file also holds the shapes only the browser makes
(the workers' messages, the progress kept in localStorage) and the browser's views of a few of Python's shapes (a
calculator's reply read by its `ok`); contracts.js re-exports it, so that the scripts import every shape from one
place. The browser knows some shapes by other names than Python's: JS_NAMES.
"""

from __future__ import annotations

import ast
import io
import json
import sys
import tokenize
import types
import typing
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal, NotRequired, Required, get_args, get_origin, get_type_hints, is_typeddict

__all__ = ["build_info_declarations", "contracts_module", "main", "twins"]

TYPES_DIR = Path(__file__).resolve().parents[2] / "types"
BROWSER_TYPES = "contracts-browser.js"  # the hand-written typedefs, beside contracts.js
WRITTEN = "Written by `python -m mkdocs_calculators.runtime.twins`"

# The names the browser's scripts know some of calckit.contracts' shapes by (the others keep their Python names).
JS_NAMES = {
    "CaseData": "Case",
    "CaseFailureData": "CaseFailure",
    "ChoicePageData": "ChoiceData",
    "CodeError": "PythonError",
    "ExercisePageData": "ExerciseData",
    "FailureData": "Failure",
    "FieldErrorData": "FieldError",
    "NumericPageData": "NumericData",
    "OutputData": "Output",
    "ProgressItemData": "ProgressItem",
    "QuestionPageData": "QuestionData",
    "QuizPageData": "QuizData",
    "QuizToleranceData": "QuizTolerance",
    "SortPageData": "SortData",
    "TableData": "Table",
    "ToleranceData": "Tolerance",
}


def _js_name(cls: type) -> str:
    return JS_NAMES.get(cls.__name__, cls.__name__)


def js_type(hint: Any, unions: dict[Any, str] | None = None) -> str:
    """The TypeScript type (as JSDoc writes it) of a Python type hint of JSON data; `unions` names the unions that
    have a typedef of their own."""
    unions = unions or {}
    origin, args = get_origin(hint), get_args(hint)
    if origin is typing.Annotated:
        named = [extra for extra in hint.__metadata__ if isinstance(extra, str)]
        return f'import("./{BROWSER_TYPES}").{named[0]}' if named else js_type(args[0], unions)
    if origin in (NotRequired, Required):
        return js_type(args[0], unions)
    if origin in (types.UnionType, typing.Union) and hint in unions:
        return unions[hint]
    if hint is Any or hint is object:
        return "unknown"
    if hint is None or hint is type(None):
        return "null"
    if hint is bool:
        return "boolean"
    if hint in (int, float):
        return "number"
    if hint is str:
        return "string"
    if is_typeddict(hint):
        return _js_name(hint)
    if origin is Literal:
        return " | ".join(json.dumps(value) for value in args)
    if origin in (types.UnionType, typing.Union):
        members = [js_type(arg, unions) for arg in args]
        if "number" in members:  # int | float
            members = [member for index, member in enumerate(members) if member not in members[:index]]
        return " | ".join(members)
    if origin is list:
        item = js_type(args[0], unions)
        return f"({item})[]" if " | " in item or " & " in item else f"{item}[]"
    if origin is dict and args[0] is str:
        return f"Record<string, {js_type(args[1], unions)}>"
    if origin is tuple and Ellipsis not in args:
        return f"[{', '.join(js_type(arg, unions) for arg in args)}]"
    raise TypeError(f"no JSON type in the browser for {hint!r}")


@dataclass(frozen=True)
class _Source:
    """What the types' module says beside its code: each class's docstring and each line's comment."""

    tree: ast.Module
    comments: dict[int, str]  # line -> the comment that ends it, or that is the whole line

    @classmethod
    def of(cls, module: types.ModuleType) -> _Source:
        text = Path(typing.cast(str, module.__file__)).read_text(encoding="utf-8")
        comments = {
            token.start[0]: token.string.lstrip("#").strip()
            for token in tokenize.generate_tokens(io.StringIO(text).readline)
            if token.type == tokenize.COMMENT
        }
        return cls(ast.parse(text), comments)

    def classes(self) -> dict[str, ast.ClassDef]:
        return {node.name: node for node in self.tree.body if isinstance(node, ast.ClassDef)}

    def field_comment(self, node: ast.ClassDef, key: str) -> str:
        """The comment on `key`'s line, with the lines of comment that follow it alone (a comment carried on)."""
        code = {statement.lineno for statement in node.body}
        for statement in node.body:
            if (
                isinstance(statement, ast.AnnAssign)
                and isinstance(statement.target, ast.Name)
                and statement.target.id == key
            ):
                line = statement.end_lineno or statement.lineno
                parts = [self.comments.get(line, "")]
                while line + 1 in self.comments and line + 1 not in code:
                    line += 1
                    parts.append(self.comments[line])
                return " ".join(part for part in parts if part)
        return ""


def _doc(text: str) -> list[str]:
    """A docstring as JSDoc lines: its paragraphs joined, `*/` never closing the comment early."""
    paragraphs = [" ".join(part.split()) for part in text.split("\n\n") if part.strip()]
    return [paragraph.replace("*/", "*\\/") for paragraph in paragraphs]


def _wrapped(words: str, width: int = 112) -> list[str]:
    lines: list[str] = []
    for word in words.split(" "):
        if lines and len(lines[-1]) + 1 + len(word) <= width:
            lines[-1] += " " + word
        else:
            lines.append(word)
    return lines


def _comment(text: str) -> list[str]:
    return [f"// {line}" for line in _wrapped(text, 117)]


def _block(lines: list[str]) -> list[str]:
    return ["/**", *(f" * {line}".rstrip() for line in lines), " */"]


def _typeddict_lines(
    cls: type, node: ast.ClassDef | None, source: _Source, origin: str, unions: dict[Any, str]
) -> list[str]:
    hints = get_type_hints(cls, include_extras=True)
    nodes = source.classes()
    paragraphs = _doc(ast.get_docstring(node) or "") if node else []
    described = [*paragraphs[:-1], f"{paragraphs[-1]} ({origin}.{cls.__name__})"] if paragraphs else []
    lines = [line for paragraph in described or [f"({origin}.{cls.__name__})"] for line in _wrapped(paragraph)]
    lines.append(f"@typedef {{object}} {_js_name(cls)}")
    for key, hint in hints.items():
        optional = key not in cls.__required_keys__  # type: ignore[attr-defined]
        comment = ""
        for base in (cls, *_bases(cls)):
            if base.__name__ in nodes:
                comment = source.field_comment(nodes[base.__name__], key)
            if comment:
                break
        name = f"[{key}]" if optional else key
        lines.extend(_wrapped(f"@property {{{js_type(hint, unions)}}} {name} {comment}".rstrip()))
    return lines


def _bases(cls: type) -> Iterator[type]:
    for base in getattr(cls, "__orig_bases__", ()):
        if is_typeddict(base):
            yield base
            yield from _bases(base)


def typedefs(module: types.ModuleType, origin: str) -> list[str]:
    """Every TypedDict and module-level union of them in `module`, in its order, as JSDoc typedefs, with the comment
    lines that stand alone between them (its sections' headings) as `//` lines."""
    source = _Source.of(module)
    unions = {
        value: JS_NAMES.get(name, name)
        for name, value in vars(module).items()
        if get_origin(value) in (types.UnionType, typing.Union) and all(map(is_typeddict, get_args(value)))
    }
    out: list[str] = []
    code_lines = {line for node in source.tree.body for line in range(node.lineno, (node.end_lineno or 0) + 1)}
    previous = 0
    for node in source.tree.body:
        headings = [
            source.comments[line]
            for line in range(previous + 1, node.lineno)
            if line in source.comments and line not in code_lines
        ]
        previous = node.end_lineno or node.lineno
        if isinstance(node, ast.ClassDef) and is_typeddict(getattr(module, node.name, None)):
            cls = getattr(module, node.name)
            lines = _typeddict_lines(cls, node, source, origin, unions)
        elif isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name):
            name = node.targets[0].id
            value = getattr(module, name, None)
            if not (get_origin(value) in (types.UnionType, typing.Union) and value in unions):
                continue
            comment = source.comments.get(node.end_lineno or node.lineno, "")
            union = " | ".join(js_type(member, unions) for member in get_args(value))
            described = f"{comment[0].upper() + comment[1:]}. " if comment else ""
            lines = [*_wrapped(f"{described}({origin}.{name})"), f"@typedef {{{union}}} {unions[value]}"]
        else:
            continue
        if headings:
            out.extend(["", *(f"// {heading}" for heading in headings)])
        out.extend(["", *_block(lines)])
    return out


def contracts_module() -> str:
    """plugins/types/contracts.js, from calckit.contracts."""
    from calckit import contracts

    head = (
        f"{WRITTEN} from calckit/contracts.py: do not edit (make lint fails when it is stale). The JSON between the "
        "build (Python) and the browser, typed for the type check (tsconfig.json): what the blocks write into their "
        "pages and what the book's package answers through the workers. The scripts name these types as "
        '`import("./contracts.js").Name` (tsconfig\'s rootDirs put this folder beside assets/); nothing imports this '
        "file at run time, and it is not written into the site. The shapes only the browser makes (the workers' "
        f"messages, the progress in localStorage) are hand-written in {BROWSER_TYPES}, re-exported here."
    )
    lines = ["// @ts-check", *_comment(head), f'export * from "./{BROWSER_TYPES}";']
    return "\n".join([*lines, *typedefs(contracts, "calckit.contracts"), ""])


def build_info_declarations() -> str:
    """plugins/types/build-info.d.ts, from layout.BuildInfo."""
    return _module_declarations("BuildInfo", "build-info.js")


def strings_declarations() -> str:
    """plugins/types/strings.d.ts, from layout.BookStrings."""
    return _module_declarations("BookStrings", "strings.js")


def _module_declarations(name: str, module: str) -> str:
    """The declarations of a module the build writes from the TypedDict `name` of runtime/layout.py."""
    from . import layout

    source = _Source.of(layout)
    node = source.classes()[name]
    lines = _comment(
        f"{WRITTEN} from runtime/layout.py's {name}: do not edit (make lint fails when it is stale). The module "
        f"{module} that the build writes beside the browser's scripts (site.py), declared for `tsc --checkJs` "
        "(tsconfig.json's rootDirs puts this folder beside assets/)."
    )
    for key, hint in get_type_hints(getattr(layout, name), include_extras=True).items():
        comment = source.field_comment(node, key)
        if comment:
            lines.extend(_block(_wrapped(comment)) if len(comment) > 110 else [f"/** {comment} */"])
        lines.append(f"export const {key}: {js_type(hint)};")
    return "\n".join([*lines, ""])


def twins() -> dict[Path, Callable[[], str]]:
    """Each generated file, with what writes it."""
    return {
        TYPES_DIR / "contracts.js": contracts_module,
        TYPES_DIR / "build-info.d.ts": build_info_declarations,
        TYPES_DIR / "strings.d.ts": strings_declarations,
    }


def main(argv: list[str] | None = None) -> int:
    check = "--check" in (sys.argv[1:] if argv is None else argv)
    stale = []
    for path, write in twins().items():
        text = write()
        if path.exists() and path.read_text(encoding="utf-8") == text:
            continue
        if check:
            stale.append(path)
        else:
            path.write_text(text, encoding="utf-8")
            print(f"wrote {path}")
    for path in stale:
        print(f"{path} is stale: run `python -m mkdocs_calculators.runtime.twins` and commit it", file=sys.stderr)
    return 1 if stale else 0


if __name__ == "__main__":
    raise SystemExit(main())
