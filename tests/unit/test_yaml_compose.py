"""Blocks' YAML is composed by libyaml (the build's largest cost was PyYAML's own parser); a mistake is still
described in the words of PyYAML's parser, which the messages for authors are written for."""

from __future__ import annotations

import yaml

from mkdocs_calculators.pages.yaml_errors import compose, describe_yaml_error


def test_valid_yaml_is_composed_by_libyaml() -> None:
    loader, node = compose("title: Roofline\nquestions:\n  - id: ridge\n")
    try:
        assert isinstance(loader, yaml.CSafeLoader)
        assert isinstance(node, yaml.MappingNode)
        assert [key.value for key, _ in node.value] == ["title", "questions"]
        assert node.value[1][0].start_mark.line == 1  # the lines that messages point at
    finally:
        loader.dispose()


def test_a_mistake_is_reported_as_pyyamls_parser_words_it() -> None:
    text = "a: 1\nb: [1, 2\nc: 3\n"
    try:
        compose(text)
    except yaml.MarkedYAMLError as error:
        assert error.problem == "expected ',' or ']', but got ':'"  # libyaml says "did not find expected ',' or ']'"
        line, message = describe_yaml_error(error, text)
        assert line == 1 and "[" in message
    else:
        raise AssertionError("compose accepted an unclosed [")
