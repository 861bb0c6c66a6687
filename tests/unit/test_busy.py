"""The bounded background load of `pytest --busy` (tests/busy.py): it burns CPU while it runs, and it always ends:
when stopped, at its deadline, and when the process that started it dies without stopping it."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.busy import Load
from tests.support import ROOT


def gone(pid: int) -> bool:
    """Whether the process has ended (a zombie waiting for its parent counts as ended)."""
    try:
        return Path(f"/proc/{pid}/stat").read_text().split(")")[-1].split()[0] in ("Z", "X")
    except FileNotFoundError:
        return True


def wait_until_gone(pids: list[int], seconds: float) -> list[int]:
    deadline = time.monotonic() + seconds
    while (left := [pid for pid in pids if not gone(pid)]) and time.monotonic() < deadline:
        time.sleep(0.1)
    return left


def cpu_seconds(pid: int) -> float:
    """The CPU time a running process has used so far (user and system), from /proc."""
    fields = Path(f"/proc/{pid}/stat").read_text().split(")")[-1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def test_it_burns_cpu_while_it_runs_and_stop_ends_it() -> None:
    load = Load(2, minutes=1).start()
    pids = load.pids()
    assert load.running() == 2
    # Each burns: a second of CPU apiece, however long a busy machine takes to give it that (up to 30 s).
    deadline = time.monotonic() + 30
    while min(cpu_seconds(pid) for pid in pids) < 1 and time.monotonic() < deadline:
        time.sleep(0.2)
    burned = [cpu_seconds(pid) for pid in pids]
    load.stop()
    assert min(burned) >= 1, burned
    assert load.running() == 0 and wait_until_gone(pids, 5) == []


def test_each_process_ends_at_its_deadline() -> None:
    load = Load(1, minutes=0.02).start()  # 1.2 s
    assert wait_until_gone(load.pids(), 30) == []
    load.stop()


def test_a_load_whose_starter_dies_ends_by_itself() -> None:
    """A test run killed with SIGKILL cannot stop its load: the processes notice they were orphaned, and end."""
    starter = (
        "import os, sys; sys.path.insert(0, sys.argv[1]); from tests.busy import Load; "
        "print(*Load(2, minutes=10).start().pids(), flush=True); os._exit(0)"
    )
    done = subprocess.run([sys.executable, "-c", starter, str(ROOT)], capture_output=True, text=True, check=True)
    pids = [int(pid) for pid in done.stdout.split()]
    assert len(pids) == 2
    assert wait_until_gone(pids, 20) == []


def test_it_refuses_an_empty_load() -> None:
    with pytest.raises(ValueError, match="at least one process"):
        Load(0, minutes=1)
