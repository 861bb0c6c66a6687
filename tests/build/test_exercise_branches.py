"""An exercise's cases must run every line and branch of its own solution, or the strict build stops at the line.

A reader's code passes when it agrees with the reference on every case: a branch of the reference that no case takes
(the None of a batch that never reaches the ridge) is one the reader may leave out and still be told "Well done". The
build runs the solution under coverage.py in the process that runs the book's code with a time limit, and names the
solution's line on the page.
"""

from __future__ import annotations

import pytest

from tests.build.sites import Build, build_fixture

# The critical batch as the roofline exercises had it: its drawn ranges never make the denominator reach zero, so no
# case expects None, and a solution without the `if` passed every case.
NEVER_NONE = """# Critical batch

```exercise
id: critical
title: The batch that reaches the ridge
prompt: Return the batch, or None if no batch reaches the ridge.
function: critical_batch(ridge, d, f, weight_bytes, activation_bytes)
starter: |
  def critical_batch(ridge, d, f, weight_bytes, activation_bytes):
      ...
solution: |
  def critical_batch(ridge, d, f, weight_bytes, activation_bytes):
      denominator = 2 * d * f - ridge * activation_bytes * (d + f)
      if denominator <= 0:
          return None
      return ridge * weight_bytes * d * f / denominator
check:
  function: calculators.matmul.critical_batch
  cases: 4
  vary:
    ridge: {min: 50, max: 700, step: 0.1}
    d: [4096, 8192]
    f: [14336, 28672]
    weight_bytes: [1, 2]
    activation_bytes: [1, 2]
  fixed:
    - {ridge: 295.3, d: 8192, f: 28672, weight_bytes: 2, activation_bytes: 2}
  tolerance: 1e-9 relative
```
"""

# The same with a fixed case whose answer is None: 1,024 x 1,024 at 16-bit activations does at most 512 FLOP/B.
REACHES_NONE = NEVER_NONE.replace(
    "  tolerance:", "    - {ridge: 590.7, d: 1024, f: 1024, weight_bytes: 2, activation_bytes: 2}\n  tolerance:"
)

# Every line runs, but the `if` is always true: no case is compute-bound, so `if` without its body passes too.
ALWAYS_TRUE = """# Roof

```exercise
id: roof
title: The lower roof
prompt: Return the attainable throughput, in TFLOP/s.
function: attainable(peak_tflops, bandwidth_tbs, intensity)
starter: |
  def attainable(peak_tflops, bandwidth_tbs, intensity):
      ...
solution: |
  def attainable(peak_tflops, bandwidth_tbs, intensity):
      roof = peak_tflops
      if bandwidth_tbs * intensity < roof:
          roof = bandwidth_tbs * intensity
      return roof
check:
  calculator: roofline
  output: attainable
  unit: TFLOP/s
  cases: 0
  fixed:
    - {peak_tflops: 197, bandwidth_tbs: 0.819, intensity: 1}
    - {peak_tflops: 989.4, bandwidth_tbs: 3.35, intensity: 2}
```
"""

FIX = "add a fixed case that does (under 'check: fixed'), or take the line out of the solution"


@pytest.fixture(scope="module")
def branches_build(tmp_path_factory: pytest.TempPathFactory) -> Build:
    files = {"docs/index.md": REACHES_NONE, "docs/never-none.md": NEVER_NONE, "docs/always-true.md": ALWAYS_TRUE}
    return build_fixture(tmp_path_factory.mktemp("exercise-branches"), files)


def test_a_solution_line_no_case_reaches_stops_the_build_at_it(branches_build: Build) -> None:
    # Line 15 of the page is `return None`: the solution's fourth line, its block starting after line 11.
    assert NEVER_NONE.splitlines()[14].strip() == "return None"
    assert branches_build.returncode != 0
    assert f"docs/never-none.md:15: exercise 'critical': no case reaches this line; {FIX}" in branches_build.errors()


def test_a_branch_no_case_takes_stops_the_build_at_its_line(branches_build: Build) -> None:
    # Line 14 is the `if`; its way past the body, to the solution's fifth line (`return roof`), is never taken.
    assert ALWAYS_TRUE.splitlines()[13].strip() == "if bandwidth_tbs * intensity < roof:"
    message = "docs/always-true.md:14: exercise 'roof': no case goes on from this line to line 5 of the solution"
    assert f"{message}; {FIX}" in branches_build.errors()


def test_a_case_for_every_branch_builds(branches_build: Build) -> None:
    assert not [error for error in branches_build.errors() if error.startswith("docs/index.md")]
    assert len(branches_build.errors()) == 2, branches_build.errors()
