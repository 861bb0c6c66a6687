"""What the build tells an author: one `Problem` (`path:LINE: message`) for every mistake it finds, and a failure in
the book's own code said the same way, never as a traceback.

The plugin imports the book's package at build; when that fails (a syntax error in a calculator, a typo in the chip
database found at import), the author reads where and why, located like every other build message.
"""

from __future__ import annotations

import os
import re
import traceback
from dataclasses import dataclass
from pathlib import Path

from calckit.names import DuplicateName

__all__ = ["LIMIT", "Problem", "located", "python_failure"]


@dataclass(frozen=True)
class Problem:
    """One mistake in an author's file, at its line (counted from the top of the file, front matter included)."""

    path: str  # as a person finds the file from the project's root: docs/lessons/roofline.md
    line: int
    message: str
    warning: bool = False  # something missing that strict mode refuses, rather than something wrong

    def __str__(self) -> str:
        return f"{self.path}:{self.line}: {self.message}"


# A message that already names its place (the chip database's errors do): `calculators/chips.toml:12: ...`.
_LOCATED = re.compile(r"^\S+:\d+: ")


def located(error: BaseException, root: Path) -> str:
    """`error` as `path:LINE: Type: message`, at the innermost frame under `root` (paths shown relative to it)."""
    if isinstance(error, DuplicateName):  # it knows both places: show them from the project's root
        return error.shown(root)
    message = str(error)
    if _LOCATED.match(message):
        return message
    if isinstance(error, SyntaxError) and error.filename:
        return f"{_shown(error.filename, root)}:{error.lineno or 1}: SyntaxError: {error.msg}"
    frames = traceback.extract_tb(error.__traceback__)
    ours = [frame for frame in frames if _under(frame.filename, root)] or frames
    text = f"{type(error).__name__}: {message}" if message else type(error).__name__
    if not ours:
        return text
    # A constructor that refuses its arguments (an Input declared with a bad range) points at where it was called:
    # that is the line the author wrote.
    constructors = [index for index, frame in enumerate(ours) if frame.name in ("__init__", "__post_init__")]
    frame = ours[constructors[0] - 1] if constructors and constructors[0] > 0 else ours[-1]
    return f"{_shown(frame.filename, root)}:{frame.lineno}: {text}"


def _under(filename: str, root: Path) -> bool:
    try:
        Path(filename).resolve().relative_to(root.resolve())
    except ValueError:
        return False
    return "site-packages" not in Path(filename).parts


def _shown(filename: str, root: Path) -> str:
    path = Path(filename).resolve()
    try:
        return path.relative_to(root.resolve()).as_posix()
    except ValueError:
        return Path(os.path.relpath(path, root.resolve())).as_posix()


# Where the worker and snapshot.mjs put the wheel, and where Pyodide keeps the standard library: shown as the
# package's own paths (`calculators/x.py`), as a contributor finds them in the repository.
_PYODIDE_PATHS = re.compile(r'/lib/wheels/[^/"]+\.whl/|/lib/python3\.\d+/(?:site-packages/)?')
_FRAME = re.compile(r'^\s*File "(?P<file>[^"]+)", line (?P<line>\d+)')
FRAMES_SHOWN = 3
LIMIT = 3000  # characters of Python's output quoted in a message


def python_failure(output: str) -> tuple[str, str]:
    """Python's traceback as printed from Pyodide, said briefly: (`calculators/x.py:9: Type: message`, last frames).

    Anything before the last traceback (Pyodide's JavaScript, a stack) is dropped, and what is kept is capped.
    """
    text = _PYODIDE_PATHS.sub("", output.strip())
    start = text.rfind("Traceback (most recent call last):")
    lines = text[start:].splitlines() if start >= 0 else text.splitlines()[-5:]
    frames = [index for index, line in enumerate(lines) if _FRAME.match(line)]
    tail = lines[frames[-FRAMES_SHOWN] :] if len(frames) >= FRAMES_SHOWN else lines[1:] if frames else lines
    exception = next((line for line in reversed(lines) if line.strip() and not line.startswith(" ")), "")
    place = ""
    for index in reversed(frames):
        match = _FRAME.match(lines[index])
        if match and not match["file"].startswith(("<", "/")):
            place = f"{match['file']}:{match['line']}: "
            break
    detail = "\n".join(tail)
    if len(detail) > LIMIT:
        detail = "..." + detail[-LIMIT:]
    return f"{place}{exception.strip()[:LIMIT]}", detail
