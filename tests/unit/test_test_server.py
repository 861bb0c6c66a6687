"""The browser tests' server (tests/support.py) is quiet when a browser hangs up mid-file, and still speaks of any
other error: a test run's output shows what went wrong, not a BrokenPipeError for every tab closed early."""

from __future__ import annotations

import socket
import struct
import threading
from pathlib import Path
from urllib.parse import urlsplit

import pytest

from tests.support import QueueingHTTPServer, serve


def test_a_client_that_hangs_up_mid_file_prints_nothing(tmp_path: Path, capfd: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "big.bin").write_bytes(b"x" * 8_000_000)  # more than socket buffers hold: a write meets the hangup
    with serve(tmp_path) as url:
        address = urlsplit(url)
        for _ in range(3):
            client = socket.create_connection((address.hostname, address.port))
            client.sendall(b"GET /big.bin HTTP/1.0\r\n\r\n")
            assert client.recv(64).startswith(b"HTTP/1.0 200")
            client.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))  # close with a reset
            client.close()
        with socket.create_connection((address.hostname, address.port)) as client:  # the server still answers
            client.sendall(b"GET /missing HTTP/1.0\r\n\r\n")
            assert client.recv(64).startswith(b"HTTP/1.0 404")
    # The server's handler threads are daemons that shutdown does not wait for: read stderr only once each has met
    # its hangup and ended, else the check could pass before anything was printed.
    for thread in threading.enumerate():
        if thread.name.endswith("(process_request_thread)"):
            thread.join(timeout=30)
            assert not thread.is_alive(), "a handler thread of the test server did not end"
    err = capfd.readouterr().err
    assert "Traceback" not in err and "Exception occurred" not in err, err


def test_any_other_error_is_still_printed(capfd: pytest.CaptureFixture[str]) -> None:
    server = QueueingHTTPServer(("127.0.0.1", 0), lambda *args: None, bind_and_activate=False)
    try:
        raise ValueError("a handler's own mistake")
    except ValueError:
        server.handle_error(None, ("127.0.0.1", 1))
    assert "ValueError: a handler's own mistake" in capfd.readouterr().err
