"""Where an author declared something: the file and line of the book's code that built a calckit object, so that a
mistake found later (two calculators of one name) is reported at the author's line."""

from __future__ import annotations

import functools
import os
import sys
import sysconfig
from pathlib import Path
from types import FrameType

__all__ = ["NOWHERE", "Place", "declared_here", "place_text"]

# calckit's own files and the standard library's (dataclasses.replace making a calculator from another) are not where
# an author declared anything.
_CALCKIT = Path(__file__).resolve().parent
_STDLIB = Path(sysconfig.get_paths()["stdlib"]).resolve()

Place = tuple[str, int]  # (absolute path of the file, line)
NOWHERE: Place = ("", 0)  # built somewhere calckit cannot see (a string passed to exec)


def declared_here() -> Place:
    """The place of the code that called into calckit: the first frame outside calckit's files, the standard
    library's and the code that dataclasses generate (a Calculator's `__init__`)."""
    frame: FrameType | None = sys._getframe(1)
    while frame is not None:
        filename = frame.f_code.co_filename
        if not filename.startswith("<") and (path := _authors(filename)):
            return (path, frame.f_lineno or 1)
        frame = frame.f_back
    return NOWHERE


@functools.cache
def _authors(filename: str) -> str:
    """The file's absolute path, or "" for calckit's and the standard library's (but for packages installed under the
    latter, in site-packages)."""
    path = Path(filename).resolve()
    if path.is_relative_to(_CALCKIT):
        return ""
    if path.is_relative_to(_STDLIB) and not {"site-packages", "dist-packages"} & set(path.parts):
        return ""
    return str(path)


def place_text(place: Place, root: Path) -> str:
    """`path:LINE`, the path relative to `root` when the file is under it."""
    path, line = place
    resolved = Path(path)
    shown = Path(os.path.relpath(resolved, root.resolve())) if resolved.is_relative_to(root.resolve()) else resolved
    return f"{shown.as_posix()}:{line}"
