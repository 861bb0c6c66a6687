"""Helpers shared by the test layers: the repository's paths, building a site, serving it on 127.0.0.1."""

from __future__ import annotations

import functools
import gzip
import http.server
import io
import json
import os
import re
import socket
import subprocess
import sys
import tempfile
import threading
import time
import tomllib
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from pathlib import Path
from typing import Any, BinaryIO
from urllib.parse import urlsplit

ROOT = Path(__file__).resolve().parent.parent
NODE_MODULES = ROOT / "node_modules"
MKDOCS = [sys.executable, "-m", "mkdocs"]


def free_port() -> int:
    """A port of 127.0.0.1 that nothing listens on (for a `mkdocs serve` a test starts)."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def mkdocs_serve(root: Path, port: int, env: dict[str, str]) -> tuple[subprocess.Popen[str], list[str]]:
    """`mkdocs serve` of the book at `root` on 127.0.0.1:`port`, and the lines of its log as they arrive (read on a
    thread, so that a test can wait for one). The caller stops it."""
    serve = subprocess.Popen(
        [sys.executable, "-m", "mkdocs", "serve", "--dev-addr", f"127.0.0.1:{port}"],
        cwd=root,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )
    log: list[str] = []
    stderr = serve.stderr
    assert stderr is not None
    threading.Thread(target=lambda: log.extend(iter(stderr.readline, "")), daemon=True).start()
    return serve, log


def build_env(**extra: str) -> dict[str, str]:
    return {**os.environ, "NO_MKDOCS_2_WARNING": "1", **extra}


def build_site(
    config_file: Path, site_dir: Path, *, timeout: float | None = None, **env: str
) -> subprocess.CompletedProcess[str]:
    """`mkdocs build --strict` of `config_file` into `site_dir`, as a contributor would run it (stopped after
    `timeout` seconds, raising subprocess.TimeoutExpired, when given)."""
    return subprocess.run(
        [*MKDOCS, "build", "--strict", "--config-file", str(config_file), "--site-dir", str(site_dir)],
        capture_output=True,
        text=True,
        env=build_env(**env),
        cwd=config_file.parent,
        check=False,
        timeout=timeout,
    )


# A second book, with its own package of calculators (`circuits`), that proves the plugin serves any book.
SECOND_BOOK = ROOT / "tests" / "second_book"
# Runs mkdocs as its command line does, then says which modules of this book's package the build imported.
_MKDOCS_REPORTING_IMPORTS = """
import atexit, sys
atexit.register(lambda: sys.stderr.write(
    "\\nimported from calculators: "
    + repr(sorted(name for name in sys.modules if name == "calculators" or name.startswith("calculators.")))
    + "\\n"))
