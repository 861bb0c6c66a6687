"""The book's code at build, in a process of its own, with a time limit: a compute that never returns cannot hang the
build or `mkdocs serve`.

An exception cannot stop code that is stuck in C (`10**10**8`, `time.sleep(10**6)`), nor can a signal reach a build
that `mkdocs serve` runs off the main thread: ending a process can. So one persistent child (compute_child.py) imports
the book's package and runs every compute, each exercise's solution, and each call of a book's function that checks
an exercise, that the build asks for: the host's `calckit.session.Session` holds it as its executor, active while the
host renders the book's pages. A call past the limit ends the child,
raises `TimeLimitExceeded` with the line the code was on (from faulthandler's dump in the child), and the next call
starts a new child. A few hundred small calls cost tens of milliseconds in all (pickles over a pipe). The build
imports the package itself only once the child's import has finished within its limit (`imported`): code at a
module's top level may hang too.

Every host that runs the book's code at build sets it up the same way, through `start_book_code` (or its two halves)
and `stop_book_code`, and puts `session(book, code)` in place: the MkDocs plugin, the Markdown extension (Zensical),
and the `mkdocs-calculators` command.
"""

from __future__ import annotations

import atexit
import contextlib
import os
import pickle
import re
import select
import struct
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any

from calckit.exercise_reach import is_solution_file
from calckit.exercise_run import FILENAME as EXERCISE_FILENAME
from calckit.running import CodeFailure, Executor, FunctionRunner, RaisedElsewhere, TimeLimitExceeded

if TYPE_CHECKING:
    from calckit.book import Book
    from calckit.contracts import CheckResult
    from calckit.session import Session
    from calckit.spec import Calculator, Value

__all__ = [
    "DEFAULT_LIMIT",
    "ComputeProcess",
    "await_book_code",
    "failure_message",
    "launch_book_code",
    "limit_problem",
    "session",
    "start_book_code",
    "stop_book_code",
]

DEFAULT_LIMIT = 5.0  # seconds, per call (the plugin's `time_limit` option)
# The child's start and the package's import may take longer than a compute, on a busy machine: this many limits.
IMPORT_LIMITS = 6
GRACE = 2.0  # seconds past the limit for the child's own timer to say where the code is, before it is ended
CHILD = Path(__file__).with_name("compute_child.py")
_DUMP_FRAME = re.compile(r'^\s*File "(?P<file>[^"]+)", line (?P<line>\d+)')


