"""The GitHub workflows gate: the book is published only after every test passed, and one push runs the tests once."""

from __future__ import annotations

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


def test_ci_runs_once_per_push_and_runs_make_test_strictly() -> None:
    """CI runs on pull requests and when called, not on every push too (a pull request's push would run twice)."""
    ci = _load("ci.yml")
    assert set(ci["on"]) == {"pull_request", "workflow_call"}
    steps = ci["jobs"]["test"]["steps"]
    (make_test,) = [step for step in steps if step.get("run") == "make test"]
    assert make_test["env"]["CI"] == "true"
