"""The content hashes of the built site's files, which the service worker's manifest and worker.js cache them under
(service_worker.py). Most of the site's bytes are the runtime, copied unchanged from node_modules and from the
snapshots' cache: their hashes are worked out once and kept there (`copied`), not again at every build."""

from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path
from typing import Any

from .layout import NODE_CACHE

__all__ = ["KEPT_DIGESTS", "copied", "file_digest", "keep_digests"]

KEPT_DIGESTS = f"{NODE_CACHE}/digests.json"  # under node_modules (copied)

_digests: dict[tuple[str, int, int, int], str] = {}


def file_digest(path: Path) -> str:
    """The first 16 hex digits of the file's SHA-256, remembered for the process (serve and tests rebuild often)."""
    stat = path.stat()
    key = (str(path), stat.st_size, stat.st_mtime_ns, stat.st_ino)
    if key not in _digests:
        with path.open("rb") as file:
            _digests[key] = hashlib.file_digest(file, "sha256").hexdigest()[:16]
    return _digests[key]


def copied(source: Path, target: Path, kept: Path | None, *, touched: bool = False) -> None:
    """`target` was just copied from `source`, a file that builds only read (the pinned runtime in node_modules, a
    snapshot on the cache's shelf): it has the source's digest, which `kept` (a JSON file, or None) keeps from one
    build to the next. The runtime is 26 MB, and hashing it again took 25-45 ms of every build (T6). A source is the
    same file while its path, size, inode and modification time are (npm replaces a package's files); one whose time
    builds set (`touched`: a snapshot on the shelf, its time its last use) while its path, size and inode are (a
    snapshot is put on the shelf by renaming a new file over it)."""
    stat = source.stat()
    identity = [stat.st_size, stat.st_ino, 0 if touched else stat.st_mtime_ns]
    known = _kept_digests(kept)
    entry = known.get(str(source))
    if isinstance(entry, list) and entry[:3] == identity and isinstance(entry[3], str):
        digest = entry[3]
    else:
        digest = file_digest(source)
        known[str(source)] = [*identity, digest]
        _kept_changed.add(kept)
    target_stat = target.stat()
    _digests[(str(target), target_stat.st_size, target_stat.st_mtime_ns, target_stat.st_ino)] = digest


_kept: dict[Path | None, dict[str, list[Any]]] = {}
_kept_changed: set[Path | None] = set()


def _kept_digests(kept: Path | None) -> dict[str, list[Any]]:
    if kept not in _kept:
        loaded: Any = {}
        if kept is not None:
            try:
                loaded = json.loads(kept.read_text(encoding="utf-8"))
            except (OSError, ValueError):
                loaded = {}
        _kept[kept] = loaded if isinstance(loaded, dict) else {}
    return _kept[kept]


def keep_digests() -> None:
    """Write the digests `copied` worked out into their files (a cache: one that cannot be written is only slower)."""
    for kept in [kept for kept in _kept_changed if kept is not None]:
        try:
            kept.parent.mkdir(parents=True, exist_ok=True)
            partial = kept.with_name(f"{kept.name}.{os.getpid()}.partial")
            partial.write_text(json.dumps(_kept[kept], sort_keys=True), encoding="utf-8")
            partial.replace(kept)
        except OSError:
            pass
    _kept_changed.clear()
