"""A memory snapshot that cannot be made or checked costs a plain boot and one clear warning, never a build: when Node
is not there, exits with an error, or hangs while it checks a snapshot. (The builds that make real snapshots, and
the one whose Node fails on a wheel that is not a zip, are in tests/build/test_runtime_build.py and
test_snapshot_exercise.py; these are the failures that a build cannot easily stage.)"""

from __future__ import annotations

import logging
import stat
from pathlib import Path

import pytest

from calckit.book import load
from mkdocs_calculators.runtime import snapshot
from tests.support import NODE_MODULES

PYODIDE = NODE_MODULES / "pyodide"


def _node(tmp_path: Path, script: str) -> str:
    """A stand-in for Node: a shell script that does what `script` says (prints, fails, or hangs)."""
    node = tmp_path / "node"
    node.write_text(f"#!/bin/sh\n{script}\n", encoding="utf-8")
    node.chmod(node.stat().st_mode | stat.S_IXUSR)
    return str(node)


def _warnings(caplog: pytest.LogCaptureFixture) -> list[str]:
    return [record.getMessage() for record in caplog.records if record.levelno == logging.WARNING]


def test_no_node_for_the_calculators_snapshot(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    target = tmp_path / "snapshot.bin"
    made = snapshot._make(str(tmp_path / "missing-node"), PYODIDE, [], load("calculators"), target, 5.0)
    assert made is None and not target.exists()
    [warning] = _warnings(caplog)
    assert warning.startswith("calculators: could not make the memory snapshot ([Errno 2] No such file")
    assert warning.endswith("); calculators will boot Python plainly")


def test_a_node_that_fails_for_the_calculators_snapshot(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    """Its last line of stderr is the reason given (no Python traceback: not the package's own failure)."""
    node = _node(tmp_path, 'echo "starting" >&2; echo "out of memory" >&2; exit 3')
    made = snapshot._make(node, PYODIDE, [], load("calculators"), tmp_path / "snapshot.bin", 5.0)
    assert made is None
    assert _warnings(caplog) == [
        "calculators: could not make the memory snapshot (node exited with 3: out of memory); calculators will boot "
        "Python plainly"
    ]


@pytest.mark.parametrize(
    ("script", "reason"),
    [
        (None, "[Errno 2] No such file or directory"),
        ("exit 4", "node exited with 4"),
        ('echo "wasm: bad magic" >&2; exit 1', "wasm: bad magic"),
        ("exit 0", "node exited with 0"),  # it said it made one, and did not
    ],
    ids=["no node", "silent failure", "a reason", "no snapshot written"],
)
def test_the_exercise_snapshot_that_cannot_be_made(
    tmp_path: Path, caplog: pytest.LogCaptureFixture, script: str | None, reason: str
) -> None:
    node = str(tmp_path / "missing-node") if script is None else _node(tmp_path, script)
    wheel = tmp_path / "calckit-1.0-py3-none-any.whl"
    target = tmp_path / "exercise.bin"
    assert snapshot._make_exercise(node, PYODIDE, wheel, target) is None
    assert not target.exists()
    [warning] = _warnings(caplog)
    assert warning.startswith(f"calculators: could not make the exercises' memory snapshot ({reason}")
    assert warning.endswith("); readers' exercise code will wait for a plain boot of Python")


def test_a_check_that_cannot_run_or_hangs_says_why(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The check restores a snapshot as the browser would: without Node, or with a Node that does not finish within
    the check's limit, the reason is what the build reports (it then ships and caches no snapshot)."""
    made = tmp_path / "snapshot.bin"
    made.write_bytes(b"not a snapshot")
    missing = snapshot._restore_problem(str(tmp_path / "missing-node"), PYODIDE, made, [], [])
    assert missing.startswith("[Errno 2] No such file or directory"), missing
    monkeypatch.setattr(snapshot, "_CHECK_TIMEOUT", 0.5)
    hangs = snapshot._restore_problem(_node(tmp_path, "exec sleep 30"), PYODIDE, made, [], [])
    assert hangs == "Node did not restore it within 0.5 s"
    failing = snapshot._restore_problem(
        _node(tmp_path, 'echo "RuntimeError: bad snapshot" >&2; exit 1'), PYODIDE, made, [], []
    )
    assert failing == "RuntimeError: bad snapshot"
    said_nothing = snapshot._restore_problem(_node(tmp_path, "exit 0"), PYODIDE, made, [], [])
    assert said_nothing == "node exited with 0"  # it must print "restored"


def test_each_package_keeps_its_own_snapshots(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Books that share a runtime (node_modules) do not evict each other's cached snapshots: each package, and the
    exercises, keep their KEEP most recent on a shelf of their own. (One shelf for all once let a build of a second
    book evict the first's, which its next build then made again, with other bytes.)"""
    monkeypatch.setattr(snapshot, "_restore_problem", lambda *arguments: "")  # every snapshot made restores
    monkeypatch.setattr(snapshot.shutil, "which", lambda name: "/usr/bin/node")

    def provide(package: str, key: int, glob: str = snapshot.SNAPSHOT_GLOB) -> snapshot.Snapshot | None:
        name = f"{glob.replace('*', f'{package}-{key}')}"
        out = tmp_path / "site" / package
        out.mkdir(parents=True, exist_ok=True)
        return snapshot._provide(
            tmp_path,
            out,
            snapshot.Snapshot(name=name, made_for=""),
            glob=glob,
            shelf=package,
            create=True,
            make=lambda node, made: (made.write_bytes(b"snapshot"), (8, 8))[1],
            check=([], []),
            what="the memory snapshot",
        )

    assert provide("circuits", 0) is not None
    assert provide(snapshot.EXERCISE_SHELF, 0, snapshot.EXERCISE_SNAPSHOT_GLOB) is not None
    for key in range(snapshot.KEEP + 2):
        assert provide("calculators", key) is not None
    cache = tmp_path / snapshot.NODE_CACHE
    assert sorted(path.name for path in (cache / "circuits").iterdir()) == ["snapshot-circuits-0.bin"]
    assert sorted(path.name for path in (cache / "exercises").iterdir()) == ["exercise-snapshot-exercises-0.bin"]
    kept = sorted(path.name for path in (cache / "calculators").iterdir())
    assert kept == [f"snapshot-calculators-{key}.bin" for key in range(2, snapshot.KEEP + 2)]
