""" "Start your own book" (docs/own-book.md) works as written: in an empty temporary folder, its files and its
commands, run as the page gives them (a fresh virtual environment, pip, npm, a strict build, then `mkdocs serve`),
give a served book whose calculator shows the results its package computes; its Zensical section, run on from that
book, gives a shipped one. The book is set up once for both (pip and npm take most of the time)."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import time
import urllib.request
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
import yaml

from tests.support import ROOT, SECOND_BOOK, build_site, free_port

GUIDE = ROOT / "docs/own-book.md"
FILE_BLOCK = re.compile(r"^\*\*`(?P<path>[^`]+)`\*\*\n\n(?P<fence>`{3,})\w+\n(?P<body>.*?)^(?P=fence)$", re.M | re.S)
SHELL_BLOCK = re.compile(r"^```sh\n(?P<body>.*?)^```$", re.M | re.S)
PIP_AND_NPM_TIMEOUT = 600  # seconds: a fresh environment from PyPI and npm's caches on a busy machine


def guide_files() -> dict[str, str]:
    return {match["path"]: match["body"] for match in FILE_BLOCK.finditer(GUIDE.read_text(encoding="utf-8"))}


ZENSICAL_SECTION = "## Build it with Zensical"


def guide_commands(*, zensical: bool = False) -> list[str]:
    """Every command line of the page's shell blocks before its Zensical section (or in it), in order, comments
    dropped."""
    text = GUIDE.read_text(encoding="utf-8")
    before, _, after = text.partition(ZENSICAL_SECTION)
    section = after.partition("\n## ")[0] if zensical else before
    lines = []
    for block in SHELL_BLOCK.finditer(section):
        for line in block["body"].splitlines():
            command = line.split("  #")[0].strip()
            if command:
                lines.append(command)
    return lines


def test_the_guide_shows_every_file_of_its_tree() -> None:
    assert sorted(guide_files()) == [
        ".github/workflows/publish.yml",
        ".gitignore",
        "circuits/__init__.py",
        "circuits/ohm.py",
        "docs/index.md",
        "mkdocs.yml",
        "pyproject.toml",
    ]


def test_its_site_is_safe_to_publish() -> None:
    """Strict (an ERROR stops the build rather than publishing a broken page), no web fonts, anchors validated; what
    npm and the build write is ignored by git; the workflow builds strictly and installs the plugin without a clone,
    as the page says to."""
    files = guide_files()
    config = yaml.load(files["mkdocs.yml"], Loader=_ConfigLoader)
    assert config["strict"] is True
    assert config["theme"]["font"] is False
    assert config["validation"]["anchors"] == "warn"
    assert {"node_modules/", "site/", ".venv/"} <= set(files[".gitignore"].split())
    workflow = yaml.safe_load(files[".github/workflows/publish.yml"])
    steps = [step.get("run", "") for step in workflow["jobs"]["build"]["steps"]]
    assert "mkdocs build --strict" in steps
    assert 'pip install -c constraints.txt "$PLUGIN" -e .' in steps
    assert workflow["env"]["NO_MKDOCS_2_WARNING"] == "1"
    text = GUIDE.read_text(encoding="utf-8")
    assert f'pip install -c constraints.txt "{workflow["env"]["PLUGIN"]}" -e .' in text


class _ConfigLoader(yaml.SafeLoader):
    """Reads mkdocs.yml's `!ENV [NAME, default]` as its default."""


def _env_default(loader: yaml.SafeLoader, node: yaml.SequenceNode) -> Any:
    return loader.construct_sequence(node)[-1]


_ConfigLoader.add_constructor("!ENV", _env_default)


def test_its_calculator_is_the_second_books() -> None:
    """The page's calculator is the one the second book's tests check in the build and the browser layers."""
    assert guide_files()["circuits/ohm.py"] == (SECOND_BOOK / "circuits/ohm.py").read_text(encoding="utf-8")


