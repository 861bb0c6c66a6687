"""A book and where its code runs: what a host (the build, `mkdocs serve`, Zensical's Markdown extension) works with.

calckit keeps no book and no runner of its own for a host: the host loads its book (`calckit.book.load`), starts
where its code runs (for the build, a process with a time limit: an `Executor`), and holds both in a `Session`. Work
on the book's pages runs inside `with session.active():`, which sends that book's code to the executor in this thread
alone and for that block alone; another book, or a test, computes here as ever. Only a process that serves one book
for its whole life binds one for good, at its entry point: the browser's worker and the build's compute process
(`calckit.book.use`).
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import TYPE_CHECKING

from .running import Executor, running_in

if TYPE_CHECKING:
    from .book import Book

__all__ = ["Session"]


@dataclass(frozen=True)
class Session:
    book: Book
    executor: Executor | None = None  # None: the book's code runs in this interpreter

    @contextmanager
    def active(self) -> Iterator[Book]:
        """The book, with its code run through the executor until the block ends."""
        with running_in(self.executor):
            yield self.book
