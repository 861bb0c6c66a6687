"""The one way an author's YAML is read: the data as written, and the file line of every key and list entry.

Every block kind reads its body through `load_yaml`, so that a problem found anywhere in the data (by the plugin or by
calckit's readers, which say where with a `Where` path) is reported at its line, and a YAML mistake is worded the same
whatever block it is in.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import yaml

from calckit.authored import Where

from .yaml_errors import Loader, compose, describe_yaml_error

__all__ = ["Loaded", "Where", "YamlProblem", "load_yaml"]


class YamlProblem(Exception):
    """A block whose YAML cannot be read, at the file line where the mistake starts."""

    def __init__(self, line: int, message: str) -> None:
        super().__init__(message)
        self.line = line
        self.message = message


@dataclass(frozen=True)
class Loaded:
    data: Any  # the YAML's data, keys as the author wrote them (`yes:` is 'yes', not True); None for an empty body
    lines: dict[Where, int]  # the file line of every key and list entry; () is the block's own line

    def line(self, where: Where) -> int:
        """The line of the deepest part of `where` that the author wrote (a missing field: its mapping's line)."""
        for end in range(len(where), -1, -1):
            if where[:end] in self.lines:
                return self.lines[where[:end]]
        return self.lines[()]


def load_yaml(text: str, first_line: int, block_line: int, what: str, noun: str | None = None) -> Loaded:
    """`text`, whose first line is file line `first_line`, read as YAML; YamlProblem for a mistake in it.

    `what` names the text in messages ('quiz block', 'quiz file'); `noun` what repeats a key ('quiz', `what` if None).
    `block_line` is the line a problem of the whole block is reported at (its opening fence).
    """
    try:
        loader, node = compose(text)
        try:
            lines: dict[Where, int] = {(): block_line}
            data = _construct(loader, node, (), lines, first_line, noun or what) if node is not None else None
        finally:
            loader.dispose()
    except yaml.MarkedYAMLError as error:
        line, message = describe_yaml_error(error, text)
        raise YamlProblem(first_line + line, f"{what} is {message}") from None
    return Loaded(data, lines)


def _construct(loader: Loader, node: yaml.Node, where: Where, lines: dict[Where, int], first: int, noun: str) -> Any:
    if isinstance(node, yaml.MappingNode):
        loader.flatten_mapping(node)  # merges `<<` keys into node.value, as construct_mapping would
        mapping: dict[str, Any] = {}
        for key_node, value_node in node.value:
            if not isinstance(key_node, yaml.ScalarNode):
                raise YamlProblem(first + key_node.start_mark.line, f"{noun} has a key that is not text")
            key = str(key_node.value)  # the key's text, not its YAML value: `yes:` is the author's 'yes'
            line = first + key_node.start_mark.line
            if key in mapping:
                raise YamlProblem(line, f"{noun} has the key '{key}' twice here (YAML would keep only the last)")
            lines[(*where, key)] = line
            mapping[key] = _construct(loader, value_node, (*where, key), lines, first, noun)
        return mapping
    if isinstance(node, yaml.SequenceNode):
        items = []
        for index, child in enumerate(node.value):
            lines[(*where, index)] = first + child.start_mark.line
            items.append(_construct(loader, child, (*where, index), lines, first, noun))
        return items
    return loader.construct_object(node, deep=True)