def test_its_package_gathers_calculators_with_the_registry_and_quotes_its_message() -> None:
    """The guide's __init__ keys its calculators with calckit.registry (which refuses a name taken twice), and the
    message it quotes for a second 'ohms-law' names the line that declares the guide's own calculator."""
    files = guide_files()
    assert "CALCULATORS = registry(OHMS_LAW)" in files["circuits/__init__.py"]
    ohm = files["circuits/ohm.py"]
    line = ohm[: ohm.index("= Calculator(")].count("\n") + 1
    assert f"(the first at circuits/ohm.py:{line}): give each a name of its own" in " ".join(GUIDE.read_text().split())


def test_its_copy_of_the_runtimes_pins_takes_the_books_own_name() -> None:
    """The commands copy this repository's package.json, then name it after the guide's book; what npm ignores and
    what pip's editable install writes are kept out of git."""
    commands = guide_commands()
    copy = next(index for index, line in enumerate(commands) if "package.json" in line and line.startswith("cp "))
    assert commands[copy + 1] == "npm pkg set name=circuits"
    assert {".cache/", "*.egg-info/"} <= set(guide_files()[".gitignore"].split())


def test_its_configuration_builds_with_the_plugin_turned_off(tmp_path: Path) -> None:
    """`enabled: false`, as its options table gives it, in the guide's own mkdocs.yml: the strict build passes (the
    reference page its nav lists is there, saying the plugin is off) and the block shows as its code."""
    for path, text in guide_files().items():
        (tmp_path / path).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / path).write_text(text, encoding="utf-8")
    config = tmp_path / "mkdocs.yml"
    text = config.read_text(encoding="utf-8")
    assert "| `enabled` | `true` | `false` builds the book without the plugin" in GUIDE.read_text(encoding="utf-8")
    config.write_text(text.replace("      package: circuits\n", "      package: circuits\n      enabled: false\n"))
    result = build_site(config, tmp_path / "site", timeout=300)
    assert result.returncode == 0, result.stderr
    reference = (tmp_path / "site/reference/calculators/index.html").read_text(encoding="utf-8")
    assert "This build has it turned off" in reference
    index = (tmp_path / "site/index.html").read_text(encoding="utf-8")
    assert "use: ohms-law" in index and 'class="calc"' not in index


# npm installs the lock file's packages from its cache when it has them, without asking the registry whether each is
# still current (they are pinned by hash): the commands stay as the page gives them.
_CACHED = {"npm_config_prefer_offline": "true"}


def _a_readers_environment() -> dict[str, str]:
    """This process's environment without what the test run adds: no virtual environment, no Python path."""
    return {key: value for key, value in os.environ.items() if key not in ("VIRTUAL_ENV", "PYTHONPATH", "PYTHONHOME")}


@dataclass(frozen=True)
class GuideBook:
    """The guide's book, set up as the page says, and what its setup left: the script's result, the built page, the
    wheels shipped (read before any test could change the book)."""

    folder: Path
    setup: subprocess.CompletedProcess[str]
    built: str
    wheels: list[str]


@pytest.fixture(scope="module")
def guide_book(tmp_path_factory: pytest.TempPathFactory) -> GuideBook:
    """The page's files, written into an empty my-book folder, and its commands run there, but for the last (which
    serves the book): a fresh virtual environment, pip, `npm ci`, a strict build. Done once for the module: the
    page's Zensical section goes on from this book, as a reader does."""
    commands = guide_commands()
    book = tmp_path_factory.mktemp("guide") / "my-book"
    # The page's first two lines, for this clone: COURSE_BOOK is this repository, and the folder starts empty.
    book.mkdir()
    for path, text in guide_files().items():
        (book / path).parent.mkdir(parents=True, exist_ok=True)
        (book / path).write_text(text, encoding="utf-8")
    script = "set -euo pipefail\n" + "\n".join(commands[2:-1])
    setup = subprocess.run(
        ["bash", "-c", script],
        cwd=book,
        env={**_a_readers_environment(), "COURSE_BOOK": str(ROOT), **_CACHED},
        capture_output=True,
        text=True,
        timeout=PIP_AND_NPM_TIMEOUT,
        check=False,
    )
    index = book / "site/index.html"
    built = index.read_text(encoding="utf-8") if index.is_file() else ""
    wheels = sorted(path.name for path in (book / "site/assets/calculators").glob("*.whl"))
    return GuideBook(book, setup, built, wheels)


