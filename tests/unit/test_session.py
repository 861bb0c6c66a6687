"""A host's session (calckit.session): its book's code runs through its executor inside `with session.active():`,
in that thread alone, and nowhere else; calckit keeps no book or runner for a host (issue 44, item 6)."""

from __future__ import annotations

import threading
from collections.abc import Mapping
from typing import Any

from calckit import book
from calckit.running import Executor, active_executor, call_function, compute
from calckit.session import Session
from mkdocs_calculators.sandbox.books import load_book
from mkdocs_calculators.sandbox.compute_process import session, start_book_code, stop_book_code
from tests.support import ROOT


def test_the_books_code_runs_in_its_process_inside_the_block_and_here_after_it() -> None:
    code, hung = start_book_code("calculators", 5.0)
    assert code is not None and hung == ""
    try:
        loaded = load_book("calculators", ROOT, reload=False)
        assert not isinstance(loaded, str)
        host = session(loaded, code)
        roofline = loaded.calculator("roofline")
        sent: list[str] = []
        real = code.executor()

        def recorded(calculator: Any, values: Mapping[str, Any]) -> object:
            sent.append(calculator.name)
            return real.compute(calculator, values)

        watched = Session(loaded, Executor(recorded, real.check_code, real.call_function))
        elsewhere: list[object] = []
        with watched.active() as active:
            assert active is loaded and active_executor() is watched.executor
            inside = compute(roofline, roofline.defaults)
            thread = threading.Thread(target=lambda: elsewhere.append(active_executor()))
            thread.start()
            thread.join()
        assert sent == ["roofline"] and elsewhere == [None]  # another thread computes in its own interpreter
        assert active_executor() is None
        assert compute(roofline, roofline.defaults) == inside  # here, after the block: the same result
        assert sent == ["roofline"]
        with host.active():  # the real one: the child's answer is the same as this interpreter's
            assert compute(roofline, roofline.defaults) == inside
            case = {"ridge": 295.3, "d": 8192, "f": 28672, "weight_bytes": 2, "activation_bytes": 2}
            assert call_function("calculators.matmul.critical_batch", case, lambda *_: None) == 309.6512874339642
    finally:
        stop_book_code(code)


def test_a_build_leaves_calckit_on_the_book_it_was_on() -> None:
    """Loading a book for a host does not make it calckit's book: only entry points (the worker, the compute
    process, the test session) bind one."""
    before = book.current()
    loaded = load_book("calculators", ROOT, reload=False)
    assert not isinstance(loaded, str) and loaded is not before
    assert book.current() is before
