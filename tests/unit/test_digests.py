"""The built site's content hashes (runtime/digests.py): a file copied from one that builds only read has its digest,
which is worked out once and kept for the next build, and worked out again when the source is another file."""

from __future__ import annotations

import hashlib
import os
from pathlib import Path

import pytest

from mkdocs_calculators.runtime import digests
from mkdocs_calculators.runtime.digests import copied, file_digest, keep_digests


def sha(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()[:16]


@pytest.fixture
def fresh(monkeypatch: pytest.MonkeyPatch) -> None:
    """Each test as a new build process: nothing remembered from another."""
    monkeypatch.setattr(digests, "_digests", {})
    monkeypatch.setattr(digests, "_kept", {})
    monkeypatch.setattr(digests, "_kept_changed", set())


def copy(source: Path, target: Path) -> None:
    target.write_bytes(source.read_bytes())


def next_build(monkeypatch: pytest.MonkeyPatch) -> None:
    """What a new process starts from: the kept file only."""
    monkeypatch.setattr(digests, "_digests", {})
    monkeypatch.setattr(digests, "_kept", {})


def test_a_copy_has_its_sources_digest_kept_for_the_next_build(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, fresh: None
) -> None:
    source, target, kept = tmp_path / "pyodide.asm.wasm", tmp_path / "site.wasm", tmp_path / "cache" / "digests.json"
    source.write_bytes(b"\0asm" + bytes(range(256)) * 64)
    copy(source, target)
    copied(source, target, kept)
    assert file_digest(target) == sha(source.read_bytes())
    keep_digests()
    assert str(source) in kept.read_text(encoding="utf-8")

    # The next build copies it again and hashes nothing: the kept digest is the answer.
    next_build(monkeypatch)
    target.unlink()
    copy(source, target)

    def refuse(*_: object) -> None:
        raise AssertionError("hashed again")

    monkeypatch.setattr(digests.hashlib, "file_digest", refuse)
    copied(source, target, kept)
    assert file_digest(target) == sha(source.read_bytes())


def test_another_source_file_at_the_same_path_is_hashed_again(tmp_path: Path, fresh: None) -> None:
    source, target, kept = tmp_path / "pyodide.asm.mjs", tmp_path / "site.mjs", tmp_path / "digests.json"
    source.write_bytes(b"one version")
    copy(source, target)
    copied(source, target, kept)
    keep_digests()
    # npm replaces the package: a new file (a new inode) of the same size, and the same modification time.
    stat = source.stat()
    replacement = tmp_path / "new.mjs"
    replacement.write_bytes(b"two version")
    os.utime(replacement, ns=(stat.st_atime_ns, stat.st_mtime_ns))
    keeps_old = tmp_path / "keeps-the-old-inode-in-use"
    os.link(source, keeps_old)
    replacement.replace(source)
    copy(source, target)
    copied(source, target, kept)
    assert file_digest(target) == sha(b"two version")


def test_a_touched_snapshot_keeps_its_digest_but_an_edited_runtime_file_does_not(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, fresh: None
) -> None:
    """A snapshot's time on the shelf is its last use (snapshot.py touches it at each build); a runtime file's time
    changes when it is written again in place."""
    snapshot, runtime, kept = tmp_path / "snapshot-1.bin", tmp_path / "stdlib.zip", tmp_path / "digests.json"
    for path in (snapshot, runtime):
        path.write_bytes(b"first")
    copy(snapshot, tmp_path / "site-snapshot.bin")
    copied(snapshot, tmp_path / "site-snapshot.bin", kept, touched=True)
    copied(runtime, runtime, kept)
    keep_digests()

    next_build(monkeypatch)
    os.utime(snapshot, ns=(1, 10**18))
    runtime.write_bytes(b"other")  # in place: the same inode and size, a new time
    hashed: list[str] = []
    real = hashlib.file_digest

    def counted(file: object, name: str) -> object:
        hashed.append(str(getattr(file, "name", "")))
        return real(file, name)  # type: ignore[arg-type]

    monkeypatch.setattr(digests.hashlib, "file_digest", counted)
    copied(snapshot, tmp_path / "site-snapshot.bin", kept, touched=True)
    copied(runtime, runtime, kept)
    assert file_digest(tmp_path / "site-snapshot.bin") == sha(b"first")
    assert file_digest(runtime) == sha(b"other")
    assert hashed == [str(runtime)]


def test_a_kept_file_that_cannot_be_read_is_only_slower(tmp_path: Path, fresh: None) -> None:
    source, kept = tmp_path / "a.js", tmp_path / "digests.json"
    source.write_bytes(b"console.log(1)")
    kept.write_text("{not json", encoding="utf-8")
    copied(source, source, kept)
    assert file_digest(source) == sha(b"console.log(1)")
    keep_digests()  # replaces the broken file
    assert str(source) in kept.read_text(encoding="utf-8")
