"""PyYAML's errors said for authors: the line where the mistake starts, what is wrong, and how to mend it.

PyYAML reports where it noticed a problem, which is often lines after the cause, in its own words ("mapping values
are not allowed here"). Every block kind reads YAML through this one translation, and composes it with `compose`.
"""

from __future__ import annotations

import re

import yaml

from calckit.numbers import NumberError, read_number

__all__ = ["Loader", "MisreadNumber", "compose", "describe_yaml_error"]

Loader = yaml.SafeLoader | yaml.CSafeLoader
_FAST: type[Loader] = getattr(yaml, "CSafeLoader", yaml.SafeLoader)  # libyaml, where PyYAML was built with it

QUOTE_HINT = "text that contains ': ' must be in quotes, as in: text: \"Ratio: FLOP per byte?\""
INDENT_HINT = "this line is indented under a key that already has a value: check its indentation"
TAB_HINT = "YAML indents with spaces, not tabs: replace the tab with spaces"
QUOTE_OPEN_HINT = "a quote opened here is never closed"
BRACKET_HINT = "a [ or { opened here is not closed, or its items lack commas"


def compose(text: str) -> tuple[Loader, yaml.Node | None]:
    """A loader and the single document of `text`, composed by libyaml: twenty times faster than PyYAML's own parser,
    which was most of what the plugin added to a build. On a syntax error, the text is composed again by PyYAML's
    parser, whose error (raised) the messages here are written for. The caller disposes of the loader."""
    fast = _FAST(text)
    try:
        node = fast.get_single_node()
    except yaml.MarkedYAMLError:
        fast.dispose()
    else:
        return fast, _checked(fast, node, text)
    slow = yaml.SafeLoader(text)
    return slow, _checked(slow, slow.get_single_node(), text)


def _checked(loader: Loader, node: yaml.Node | None, text: str) -> yaml.Node | None:
    try:
        _refuse_misread_numbers(loader, node, text)
    except MisreadNumber:
        loader.dispose()
        raise
    return node


class MisreadNumber(yaml.MarkedYAMLError):
    """A plain value that YAML 1.1 reads as another number than the one written: 1:30 is 90 (base 60), 012 is 10
    (octal), 1.0e-400 is 0, and 9,5 in a { } mapping is 9 and a key 5 (a comma ends a value there). Raised with
    the value's place, so that the block's message gives its line."""


_INT = "tag:yaml.org,2002:int"
_FLOAT = "tag:yaml.org,2002:float"
_BASE_60 = re.compile(r"[-+]?\d[\d_]*(?::[0-5]?\d)+(?:\.[\d_]*)?")
_OCTAL = re.compile(r"[-+]?0[0-7_]+")
_NULL = "tag:yaml.org,2002:null"


def _plain_number(node: yaml.Node) -> bool:
    return isinstance(node, yaml.ScalarNode) and not node.style and node.tag in (_INT, _FLOAT)


def _refuse_split_numbers(node: yaml.MappingNode, text: str) -> None:
    """MisreadNumber for a number written with a comma in a { } mapping: `{intensity: 9,5}` is read by YAML as
    `intensity: 9` and a key `5` with no value (in a flow mapping a comma ends the value), and the block would
    only report an unknown input '5'. Found as a plain number followed, right after its comma, by keys that are
    digits with nothing after them."""
    pairs = node.value
    for index, (_, value) in enumerate(pairs):
        if not _plain_number(value):
            continue
        end, parts = value.end_mark.index, [value.value]
        for key, after in pairs[index + 1 :]:
            bare = after.tag == _NULL and after.start_mark.index == after.end_mark.index  # `5` alone: no `: value`
            digits = isinstance(key, yaml.ScalarNode) and not key.style and key.value.isascii() and key.value.isdigit()
            if not (digits and bare and text[end : key.start_mark.index] == ","):
                break
            end = key.end_mark.index
            parts.append(key.value)
        if len(parts) == 1:
            continue
        written = ",".join(parts)
        try:
            meant = f"write {read_number(written):.15g}, or '{written}' in quotes"
        except NumberError as error:  # `1,2,3`: in quotes it would be refused too
            meant = error.advice[0].lower() + error.advice[1:]
        entries = f"{parts[0]} and {'keys' if len(parts) > 2 else 'a key'} {', '.join(parts[1:])}"
        problem = f"YAML reads {written} in a {{ }} mapping as {entries}: {meant}"
        raise MisreadNumber(problem=problem, problem_mark=value.start_mark)


def _refuse_misread_numbers(loader: Loader, node: yaml.Node | None, text: str) -> None:
    """MisreadNumber for the first plain scalar under `node` that YAML would read as a number other than written."""
    if node is None:
        return
    if isinstance(node, yaml.MappingNode):
        if node.flow_style:
            _refuse_split_numbers(node, text)
        for key, value in node.value:
            _refuse_misread_numbers(loader, key, text)
            _refuse_misread_numbers(loader, value, text)
    elif isinstance(node, yaml.SequenceNode):
        for item in node.value:
            _refuse_misread_numbers(loader, item, text)
    elif isinstance(node, yaml.ScalarNode) and not node.style and node.tag in (_INT, _FLOAT):  # plain: libyaml says ""
        text = node.value
        read = loader.construct_object(node)
        problem = ""
        if _BASE_60.fullmatch(text):
            quoted = f'"{text}" in quotes for text'
            problem = f"YAML reads {text} as {read:g} (base 60): write the number itself, or {quoted}"
        elif node.tag == _INT and _OCTAL.fullmatch(text):
            problem = f'YAML reads {text} as {read} (octal): write it without the leading 0, or "{text}" in quotes'
        elif read == 0 and re.search("[1-9]", re.split("[eE]", text)[0]):
            problem = f"{text} is too small to tell from 0: write 0, or a larger number"
        if problem:
            raise MisreadNumber(problem=problem, problem_mark=node.start_mark)


def describe_yaml_error(error: yaml.MarkedYAMLError, text: str) -> tuple[int, str]:
    """The 0-based line of `text` where the mistake starts, and 'not valid YAML: ...' with a hint where one helps (or
    'unclear: ...' for a number that YAML would misread)."""
    if isinstance(error, MisreadNumber):
        return (error.problem_mark.line if error.problem_mark else 0), f"unclear: {error.problem}"
    # An unclosed quote or bracket, or a key without its colon, is found lines later: point at where it starts.
    started = error.context_mark is not None and any(
        word in (error.context or "") for word in ("scalar", "simple key", "flow")
    )
    mark = (error.context_mark if started else error.problem_mark) or error.context_mark
    what = ", ".join(part for part in (error.context, error.problem) if part)
    hint = _hint(error, text)
    return (mark.line if mark else 0), f"not valid YAML: {what}" + (f" ({hint})" if hint else "")


def _hint(error: yaml.MarkedYAMLError, text: str) -> str:
    problem, context = error.problem or "", error.context or ""
    if "'\\t'" in problem:
        return TAB_HINT
    if "mapping values are not allowed" in problem and error.problem_mark is not None:
        lines = text.splitlines()
        mark = error.problem_mark
        line = lines[mark.line] if mark.line < len(lines) else ""
        first_colon = line.find(": ")
        # The colon PyYAML stumbled on comes after the line's own `key: `: it is part of unquoted text.
        return QUOTE_HINT if -1 < first_colon < mark.column else INDENT_HINT
    if "quoted scalar" in context:
        return QUOTE_OPEN_HINT
    if "flow" in context:
        return BRACKET_HINT
    return ""
