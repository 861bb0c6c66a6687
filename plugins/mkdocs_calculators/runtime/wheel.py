"""A pure-Python wheel of one package (calckit, or a book's), for the browser's worker, named by its content's hash.

Built in-process (a zip and three metadata files), because `pip wheel` would cost seconds on every build and
`pyodide-build` downloads a cross-build environment. Byte-for-byte reproducible: same sources, same wheel, same name.
"""

from __future__ import annotations

import base64
import hashlib
import zipfile
from pathlib import Path

__all__ = ["build_wheel", "package_files", "write_wheel"]

_EPOCH = (1980, 1, 1, 0, 0, 0)


def package_files(package_dir: Path) -> list[Path]:
    """The files that belong in the wheel, sorted: everything in the package's folder (code and every data file its
    code may read), except Python's caches and hidden files. pyproject.toml's package-data ships the same set to
    `pip install`, so a file a calculator reads is there in CPython exactly when it is there in the browser."""
    return sorted(
        path
        for path in package_dir.rglob("*")
        if path.is_file()
        and path.suffix != ".pyc"
        and not any(part == "__pycache__" or part.startswith(".") for part in path.relative_to(package_dir).parts)
    )


def _record_hash(data: bytes) -> str:
    return "sha256=" + base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()


def build_wheel(package_dir: Path, version: str, out_dir: Path) -> Path:
    """Write the wheel of the package in `package_dir` (named after the folder) into `out_dir`, if not already there,
    and return its path.

    The content hash goes into the version's local label, so the file name changes exactly when the code does and
    can be cached forever.
    """
    dist = package_dir.name
    contents = {
        f"{dist}/{path.relative_to(package_dir).as_posix()}": path.read_bytes() for path in package_files(package_dir)
    }
    return write_wheel(dist, version, contents, [dist], out_dir)


def write_wheel(dist: str, version: str, contents: dict[str, bytes], top_level: list[str], out_dir: Path) -> Path:
    """Write a wheel of `contents` (its path in the wheel -> bytes) for distribution `dist`, named by their hash."""
    contents = dict(contents)
    digest = hashlib.sha256()
    for name, data in contents.items():
        digest.update(name.encode() + b"\0" + hashlib.sha256(data).digest())
    full_version = f"{version}+{digest.hexdigest()[:12]}"
    dist_info = f"{dist}-{full_version}.dist-info"
    contents[f"{dist_info}/METADATA"] = (
        f"Metadata-Version: 2.1\nName: {dist}\nVersion: {full_version}\nRequires-Python: >=3.11\n"
    ).encode()
    contents[f"{dist_info}/WHEEL"] = (
        b"Wheel-Version: 1.0\nGenerator: mkdocs_calculators\nRoot-Is-Purelib: true\nTag: py3-none-any\n"
    )
    contents[f"{dist_info}/top_level.txt"] = "".join(f"{name}\n" for name in top_level).encode()
    record = "".join(f"{name},{_record_hash(data)},{len(data)}\n" for name, data in contents.items())
    contents[f"{dist_info}/RECORD"] = (record + f"{dist_info}/RECORD,,\n").encode()

    path = out_dir / f"{dist}-{full_version}-py3-none-any.whl"
    if not path.exists():
        out_dir.mkdir(parents=True, exist_ok=True)
        partial = path.with_suffix(".partial")
        with zipfile.ZipFile(partial, "w", compression=zipfile.ZIP_DEFLATED) as archive:
            for name, data in contents.items():
                info = zipfile.ZipInfo(name, date_time=_EPOCH)
                info.external_attr = 0o644 << 16
                info.compress_type = zipfile.ZIP_DEFLATED
                archive.writestr(info, data)
        partial.replace(path)
    return path
