"""Pure-Python distributions that a book ships to the reader's browser beside its package (`browser_dependencies`).

The browser's Pyodide has only the standard library, calckit and the book's package. A book that needs more lists
each distribution, installed in the build's environment, under the plugin's `browser_dependencies`: its installed
files (from its RECORD, its metadata left out) go into a wheel of their own, named by their content's hash, that
the worker puts on `sys.path` before the book's. Only pure Python can go this way: a distribution with compiled
files (`.so`, `.pyd`) is refused, since Pyodide needs them built for WebAssembly.
"""

from __future__ import annotations

from dataclasses import dataclass
from importlib import metadata
from importlib.machinery import EXTENSION_SUFFIXES
from pathlib import Path

from .wheel import write_wheel

__all__ = ["Dependency", "DependencyError", "dependency", "dependency_wheel"]

_COMPILED = (*EXTENSION_SUFFIXES, ".so", ".pyd", ".dylib", ".dll")


class DependencyError(ValueError):
    """A distribution that cannot be shipped, said in one line."""


@dataclass(frozen=True)
class Dependency:
    name: str
    version: str
    files: dict[str, Path]  # its path in the wheel -> the installed file
    top_level: tuple[str, ...]  # the modules it provides, which the book's package may then import


def dependency(name: str) -> Dependency:
    """The installed distribution `name`, checked to be pure Python; DependencyError otherwise."""
    try:
        dist = metadata.distribution(name)
    except metadata.PackageNotFoundError:
        raise DependencyError(
            f"calculators: 'browser_dependencies' names '{name}', which is not installed here (pip install {name})"
        ) from None
    files: dict[str, Path] = {}
    for file in dist.files or []:
        parts = Path(str(file)).parts
        if not parts or parts[0].endswith((".dist-info", ".egg-info", ".data")) or ".." in parts:
            continue
        if "__pycache__" in parts or str(file).endswith((".pyc", ".pth")):
            continue
        if str(file).endswith(_COMPILED):
            raise DependencyError(
                f"calculators: 'browser_dependencies' names '{name}', which is not pure Python ({file} is compiled "
                "code): only pure-Python distributions can be shipped to the browser"
            )
        files[Path(str(file)).as_posix()] = Path(str(dist.locate_file(file)))
    top_level = sorted({path.split("/")[0].removesuffix(".py") for path in files if path.endswith(".py")})
    if not top_level:
        raise DependencyError(f"calculators: 'browser_dependencies' names '{name}', which installed no Python modules")
    return Dependency(dist.metadata["Name"] or name, dist.version, files, tuple(top_level))


def dependency_wheel(dependency: Dependency, out_dir: Path) -> Path:
    contents = {path: source.read_bytes() for path, source in sorted(dependency.files.items())}
    dist = dependency.name.replace("-", "_").lower()
    return write_wheel(dist, dependency.version.split("+")[0], contents, list(dependency.top_level), out_dir)