class ComputeProcess:
    """A child Python running the book's package `package`; `limit` seconds for each call."""

    def __init__(self, package: str, directory: Path, limit: float = DEFAULT_LIMIT) -> None:
        self.package = package
        self.directory = directory  # the package's folder, for the places quoted
        self.limit = limit
        self.import_limit = max(IMPORT_LIMITS * limit, 10.0)
        self._child: subprocess.Popen[bytes] | None = None
        self._stderr: list[str] = []
        self._lock = threading.Lock()
        self.import_raised = False  # whether its import of the package raised (`imported`): the build's says how

    def start(self) -> None:
        """Start the child and have it import the package (not waited for: the first call waits)."""
        if self._child is not None:
            return
        self._stderr = []
        child = subprocess.Popen(
            [sys.executable, "-X", "utf8", str(CHILD)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            bufsize=0,  # raw pipes: select() then sees every byte that is waiting
        )
        self._child = child
        threading.Thread(target=self._relay, args=(child.stderr, self._stderr), daemon=True).start()
        self._send(("path", list(sys.path)))
        self._send(("use", self.package, self.import_limit))
        self._send(("table", self.import_limit))  # its rows and sources are the book's code too, run at load

    def close(self) -> None:
        """End the child: its stdin closed, it returns (between calls, it is waiting on it). Its exit is waited for
        on a thread, not here, where it would add tens of milliseconds to every build; past 2 s, or when this
        interpreter exits first, it is killed: no child outlives the build."""
        child, self._child = self._child, None
        if child is None:
            return
        with contextlib.suppress(OSError):
            child.stdin.close()  # type: ignore[union-attr]
        _closing.add(child)
        threading.Thread(target=_reap, args=(child,), daemon=True).start()

    def imported(self) -> tuple[str, TimeLimitExceeded] | None:
        """Wait for the package's import in the child, then its data table's load: what hung ("import" or "table")
        and how, or None (an import that raises is left for the build's own import to report, where its traceback
        is)."""
        with self._lock:
            self.start()
            phase = "import"
            try:
                self._reply(self.import_limit)  # "path"
                self._reply(self.import_limit)  # "use"
                phase = "table"
                self._reply(self.import_limit)  # "table"
            except RaisedElsewhere:  # an import that raises, or a child closed meanwhile: not a hang
                self.import_raised = True
                self.close()
            except TimeLimitExceeded as error:
                return phase, error
            return None

    def compute(self, name: str, values: Mapping[str, Any]) -> object:
        """What calculator `name`'s compute returns for `values`, run in the child."""
        return self._call(("compute", name, dict(values), self.limit))

    def check_code(self, code: str, data: Mapping[str, Any], package: str | None) -> CheckResult:
        result: CheckResult = self._call(("check_code", code, dict(data), package, self.limit))  # type: ignore[assignment]
        return result

    def call_function(self, path: str, arguments: Mapping[str, Any], here: FunctionRunner) -> object:
        """What the book's function `path` returns for these keyword arguments: run in the child when `path` is in
        this package; a function of another package (an exercise may be checked by any importable function) through
        `here`, in this interpreter."""
        if path != self.package and not path.startswith(f"{self.package}."):
            return here(path, arguments)
        return self._call(("call", path, dict(arguments), self.limit))

    def _call(self, request: tuple[Any, ...]) -> object:
        with self._lock:
            if self._child is not None and self._child.poll() is not None:
                self._end()  # it ended between calls (the book's code ended Python)
            if self._child is None:  # the first call, or the first since one ran past the limit
                self.start()
                self._reply(self.import_limit)
                with contextlib.suppress(RaisedElsewhere):  # the build's own import reports it
                    self._reply(self.import_limit)
                with contextlib.suppress(RaisedElsewhere):
                    self._reply(self.import_limit)
            self._send(request)
            return self._reply()

    def runner(self, calculator: Calculator, values: Mapping[str, Value]) -> object:
        """The session's compute: the book's calculator runs in the child, which finds its own import of it by
        name. Only the session's book computes through it (calckit.session), so no other is sent there."""
        return self.compute(calculator.name, values)

    def executor(self) -> Executor:
        return Executor(self.runner, self.check_code, self.call_function)

    def _send(self, request: tuple[Any, ...]) -> None:
        assert self._child is not None and self._child.stdin is not None
        data = pickle.dumps(request, protocol=pickle.HIGHEST_PROTOCOL)
        self._child.stdin.write(struct.pack(">I", len(data)) + data)
        self._child.stdin.flush()

    def _reply(self, limit: float | None = None) -> object:
        """The next reply, its value or its exception; TimeLimitExceeded (the child then ended) past the limit."""
        child = self._child
        if child is None or child.stdout is None:
            raise RaisedElsewhere("the compute process was closed", "")
        stdout = child.stdout
        limit = self.limit if limit is None else limit
        deadline = time.monotonic() + limit
        try:
            header = self._read(stdout, 4, deadline)
        except (_Ended, OSError, ValueError):
            self._end()
            raise RaisedElsewhere(f"SystemExit: the book's code ended Python (exit code {child.poll()})", "") from None
        if header is None:
            where = self._where_stuck()
            self._end()
            raise TimeLimitExceeded(limit, where)
        (size,) = struct.unpack(">I", header)
        try:
            body = self._read(stdout, size, time.monotonic() + GRACE + self.limit)
        except (_Ended, OSError, ValueError):
            body = None
        if body is None:
            self._end()
            raise TimeLimitExceeded(limit)
        reply = pickle.loads(body)
        if reply[0] == "raised":
            raise RaisedElsewhere(reply[1], reply[2])
        return reply[1]

    def _read(self, stream: IO[bytes], size: int, deadline: float) -> bytes | None:
        """`size` bytes, or None when the deadline passes first (or the child died)."""
        data = b""
        while len(data) < size:
            left = deadline - time.monotonic()
            if left <= 0 or not select.select([stream], [], [], left)[0]:
                return None
            chunk = os.read(stream.fileno(), size - len(data))
            if not chunk:
                raise _Ended  # the child ended: killed, closed, or the book's code ended Python (os._exit)
            data += chunk
        return data

    def _where_stuck(self) -> str:
        """Where the child's code was at the limit, from faulthandler's dump (waited for a little)."""
        end = time.monotonic() + GRACE
        while time.monotonic() < end:
            text = "".join(self._stderr)
            if "Timeout (" in text:
                time.sleep(0.05)  # the rest of the dump
                break
            time.sleep(0.02)
        text = "".join(self._stderr)
        dump = text[text.rfind("Timeout (") :] if "Timeout (" in text else ""
        frames = [match for line in dump.splitlines() if (match := _DUMP_FRAME.match(line))]  # most recent first
        for match in frames:
            if Path(match["file"]).is_relative_to(self.directory):
                relative = Path(match["file"]).relative_to(self.directory).as_posix()
                return f"{self.directory.name}/{relative}:{match['line']}"
        for match in frames:
            if match["file"] == EXERCISE_FILENAME or is_solution_file(match["file"]):
                return f"line {match['line']} of the solution"
        return ""

    def _end(self) -> None:
        child, self._child = self._child, None
        if child is not None:
            child.kill()
            child.wait()

    @staticmethod
    def _relay(stream: IO[bytes] | None, kept: list[str]) -> None:
        """Keep the child's stderr (for faulthandler's dump) and pass on what the book's code prints."""
        if stream is None:
            return
        dumping = False
        for raw in iter(stream.readline, b""):
            line = raw.decode("utf-8", "replace")
            kept.append(line)
            dumping = dumping or line.startswith("Timeout (")
            if not dumping:
                sys.stderr.write(line)


def limit_problem(limit: object) -> str:
    """Why `limit` (a `time_limit` option as written) is not a time limit, or ""."""
    if isinstance(limit, bool) or not isinstance(limit, int | float) or not limit > 0:
        return f"calculators: 'time_limit' must be a number of seconds > 0 (got {limit!r})"
    return ""


def start_book_code(package: str, limit: float) -> tuple[ComputeProcess | None, str]:
    """Start the process that runs the book's package `package` (where every compute and exercise check of a
    `session` made with it runs), and wait for its import of the package: the process (None when `package` is not a
    package, which load_book then says), and why that import hung, or "" (the process is then stopped already).

    Only then may the caller import the package itself (books.load_book): code at a module's top level that never
    returns would otherwise hang it where no time limit can stop it. A watchdog thread cannot end code that is stuck
    in C holding the interpreter (`10**10**8`), nor can a signal reach `mkdocs serve`'s builds, off the main thread;
    ending the child can. A host with work of its own to do meanwhile calls the two halves itself:
    `launch_book_code`, then `await_book_code`.
    """
    return await_book_code(launch_book_code(package, limit))


def launch_book_code(package: str, limit: float) -> ComputeProcess | None:
    """Start the process that runs the book's package `package`; not waited for (await_book_code waits). None when
    `package` is not a package, which load_book then says."""
    import importlib.util

    try:
        spec = importlib.util.find_spec(package)
    except (ImportError, ValueError):  # a dotted name whose parent is missing or broken: load_book says why
        spec = None
    folders = list(spec.submodule_search_locations or []) if spec else []
    if not folders:
        return None
    code = ComputeProcess(package, Path(folders[0]), limit)
    code.start()
    return code


def await_book_code(
    code: ComputeProcess | None, meanwhile: Callable[[Path], None] | None = None
) -> tuple[ComputeProcess | None, str]:
    """Wait for the child's import of the package, as start_book_code says; first run `meanwhile(folder)`, work on
    the package's folder that does not import it, while the child imports it."""
    if code is None:
        return None, ""
    if meanwhile is not None:
        try:
            meanwhile(code.directory)
        except BaseException:
            stop_book_code(code)  # no child outlives a build that stops here
            raise
    hung = code.imported()
    if hung is None:
        return code, ""
    stop_book_code(code)
    phase, error = hung
    where = f"{error.where}: " if error.where else ""
    what = (
        f"loading the data table of the package '{code.package}' (its rows and sources)"
        if phase == "table"
        else f"importing the package '{code.package}'"
    )
    return None, f"{where}calculators: {what} did not finish within {error.limit:g} s"


def stop_book_code(code: ComputeProcess | None) -> None:
    """End `code`'s process (a session made with it then runs nothing more there)."""
    if code is not None:
        code.close()


def session(book: Book, code: ComputeProcess | None) -> Session:
    """The host's session: `book`, with its code run in `code`'s process (in this interpreter without one)."""
    from calckit.session import Session

    return Session(book, code.executor() if code is not None else None)


_closing: set[subprocess.Popen[bytes]] = set()  # children closed and not yet seen to end


def _reap(child: subprocess.Popen[bytes]) -> None:
    try:
        child.wait(timeout=2)
    except subprocess.TimeoutExpired:
        child.kill()
        child.wait()
    _closing.discard(child)


@atexit.register
def _kill_closing() -> None:
    for child in list(_closing):
        if child.poll() is None:
            child.kill()


class _Ended(Exception):
    """The child's pipe closed."""


def failure_message(error: CodeFailure, kind: str, book: Book | None) -> str:
    """What the author of a `kind` block reads for `book`'s code failing while the block was read (a quiz's
    answer, an exercise's cases, its solution checked on them)."""
    from calckit.api import describe_failure

    if error.calculator is not None and book is not None:
        return describe_failure(book, error.calculator, error.values or {}, error)["message"]
    place = f" ({error.where})" if isinstance(error, TimeLimitExceeded | RaisedElsewhere) and error.where else ""
    if isinstance(error, TimeLimitExceeded):
        what = "the solution" if kind == "exercise" else "the book's code"
        return f"{kind} block: {what} did not finish within {error.limit:g} s{place}"
    return f"{kind} block: {error}{place}"
