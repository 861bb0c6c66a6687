"""The repository's gates: the book is published only after every test passed, one push runs the tests once, and the
book's configuration refuses a page that no reader could find."""

from __future__ import annotations

import re
import subprocess
import sys
from typing import Any

import yaml

from tests.support import ROOT

WORKFLOWS = ROOT / ".github/workflows"


def _load(name: str) -> dict[str, Any]:
    # PyYAML reads the key `on` as True (YAML 1.1); normalise it back.
    data = yaml.safe_load((WORKFLOWS / name).read_text(encoding="utf-8"))
    return {("on" if key is True else key): value for key, value in data.items()}


def test_publishing_waits_for_the_tests() -> None:
    """Every job of publish.yml that builds or deploys depends, directly or through another job, on the CI workflow."""
    jobs = _load("publish.yml")["jobs"]
    testing = {name for name, job in jobs.items() if job.get("uses") == "./.github/workflows/ci.yml"}
    assert testing, "publish.yml must call ci.yml"

    def waits(name: str) -> bool:
        needs = jobs[name].get("needs", [])
        needs = [needs] if isinstance(needs, str) else needs
        return any(need in testing or waits(need) for need in needs)

    assert all(waits(name) for name in jobs if name not in testing)


def test_ci_runs_once_per_push_and_runs_every_layer_strictly() -> None:
    """CI runs on pull requests and when called, not on every push too (a pull request's push would run twice); its
    parallel jobs together lint and run every test layer, the browser's in shards that cover it whole, under CI=true
    (where a skipped test fails the run)."""
    ci = _load("ci.yml")
    assert set(ci["on"]) == {"pull_request", "workflow_call"}
    assert ci["env"]["CI"] == "true"
    runs = {name: " ".join(step.get("run", "") for step in job["steps"]) for name, job in ci["jobs"].items()}
    assert "make lint" in runs["lint"]
    layers = {layer for run in runs.values() for layer in re.findall(r"tests/(unit|conformance|build|browser)\b", run)}
    assert layers == {"unit", "conformance", "build", "browser"}
    shards = ci["jobs"]["browser"]["strategy"]["matrix"]["shard"]
    assert "--splits 2" in runs["browser"] and "--group ${{ matrix.shard }}" in runs["browser"] and shards == [1, 2]


def test_the_plugin_names_no_books_package_but_in_its_option() -> None:
    """The plugin and calckit reach a book only through the `package` option: no module imports this book's package,
    and the name 'calculators' as a string appears once as that option's default (issue 14), and once as the name the
    plugin and the Markdown extension go by in mkdocs.yml."""
    import ast

    imports, literals = [], []
    for path in sorted((ROOT / "plugins").rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            where = f"{path.relative_to(ROOT)}:{getattr(node, 'lineno', 0)}"
            if isinstance(node, ast.Import):
                imports += [where for alias in node.names if alias.name.split(".")[0] == "calculators"]
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and (node.module or "").startswith("calculators"):
                imports.append(where)
            elif isinstance(node, ast.Constant) and node.value == "calculators":
                literals.append(where)
    assert imports == []
    config = (ROOT / "plugins/mkdocs_calculators/config.py").read_text(encoding="utf-8").splitlines()
    lines = [config.index(f'{name} = "calculators"') + 1 for name in ("DEFAULT_PACKAGE", "NAME")]
    assert literals == [f"plugins/mkdocs_calculators/config.py:{line}" for line in lines]
    # The browser side too: the worker and the snapshot script import the package they are told, and calckit.
    for script in ("mkdocs_calculators/assets/worker.js", "mkdocs_calculators/runtime/snapshot.mjs"):
        text = (ROOT / "plugins" / script).read_text(encoding="utf-8")
        assert not re.search(r"import calculators|calculators\.(api|CALCULATORS)|modules\.get\('calculators'\)", text)


def test_the_plugin_is_its_own_distribution() -> None:
    """plugins/ installs on its own (its own name, version and dependencies: no theme, nothing of this book), and the
    book depends on it like any other plugin."""
    import tomllib

    plugin = tomllib.loads((ROOT / "plugins/pyproject.toml").read_text(encoding="utf-8"))["project"]
    book = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    assert plugin["name"] == "mkdocs-calculators" and plugin["version"] == "0.1.0"
    assert [re.split(r"[<>=]", dependency)[0] for dependency in plugin["dependencies"]] == [
        "babel",  # the plural rules of the book's language, for the plugin's words (i18n/)
        "coverage",  # an exercise's cases must reach every line and branch of its solution, measured at build
        "jsonschema",
        "mkdocs",
        "PyYAML",
        "pymdown-extensions",
    ]
    plugin_class = "mkdocs_calculators.hosts.plugin:CalculatorsPlugin"
    assert plugin["entry-points"]["mkdocs.plugins"] == {"calculators": plugin_class}
    # The same blocks for Zensical, which runs Markdown extensions; and what follows its build, as a command.
    assert plugin["entry-points"]["markdown.extensions"] == {
        "calculators": "mkdocs_calculators.hosts.markdown:CalculatorsExtension"
    }
    assert plugin["scripts"] == {"mkdocs-calculators": "mkdocs_calculators.hosts.cli:main"}
    assert "mkdocs-calculators==0.1.0" in book["dependencies"]
    assert "entry-points" not in book


SUMMARY_FORM = "`tests per layer: unit N, conformance N, build N, browser N`"


def test_the_guides_show_the_form_of_the_test_summary_not_a_stale_count() -> None:
    """The README and the contributing guide show the line that ends a test run as a form (N for each count), which
    the line a real run prints matches; no count is written down to go stale as tests are added."""
    for guide in (ROOT / "README.md", ROOT / "docs/contributing.md"):
        text = " ".join(guide.read_text(encoding="utf-8").split())
        assert SUMMARY_FORM in text, guide
        assert not re.search(r"tests per layer: unit \d", text), guide
    run = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:randomly", "-p", "no:cacheprovider", "tests/unit/test_api.py"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert run.returncode == 0, run.stdout[-2000:]
    form = re.escape(SUMMARY_FORM.strip("`")).replace("N", r"\d+")
    (line,) = [line for line in run.stdout.splitlines() if line.startswith("tests per layer:")]
    assert re.fullmatch(form, line), line
