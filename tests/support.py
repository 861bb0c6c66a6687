"""Helpers shared by the test layers: the repository's paths, building a site, serving it on 127.0.0.1."""

from __future__ import annotations

import functools
import http.server
import os
import subprocess
import sys
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import ClassVar

ROOT = Path(__file__).resolve().parent.parent
NODE_MODULES = ROOT / "node_modules"
MKDOCS = [sys.executable, "-m", "mkdocs"]


def build_env(**extra: str) -> dict[str, str]:
    return {**os.environ, "NO_MKDOCS_2_WARNING": "1", **extra}


def build_site(config_file: Path, site_dir: Path, **env: str) -> subprocess.CompletedProcess[str]:
    """`mkdocs build --strict` of `config_file` into `site_dir`, as a contributor would run it."""
    return subprocess.run(
        [*MKDOCS, "build", "--strict", "--config-file", str(config_file), "--site-dir", str(site_dir)],
        capture_output=True,
        text=True,
        env=build_env(**env),
        cwd=config_file.parent,
        check=False,
    )


class _Handler(http.server.SimpleHTTPRequestHandler):
    extensions_map: ClassVar[dict[str, str]] = {
        **http.server.SimpleHTTPRequestHandler.extensions_map,
        ".js": "text/javascript",
        ".mjs": "text/javascript",
        ".wasm": "application/wasm",
        ".json": "application/json",
    }

    def log_message(self, format: str, *args: object) -> None:  # keep test output clean
        pass


@contextmanager
def serve(directory: Path) -> Iterator[str]:
    """Serve `directory` over http on a free port of 127.0.0.1; yields the base URL."""
    handler = functools.partial(_Handler, directory=str(directory))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()
