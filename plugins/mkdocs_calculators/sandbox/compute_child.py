"""The process that runs the book's code for the build (started by compute_process.py; not imported by the plugin).

It reads requests from stdin and writes replies to stdout, each a pickle with a 4-byte length before it:

    ("path", [sys.path entries])            -> None          set up like the build's interpreter
    ("use", package, limit)                 -> None          import the book's package
    ("table", limit)                        -> None          call its data table's rows and sources, if it has one
    ("compute", name, values, limit)        -> object        what calculator `name`'s compute returns
    ("check_code", code, data, package, limit) -> dict       calckit.exercise_run.check_code (an exercise's solution)
    ("call", path, arguments, limit)        -> object        what the book's function `path` returns (an exercise's
                                                             expected value)

A reply is ("ok", value) or ("raised", "Type: message", "calculators/x.py:22"). Past `limit` seconds faulthandler
writes where the code is (every thread's stack) to stderr, even when it is stuck in C, for the build to quote; the
build then ends this process. What the book's code prints goes to stderr too, so stdout carries only replies.
"""

from __future__ import annotations

import faulthandler
import pickle
import struct
import sys
import traceback
from pathlib import Path
from typing import Any, BinaryIO


def _read(stream: BinaryIO) -> Any:
    header = stream.read(4)
    if len(header) < 4:
        return None
    (size,) = struct.unpack(">I", header)
    return pickle.loads(stream.read(size))


def _write(stream: BinaryIO, reply: object) -> None:
    data = pickle.dumps(reply, protocol=pickle.HIGHEST_PROTOCOL)
    stream.write(struct.pack(">I", len(data)) + data)
    stream.flush()


def _where(error: BaseException, package: Path | None) -> str:
    """The innermost line of the book's package that `error` went through: `calculators/x.py:22`."""
    if package is None:
        return ""
    for frame in reversed(traceback.extract_tb(error.__traceback__)):
        path = Path(frame.filename)
        if path.is_relative_to(package):
            return f"{package.name}/{path.relative_to(package).as_posix()}:{frame.lineno}"
    return ""


def main() -> None:
    requests, replies = sys.stdin.buffer, sys.stdout.buffer
    sys.stdout = sys.stderr  # the book's prints must not mix with the replies
    package: Path | None = None
    while (request := _read(requests)) is not None:
        kind, *arguments = request
        limit = arguments.pop() if kind != "path" else None
        if limit is not None:
            faulthandler.dump_traceback_later(limit, file=sys.stderr)
        try:
            if kind == "path":
                sys.path[:] = arguments[0]
                value: object = None
            elif kind == "use":
                from calckit import book

                package = book.use(arguments[0]).directory
                value = None
            elif kind == "table":
                from calckit import book

                table = book.current().table
                if table is not None:
                    table.rows()
                    table.sources()
                value = None
            elif kind == "compute":
                from calckit import book

                value = book.calculator(arguments[0]).compute(arguments[1])
            elif kind == "call":
                from calckit import book
                from calckit.answers import call_function

                value = call_function(arguments[0], arguments[1], book.current().package)
            else:
                from calckit.exercise_run import check_code

                value = check_code(*arguments)
            reply: tuple[Any, ...] = ("ok", value)
        except BaseException as error:  # the book's code may raise anything
            cause = f"{type(error).__name__}: {error}" if str(error) else type(error).__name__
            reply = ("raised", cause, _where(error, package))
        finally:
            if limit is not None:
                faulthandler.cancel_dump_traceback_later()
        try:
            _write(replies, reply)
        except Exception as error:  # what compute returned cannot be sent (a generator, a lambda)
            what = type(reply[1]).__name__
            _write(
                replies, ("raised", f"TypeError: compute returned a {what}, not a calckit.spec.Result ({error})", "")
            )


if __name__ == "__main__":
    main()