from mkdocs.__main__ import cli
sys.argv = ["mkdocs", *sys.argv[1:]]
cli()
"""


@functools.cache
def installed_metadata(root: Path) -> Path:
    """A folder holding what `pip install -e` of the book at `root` writes for Python to find it by, made from its
    pyproject.toml: a dist-info with its name, version, entry points (the kinds it registers with the plugin,
    mkdocs_calculators.kinds) and where the project is (direct_url.json). On sys.path beside `root`, the book is
    importable and registered as an editable install makes it, without installing it into the tests' environment."""
    project = tomllib.loads((root / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    folder = Path(tempfile.mkdtemp(prefix="book-metadata-"))
    info = folder / f"{project['name']}-{project['version']}.dist-info"
    info.mkdir()
    (info / "METADATA").write_text(
        f"Metadata-Version: 2.1\nName: {project['name']}\nVersion: {project['version']}\n", encoding="utf-8"
    )
    groups = project.get("entry-points", {})
    (info / "entry_points.txt").write_text(
        "".join(
            f"[{group}]\n" + "".join(f"{name} = {value}\n" for name, value in entries.items()) + "\n"
            for group, entries in groups.items()
        ),
        encoding="utf-8",
    )
    direct = {"url": root.resolve().as_uri(), "dir_info": {"editable": True}}
    (info / "direct_url.json").write_text(json.dumps(direct), encoding="utf-8")
    return folder


def book_path(root: Path) -> str:
    """PYTHONPATH for the book at `root`, as if installed editable: its folder, and its metadata (its kinds)."""
    return os.pathsep.join([str(root), str(installed_metadata(root))])


def build_second_book(site_dir: Path, root: Path = SECOND_BOOK, **env: str) -> subprocess.CompletedProcess[str]:
    """`mkdocs build --strict` of the second book at `root`, its package importable from there (PYTHONPATH) and its
    kinds registered (installed_metadata), as its author would run it once installed with `pip install -e .`;
    stderr ends with `imported from calculators: [...]`, the modules of this book's package that the build imported
    (there must be none)."""
    command = [sys.executable, "-c", _MKDOCS_REPORTING_IMPORTS, "build", "--strict", "--site-dir", str(site_dir)]
    return subprocess.run(
        command,
        capture_output=True,
        text=True,
        env=build_env(PYTHONPATH=book_path(root), CIRCUITS_NODE_MODULES=str(NODE_MODULES), **env),
        cwd=root,
        check=False,
    )


ZENSICAL = Path(sys.executable).parent / "zensical"
SHIP = Path(sys.executable).parent / "mkdocs-calculators"


ZENSICAL_STEPS = {
    "pages": [SHIP, "pages"],
    "build": [ZENSICAL, "build", "--clean"],
    "build from its cache": [ZENSICAL, "build"],
    "ship": [SHIP, "ship", "site"],
}


def build_with_zensical(
    root: Path, steps: tuple[str, ...] = ("pages", "build", "ship"), *, timeout: float | None = None, **env: str
) -> list[subprocess.CompletedProcess[str]]:
    """The second book (a copy of it at `root`: Zensical writes its site and cache there) as an author builds it with
    Zensical: `mkdocs-calculators pages`, `zensical build --clean`, `mkdocs-calculators ship site/` (or the steps
    named); each step's result, the run stopping at the first that fails. The site is `root / "site"`. A step that
    takes over `timeout` seconds (when given) is ended, raising subprocess.TimeoutExpired."""
    results = []
    environment = build_env(PYTHONPATH=book_path(root), CIRCUITS_NODE_MODULES=str(NODE_MODULES), **env)
    for command in (ZENSICAL_STEPS[step] for step in steps):
        result = subprocess.run(
            [str(part) for part in command],
            capture_output=True,
            text=True,
            env=environment,
            cwd=root,
            check=False,
            timeout=timeout,
        )
        results.append(result)
        if result.returncode:
            break
    return results


# Runs started together (see started_together): for each, a function that waits for its result and its seconds.
Together = dict[str, Callable[[], tuple[Any, float]]]


@contextmanager
def started_together(**runs: Callable[[], Any]) -> Iterator[Together]:
    """Start each of `runs` (blocking calls, such as builds whose book's code hangs until a time limit ends it) at once,
    each on a thread of its own; yield, for each, a function that waits for its result and says how many seconds it
    took. Tests that each wait out a limit without spending a core share the wait: a module's fixture starts them all,
    and each test reads its own. Leaving waits for all of them."""
    with ThreadPoolExecutor(max_workers=len(runs)) as pool:

        def timed(run: Callable[[], Any]) -> tuple[Any, float]:
            started = time.monotonic()
            return run(), time.monotonic() - started

        futures = {name: pool.submit(timed, run) for name, run in runs.items()}
        yield {name: future.result for name, future in futures.items()}


# The types a static host serves these as (the standard handler guesses some from the system's tables).
_EXTENSIONS = {
    **http.server.SimpleHTTPRequestHandler.extensions_map,
    ".js": "text/javascript",
    ".mjs": "text/javascript",
    ".wasm": "application/wasm",
    ".json": "application/json",
}


class _Handler(http.server.SimpleHTTPRequestHandler):
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        self.extensions_map = _EXTENSIONS  # before the base class's __init__, which serves the request
        super().__init__(*args, **kwargs)

    server: _Server

    def log_message(self, format: str, *args: object) -> None:  # keep test output clean
        pass

    def send_head(self) -> io.BytesIO | BinaryIO | None:
        # Never "304 Not Modified": the standard handler compares If-Modified-Since with the file's time in whole
        # seconds, so a file a test rewrites within the second the browser last fetched it (a new sw.js, whose update
        # check then found "no change" and never came again) kept its old body. Static hosts compare content (ETag).
        del self.headers["If-Modified-Since"]
        return super().send_head()

    def end_headers(self) -> None:
        max_age = getattr(self.server, "max_age", None)  # a test's own server may have none
        if max_age is not None:
            self.send_header("Cache-Control", f"max-age={max_age}")
        super().end_headers()


# What a static host such as GitHub Pages compresses: text, scripts, data and wasm (not images, nor the memory
# snapshot, which the site ships gzipped already).
_COMPRESSED = ("text/", "application/javascript", "application/json", "application/wasm", "image/svg+xml")


class _GzipHandler(_Handler):
    """Serves files gzip-compressed (Content-Encoding: gzip) to a client that accepts it, as a static host does: each
    file is compressed once and then served from memory, as a CDN's edge (GitHub Pages' Fastly) keeps it. Compressing
    on every request would put 0.6 s of this machine's CPU before the wasm's first byte, which no host does."""

    def send_head(self) -> io.BytesIO | BinaryIO | None:
        target = Path(self.translate_path(self.path))
        if target.is_dir():
            if not urlsplit(self.path).path.endswith("/"):
                return super().send_head()  # the redirect to the folder's "/"
            target = target / "index.html"
        kind = self.guess_type(str(target))
        if (
            "gzip" not in self.headers.get("Accept-Encoding", "")
            or not target.is_file()
            or not kind.startswith(_COMPRESSED)
        ):
            return super().send_head()
        body = self._gzip(target)
        self.send_response(200)
        self.send_header("Content-Type", kind)
        self.send_header("Content-Encoding", "gzip")
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Vary", "Accept-Encoding")
        self.send_header("Last-Modified", self.date_time_string(int(target.stat().st_mtime)))
        self.end_headers()
        return io.BytesIO(body)

    def _gzip(self, target: Path) -> bytes:
        stat = target.stat()
        key = (target, stat.st_mtime_ns, stat.st_size)
        with self.server.lock:  # one compression per file, even when the browser asks twice at once
            if key not in self.server.compressed:
                self.server.compressed[key] = gzip.compress(target.read_bytes(), compresslevel=6, mtime=0)
            return self.server.compressed[key]


class QueueingHTTPServer(http.server.ThreadingHTTPServer):
    """A test server that keeps every connection a busy machine cannot accept at once.

    socketserver listens with a backlog of 5, and this server speaks HTTP/1.0: a connection per request. A page that
    asks for a dozen files at once, on a machine too busy to accept them as they come, overflowed it (the kernel's
    ListenOverflows counter rose): a dropped connection is retried after 1, 3, 7, 15, 31 s, and an exercise then
    stayed at "Starting Python in your browser…" past its 60 s. A static host's backlog is in the hundreds.
    """

    request_queue_size = 128

    def handle_error(self, request: Any, client_address: Any) -> None:
        """A browser that hangs up while a file is on its way (a tab closed, a page left, a download the service
        worker cancelled) is not the server's error: socketserver printed its BrokenPipeError's traceback into the
        test run's output. Any other error is still printed."""
        if not isinstance(sys.exc_info()[1], ConnectionError):
            super().handle_error(request, client_address)


class _Server(QueueingHTTPServer):
    """The server, with what _GzipHandler has compressed so far, and how long a browser may keep a file (max-age)."""

    def __init__(
        self,
        address: tuple[str, int],
        handler: Callable[..., http.server.BaseHTTPRequestHandler],
        max_age: int | None,
    ) -> None:
        super().__init__(address, handler)
        self.max_age = max_age
        self.compressed: dict[tuple[Path, int, int], bytes] = {}  # (path, mtime, size): the gzip body
        self.lock = threading.Lock()


@contextmanager
def serve(directory: Path, *, compress: bool = False, max_age: int | None = None) -> Iterator[str]:
    """Serve `directory` over http on a free port of 127.0.0.1 (gzip-compressed with `compress`, and with
    `Cache-Control: max-age` when given, as a static host does); yields the base URL.

    Tests leave max_age out: a browser then asks again for every file, so a rebuilt site is seen at once."""
    handler = functools.partial(_GzipHandler if compress else _Handler, directory=str(directory))
    server = _Server(("127.0.0.1", 0), handler, max_age)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()


def service_worker_manifest(site: Path) -> dict[str, Any]:
    """The manifest that the build wrote into a site's sw.js: {version, pages, runtime}, each a [path, hash] list."""
    text = (site / "sw.js").read_text(encoding="utf-8")
    match = re.search(r"^const MANIFEST = .*?JSON\.parse\((\".*\")\)\);$", text, re.MULTILINE)
    if not match:
        raise ValueError(f"no manifest in {site / 'sw.js'}")
    manifest: dict[str, Any] = json.loads(json.loads(match.group(1)))
    return manifest
