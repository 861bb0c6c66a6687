"""A bounded background load: processes that keep the machine's cores busy beside a test run.

A browser test that passes on an idle machine can fail on a busy one (a timer firing before the worker's reply, an
animation frame coming late), and CI machines are busy. `pytest --busy` starts the load with the session and ends
it with the session; run by hand, it keeps a machine busy beside anything else, such as `.ci/run`:

    python3 tests/busy.py            # one process per core, for at most 60 minutes (Ctrl-C ends it)
    python3 tests/busy.py 4 --minutes 30

Each process spins in pure Python until its deadline, or until the process that started it has gone: a run that is
killed leaves no load behind it. Standard library only, so that it runs before any set-up.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import time

__all__ = ["Load", "load_average"]

# One burning process: spins until its deadline, or until its parent (argv[2]) is gone and it was handed to another.
_BURN = """
import os, sys, time
end, parent = time.monotonic() + float(sys.argv[1]), int(sys.argv[2])
while time.monotonic() < end and os.getppid() == parent:
    for _ in range(200_000):
        pass
"""


def load_average() -> str:
    """The machine's load average over 1, 5 and 15 minutes, as `uptime` prints it."""
    return ", ".join(f"{value:.2f}" for value in os.getloadavg())


class Load:
    """`processes` CPU-burning processes, each of which ends by itself after `minutes` at the latest."""

    def __init__(self, processes: int, minutes: float) -> None:
        if processes < 1 or minutes <= 0:
            raise ValueError(f"a load needs at least one process and some time (got {processes}, {minutes} min)")
        self.processes = processes
        self.minutes = minutes
        self._running: list[subprocess.Popen[bytes]] = []
        self.load_at_start = ""

    def start(self) -> Load:
        self.load_at_start = load_average()
        seconds = str(self.minutes * 60)
        for _ in range(self.processes):
            command = [sys.executable, "-c", _BURN, seconds, str(os.getpid())]
            quiet = subprocess.DEVNULL  # holds no pipe of its starter's open (a caller reading it to the end)
            self._running.append(subprocess.Popen(command, stdin=quiet, stdout=quiet, stderr=quiet))
        return self

    def stop(self) -> None:
        for process in self._running:
            process.terminate()
        for process in self._running:
            try:
                process.wait(timeout=5)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()
        self._running = []

    def running(self) -> int:
        """How many of the processes still burn."""
        return sum(1 for process in self._running if process.poll() is None)

    def pids(self) -> list[int]:
        return [process.pid for process in self._running]

    def __enter__(self) -> Load:
        return self.start()

    def __exit__(self, *_: object) -> None:
        self.stop()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Keep the machine's cores busy, for a bounded time.")
    parser.add_argument("processes", nargs="?", type=int, default=os.cpu_count() or 2, help="default: one per core")
    parser.add_argument("--minutes", type=float, default=60, help="each process ends after this long (default 60)")
    args = parser.parse_args(argv)
    with Load(args.processes, args.minutes) as load:
        print(f"busy: {load.processes} processes for at most {load.minutes:g} min (load average {load_average()})")
        try:
            while load.running():
                time.sleep(1)
        except KeyboardInterrupt:
            pass
    print(f"busy: ended (load average {load_average()})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
