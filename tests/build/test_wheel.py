"""The calculators wheel: reproducible, named by its content, with a RECORD that matches, and no caches."""

from __future__ import annotations

import base64
import compileall
import csv
import hashlib
import io
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

import calculators
from mkdocs_calculators.runtime.wheel import build_wheel, package_files
from tests.support import ROOT

PACKAGE = Path(calculators.__file__).parent
VERSION = calculators.__version__


@pytest.fixture(scope="module")
def package_copy(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A copy of the package as a working tree has it: sources plus the __pycache__ folders Python leaves behind,
    one holding a file with a source suffix too (a tool's leftover), which must not get in either."""
    copy = tmp_path_factory.mktemp("package") / "calculators"
    shutil.copytree(PACKAGE, copy, ignore=shutil.ignore_patterns("__pycache__"))
    assert compileall.compile_dir(copy, quiet=1)
    assert list(copy.rglob("__pycache__/*.pyc"))
    (copy / "__pycache__" / "leftover.py").write_text("# not part of the package\n", encoding="utf-8")
    return copy


@pytest.fixture(scope="module")
def wheel(package_copy: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    return build_wheel(package_copy, VERSION, tmp_path_factory.mktemp("wheel"))


def test_building_twice_gives_the_same_name_and_bytes(package_copy: Path, wheel: Path, tmp_path: Path) -> None:
    """A second build of the same sources, into another folder, is byte-for-byte the same file under the same name,
    and no entry carries the moment of the build (which two quick builds could share by chance)."""
    again = build_wheel(package_copy, VERSION, tmp_path)
    assert again.name == wheel.name
    assert again.read_bytes() == wheel.read_bytes()
    with zipfile.ZipFile(wheel) as archive:
        assert {info.date_time for info in archive.infolist()} == {(1980, 1, 1, 0, 0, 0)}


def test_the_name_depends_on_content_not_on_where_the_package_lies(package_copy: Path, wheel: Path) -> None:
    """The copy's wheel has the same name as the package's own: the hash covers what is in the files."""
    assert build_wheel(PACKAGE, VERSION, wheel.parent.parent / "own").name == wheel.name


def test_changing_one_source_file_changes_the_name(package_copy: Path, wheel: Path, tmp_path: Path) -> None:
    """Editing one file of the package gives a wheel with another name, so browsers never keep a stale one."""
    edited = tmp_path / "calculators"
    shutil.copytree(package_copy, edited)
    roofline = edited / "roofline.py"
    roofline.write_text(roofline.read_text(encoding="utf-8") + "\n# an edit\n", encoding="utf-8")
    changed = build_wheel(edited, VERSION, tmp_path / "out")
    assert changed.name != wheel.name
    assert changed.name.startswith(f"calculators-{VERSION}+")


def test_record_lists_every_file_with_its_sha256_and_size(wheel: Path) -> None:
    """RECORD names every other file of the wheel exactly once, each with the right urlsafe sha256 and size, and
    itself without a hash."""
    with zipfile.ZipFile(wheel) as archive:
        names = archive.namelist()
        (record_name,) = [name for name in names if name.endswith(".dist-info/RECORD")]
        rows = list(csv.reader(io.StringIO(archive.read(record_name).decode())))
        expected = []
        for name in names:
            if name == record_name:
                continue
            data = archive.read(name)
            digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
            expected.append([name, f"sha256={digest}", str(len(data))])
    assert sorted(rows) == sorted([*expected, [record_name, "", ""]])


def test_wheel_holds_the_sources_and_no_caches(package_copy: Path, wheel: Path) -> None:
    """Every source and data file of the package is in the wheel; nothing from __pycache__ and no .pyc is."""
    with zipfile.ZipFile(wheel) as archive:
        names = archive.namelist()
    sources = {
        f"calculators/{path.relative_to(package_copy).as_posix()}"
        for path in package_copy.rglob("*")
        if path.is_file() and path.suffix in {".py", ".toml", ".typed"} and "__pycache__" not in path.parts
    }
    assert sources <= set(names)
    assert "calculators/__init__.py" in sources
    assert [name for name in names if "__pycache__" in name or name.endswith(".pyc")] == []


def test_any_data_file_in_the_package_folder_is_shipped(package_copy: Path, tmp_path: Path) -> None:
    """A data file of any kind, in a sub-folder too, goes into the wheel: what a calculator reads beside its module
    in CPython is there in the browser. Hidden files (an editor's leftovers) are not."""
    copy = tmp_path / "calculators"
    shutil.copytree(package_copy, copy)
    (copy / "tables").mkdir()
    (copy / "tables" / "prices.csv").write_text("chip,usd_per_hour\n", encoding="utf-8")
    (copy / "notes.json").write_text("{}", encoding="utf-8")
    (copy / ".roofline.py.swp").write_text("", encoding="utf-8")
    with zipfile.ZipFile(build_wheel(copy, VERSION, tmp_path / "dist")) as archive:
        names = set(archive.namelist())
    assert {"calculators/tables/prices.csv", "calculators/notes.json"} <= names
    assert "calculators/.roofline.py.swp" not in names


def test_pip_install_ships_the_same_files_as_the_browsers_wheel(tmp_path: Path) -> None:
    """pyproject.toml's package-data and the plugin's wheel declare one set of files: pip's wheel of the project
    holds exactly the package files that the browser's wheel holds."""
    project = tmp_path / "project"
    project.mkdir()
    for name in ("pyproject.toml", "README.md"):
        shutil.copy(ROOT / name, project / name)
    for folder in ("calculators", "plugins"):
        shutil.copytree(ROOT / folder, project / folder, ignore=shutil.ignore_patterns("__pycache__"))
    (project / "calculators" / "tables").mkdir()
    (project / "calculators" / "tables" / "prices.csv").write_text("chip,usd_per_hour\n", encoding="utf-8")
    command = [sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "-q", "-w", "dist", "."]
    result = subprocess.run(command, cwd=project, capture_output=True, text=True, check=False)
    assert result.returncode == 0, result.stderr
    (pip_wheel,) = (project / "dist").glob("*.whl")
    with zipfile.ZipFile(pip_wheel) as archive:
        pip_names = {name for name in archive.namelist() if name.startswith("calculators/")}
    with zipfile.ZipFile(build_wheel(project / "calculators", VERSION, tmp_path / "ours")) as archive:
        our_names = {name for name in archive.namelist() if name.startswith("calculators/")}
    assert "calculators/tables/prices.csv" in our_names
    assert pip_names == our_names


def test_metadata_carries_the_version_in_the_name(wheel: Path) -> None:
    """METADATA's version is the one in the file name: the package's version plus the content hash."""
    version = wheel.name.removeprefix("calculators-").removesuffix("-py3-none-any.whl")
    with zipfile.ZipFile(wheel) as archive:
        metadata = archive.read(f"calculators-{version}.dist-info/METADATA").decode()
    assert f"\nVersion: {version}\n" in metadata
    assert version.startswith(f"{VERSION}+")


def test_the_plugins_distribution_installs_on_its_own(tmp_path: Path) -> None:
    """pip's wheel of plugins/ alone holds the plugin (every asset the build copies) and calckit, exactly the calckit
    files the browser gets, and nothing of this book."""
    project = tmp_path / "plugins"
    shutil.copytree(ROOT / "plugins", project, ignore=shutil.ignore_patterns("__pycache__"))
    command = [sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "-q", "-w", "dist", "."]
    result = subprocess.run(command, cwd=project, capture_output=True, text=True, check=False)
    assert result.returncode == 0, result.stderr
    (pip_wheel,) = (project / "dist").glob("*.whl")
    assert pip_wheel.name == "mkdocs_calculators-0.1.0-py3-none-any.whl"
    with zipfile.ZipFile(pip_wheel) as archive:
        names = set(archive.namelist())
    assert {name.split("/")[0] for name in names if not name.startswith("mkdocs_calculators-")} == {
        "calckit",
        "mkdocs_calculators",
    }
    plugin = ROOT / "plugins/mkdocs_calculators"
    shipped = {f"mkdocs_calculators/{path.relative_to(plugin).as_posix()}" for path in package_files(plugin)}
    assert shipped <= names
    with zipfile.ZipFile(build_wheel(project / "calckit", VERSION, tmp_path / "ours")) as archive:
        browser = {name for name in archive.namelist() if name.startswith("calckit/")}
    assert {name for name in names if name.startswith("calckit/")} == browser