def test_following_the_guide_gives_a_served_book(guide_book: GuideBook) -> None:
    commands = guide_commands()
    assert commands[:2] == ["export COURSE_BOOK=~/src/course-book", "mkdir my-book && cd my-book"]
    assert commands[-1] == ".venv/bin/mkdocs serve"
    book, setup = guide_book.folder, guide_book.setup
    assert setup.returncode == 0, setup.stdout[-3000:] + setup.stderr[-3000:]
    assert "Documentation built" in setup.stderr
    assert "MkDocs 2.0" not in setup.stderr + setup.stdout  # NO_MKDOCS_2_WARNING, as the page says
    assert "make " not in setup.stderr  # the book has no Makefile: no message may tell it to run one
    built = guide_book.built
    assert "fonts.googleapis" not in built and "fonts.gstatic" not in built
    assert re.findall(r'<output for="calc-1-form">([^<]*)</output>', built) == ["0.02 A", "0.18 W"]  # 9 V, 450 Ω
    assert [name.split("-")[0] for name in guide_book.wheels] == ["calckit", "circuits"]

    port = free_port()
    serve = subprocess.Popen(
        [*commands[-1].split(), "--dev-addr", f"127.0.0.1:{port}"],
        cwd=book,
        env=_a_readers_environment(),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        page = ""
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline and "calc-1" not in page:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=5) as response:
                    page = response.read().decode("utf-8")
            except OSError:
                time.sleep(0.5)
        assert "0.02 A" in page, "mkdocs serve did not serve the book's page"
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/reference/calculators/", timeout=5) as response:
            assert 'id="ohms-law"' in response.read().decode("utf-8")
    finally:
        serve.terminate()
        try:
            serve.wait(timeout=20)
        except subprocess.TimeoutExpired:
            serve.kill()
            pytest.fail("mkdocs serve did not stop")


def test_following_its_zensical_section_gives_a_shipped_book(guide_book: GuideBook) -> None:
    """The guide's book (set up as the page says), then its Zensical section: its mkdocs.yml lines added, its
    commands run (all but the last, which serves the site), give a site whose calculator shows its package's results,
    with the wheels shipped. MkDocs' site is removed first, so that all of it is Zensical's and the ship's."""
    assert guide_book.setup.returncode == 0, guide_book.setup.stdout[-3000:] + guide_book.setup.stderr[-3000:]
    zensical = guide_commands(zensical=True)
    assert zensical[-1].startswith(".venv/bin/python -m http.server --directory site")
    text = GUIDE.read_text(encoding="utf-8").partition(ZENSICAL_SECTION)[2]
    extension = re.search(r"^```yaml\n(?P<body>.*?)^```$", text, re.M | re.S)
    assert extension, "the Zensical section shows no mkdocs.yml lines"
    book = guide_book.folder
    config = book / "mkdocs.yml"
    as_written = config.read_text(encoding="utf-8")
    assert as_written == guide_files()["mkdocs.yml"]
    shutil.rmtree(book / "site")
    config.write_text(as_written + extension["body"], encoding="utf-8")
    try:
        setup = subprocess.run(
            ["bash", "-c", "set -euo pipefail\n" + "\n".join(zensical[:-1])],
            cwd=book,
            env={**_a_readers_environment(), "COURSE_BOOK": str(ROOT), "NO_MKDOCS_2_WARNING": "1", **_CACHED},
            capture_output=True,
            text=True,
            timeout=PIP_AND_NPM_TIMEOUT,
            check=False,
        )
    finally:
        config.write_text(as_written, encoding="utf-8")  # the book as the main guide left it, for any later test
    assert setup.returncode == 0, setup.stdout[-3000:] + setup.stderr[-3000:]
    assert "calculators: shipped calckit-" in setup.stdout
    built = (book / "site/index.html").read_text(encoding="utf-8")
    assert re.findall(r'<output for="calc-1-form">([^<]*)</output>', built) == ["0.02 A", "0.18 W"]  # 9 V, 450 Ω
    assert 'id="ohms-law"' in (book / "site/reference/calculators/index.html").read_text(encoding="utf-8")
    assert (book / "site/sw.js").is_file()
