"""The stylesheets the site ships are compacted (runtime/stylesheets.py) without changing what a browser reads."""

from __future__ import annotations

from importlib import resources

import pytest
from hypothesis import given
from hypothesis import strategies as st

from mkdocs_calculators.runtime.site import PAGE_STYLES
from mkdocs_calculators.runtime.stylesheets import compact_css

SHIPPED = [*PAGE_STYLES, "quiz.css", "exercise.css"]
# A kind's stylesheets are in its folder (blocks/quiz/quiz.css), the shared ones in assets/.
KIND_STYLES = {"quiz.css": "blocks/quiz", "exercise.css": "blocks/exercise"}


def source(name: str) -> str:
    folder = resources.files("mkdocs_calculators")
    if name == "math.css":
        return (folder / "extras" / "math.css").read_text(encoding="utf-8")
    return folder.joinpath(KIND_STYLES.get(name, "assets"), name).read_text(encoding="utf-8")


def tokens(css: str) -> str:
    """`css` with its comments and all whitespace outside strings removed: what compacting must keep, in order."""
    out, i, quote = [], 0, ""
    while i < len(css):
        if not quote and css.startswith("/*", i):
            i = css.index("*/", i) + 2
            continue
        char = css[i]
        if quote:
            out.append(css[i : i + 2] if char == "\\" else char)
            i += 2 if char == "\\" else 1
            quote = "" if char == quote else quote
            continue
        if char in "\"'":
            quote = char
        if not char.isspace():
            out.append(char)
        i += 1
    return "".join(out)


@pytest.mark.parametrize(
    ("css", "compacted"),
    [
        ("/* note */ .a {\n  color: red; /* why */\n}\n", ".a{color:red;}"),
        (".a :is(.b, .c) { x: y }", ".a :is(.b,.c){x:y}"),  # the space before ':' is a descendant combinator
        (".a:hover > .b ~ .c + .d {}", ".a:hover > .b ~ .c + .d{}"),
        ("p { width: calc(100% - 2 * 1rem + 3px); }", "p{width:calc(100% - 2 * 1rem + 3px);}"),
        ("@media screen and (max-width: 38em) { .a { b: c } }", "@media screen and (max-width:38em){.a{b:c}}"),
        ('.a::after { content: "  /* kept */  \\"x\\" "; }', '.a::after{content:"  /* kept */  \\"x\\" ";}'),
        (".a { background: url(//host/a/*b.svg) no-repeat; }", ".a{background:url(//host/a/*b.svg) no-repeat;}"),
        (".md\\: .b, .c\\ d { e: f !important }", ".md\\: .b,.c\\ d{e:f!important}"),
        ("a{b:c}/**/d{e:f}", "a{b:c}d{e:f}"),
        ("a /**/ b{}", "a b{}"),
    ],
)
def test_compacting_keeps_the_spaces_that_separate(css: str, compacted: str) -> None:
    assert compact_css(css) == compacted


@pytest.mark.parametrize(
    "broken", [".a { b: c } /* open", '.a::after { content: "open }', ".a::after { content: 'a\nb' }"]
)
def test_an_unclosed_comment_or_string_is_an_error_not_a_guess(broken: str) -> None:
    with pytest.raises(ValueError, match="character"):
        compact_css(broken)


@pytest.mark.parametrize("name", [*SHIPPED, "math.css"])
def test_every_shipped_stylesheet_keeps_its_tokens_and_loses_its_comments(name: str) -> None:
    css = source(name)
    compacted = compact_css(css)
    assert tokens(compacted) == tokens(css)
    assert "/*" not in compacted and "\n" not in compacted
    assert compact_css(compacted) == compacted
    assert len(compacted) < 0.8 * len(css)  # each is written out with comments: 20 to 76 per cent smaller


def one_character_at_a_time(css: str) -> str:
    """compact_css as it was first written, taking each character that is not a comment, a string, an escape or an
    unquoted url() as a token of its own: the oracle for the runs that compact_css now takes in one step."""
    out: list[str] = []
    space = False
    i, n = 0, len(css)
    while i < n:
        char = css[i]
        if css.startswith("/*", i):
            end = css.find("*/", i + 2)
            if end < 0:
                raise ValueError("open comment")
            i, space = end + 2, True
            continue
        if char in " \t\r\n\f":
            i, space = i + 1, True
            continue
        if char in "\"'":
            end = i + 1
            while end < n and css[end] != char:
                if css[end] == "\n":
                    raise ValueError("string ends with its line")
                end += 2 if css[end] == "\\" else 1
            if end >= n:
                raise ValueError("open string")
            token, i = css[i : end + 1], end + 1
        elif char == "\\":
            token, i = css[i : i + 2], i + 2
        elif css.startswith("url(", i) and css[i + 4 : i + 5] not in "\"'":
            end = css.find(")", i)
            if end < 0:
                raise ValueError("open url(")
            token, i = css[i : end + 1], end + 1
        else:
            token, i = char, i + 1
        after = out[-1] if out else "{"
        if space and (after[-1] not in "{};,:(" or after[0] == "\\") and token[0] not in "{};,!)":
            out.append(" ")
        space = False
        out.append(token)
    return "".join(out)


PIECES = ["a", "b-c", "u", "url(", "url(x  y)", ")", "(", " ", "  ", "\n", "/*", "*/", "/", "\\", "\\ ", '"', "'"]
PIECES += ["{", "}", ":", ";", ",", "!", "+", ">", "~", "#", ".", "dur"]


@given(st.lists(st.sampled_from(PIECES), max_size=30).map("".join))
def test_runs_taken_in_one_step_compact_as_characters_one_at_a_time(css: str) -> None:
    try:
        expected = one_character_at_a_time(css)
    except ValueError:
        with pytest.raises(ValueError):
            compact_css(css)
        return
    assert compact_css(css) == expected


@pytest.mark.parametrize("name", [*SHIPPED, "math.css"])
def test_every_shipped_stylesheet_compacts_as_one_character_at_a_time(name: str) -> None:
    assert compact_css(source(name)) == one_character_at_a_time(source(name))
