"""The plugin's stylesheets as the site ships them: without their comments and layout whitespace.

calculators.css sits in every page's head, so a phone waits for it before its first paint; our sources explain
themselves at length (28 KB written out, 7.7 KB gzipped; 3.8 KB once compacted). Compacting keeps every token
and every space that separates two of them, and only drops a space beside punctuation that cannot need it: after
`{ } ; , : (` and before `{ } ; , ! )`. A space before `:` (a descendant's pseudo-class, `.a :is(.b)`) or around
`+ - > ~` (calc(), combinators) stays. Quoted strings, unquoted url()s and escapes are copied as written.
"""

from __future__ import annotations

import re

__all__ = ["compact_css"]

_SPACE = " \t\r\n\f"
_NO_SPACE_AFTER = "{};,:("
_NO_SPACE_BEFORE = "{};,!)"
# A run of characters that are each a token of their own and need no look at what follows: taken in one step (the
# stylesheets are written at every build, on the thread that shares the interpreter with the pages' rendering).
_PLAIN = re.compile(r"[^ \t\r\n\f\"'\\/u]+")


def compact_css(css: str) -> str:
    """`css` without comments, each run of whitespace one space or none (the module's docstring says which).

    Raises ValueError for a comment or a string left open, which a browser would read to the end of the file.
    """
    out: list[str] = []
    space = False
    i, n = 0, len(css)
    while i < n:
        char = css[i]
        if css.startswith("/*", i):
            end = css.find("*/", i + 2)
            if end < 0:
                raise ValueError(f"a comment opened at character {i} is not closed")
            i, space = end + 2, True
            continue
        if char in _SPACE:
            i, space = i + 1, True
            continue
        if char in "\"'":
            end = i + 1
            while end < n and css[end] != char:
                if css[end] == "\n":
                    raise ValueError(f"a string opened at character {i} ends with its line")
                end += 2 if css[end] == "\\" else 1
            if end >= n:
                raise ValueError(f"a string opened at character {i} is not closed")
            token, i = css[i : end + 1], end + 1
        elif char == "\\":  # an escape: the character after the backslash belongs to the name, a space too
            token, i = css[i : i + 2], i + 2
        elif css.startswith("url(", i) and css[i + 4 : i + 5] not in "\"'":  # unquoted: `//` or `/*` in it are its own
            end = css.find(")", i)
            if end < 0:
                raise ValueError(f"a url( opened at character {i} is not closed")
            token, i = css[i : end + 1], end + 1
        elif plain := _PLAIN.match(css, i):
            token, i = plain[0], plain.end()
        else:
            token, i = char, i + 1
        after = out[-1] if out else "{"
        if space and (after[-1] not in _NO_SPACE_AFTER or after[0] == "\\") and token[0] not in _NO_SPACE_BEFORE:
            out.append(" ")
        space = False
        out.append(token)
    return "".join(out)
