"""Golden cases for the conformance layer, as calls of calckit.api.FUNCTIONS: hand-picked and seeded samples of
every calculator's inputs, "new numbers" variants of the book's own numeric quiz questions, and the book's exercises
checked with their solutions and starters, as a reader's code is run in the worker."""

from __future__ import annotations

import random
from typing import Any

import yaml

from calckit import Calculator
from calculators import CALCULATORS
from mkdocs_calculators.pages.fences import find_fences
from tests.support import ROOT

DEEPSEEK_V3: dict[str, Any] = {
    "chip": "h200-sxm",
    "chips": 8,
    "precision": "fp8",
    "params_b": 671,
    "active_b": 37,
    "experts": 256,
    "top_k": 8,
    "bytes_per_param": "1",
    "layers": 61,
    "hidden": 7168,
    "attention": "mla",
    "heads": 128,
}

HAND_PICKED: list[tuple[str, dict[str, Any]]] = [
    ("roofline", {}),
    ("roofline", {"peak_tflops": 197, "bandwidth_tbs": 0.819}),  # TPU v5e: ridge about 240
    ("roofline", {"intensity": "1,000"}),
    ("roofline", {"intensity": 295.2238805970149}),  # exactly at the ridge
    ("roofline", {"intensity": "-3", "peak_tflops": "abc"}),
    ("roofline", {"intensity": "nan"}),
    ("roofline", {"intensity": "1e999"}),
    ("roofline", {"bandwidth_tbs": ""}),
    ("roofline", {"peak_tflops": 1e6, "bandwidth_tbs": 0.001, "intensity": 0.01}),
    ("inference", {"chip": "apple-m3-ultra", "params_b": 70, "bytes_per_param": "0.5625"}),  # no peak: left out
    ("inference", {"chip": "h100-sxm", "batch": 1000, "context": 128}),  # attention then compute-bound matmuls
    ("matmul", {"chip": "tpu-v5e"}),  # critical batch about 250 for Llama 3 70B's MLP at BF16
    ("matmul", {"chip": "h100-sxm", "precision": "fp8", "weight_bytes": "1", "activation_bytes": "1"}),
    ("matmul", {"chip": "custom", "d_model": 256, "d_ff": 256, "batch": 1_000_000}),  # never reaches the ridge
    ("allreduce", {"chip": "h100-sxm"}),  # 8 H100s over NVLink: the all-reduce takes 0.36 of the MLP block
    ("allreduce", {"chip": "h100-sxm", "batch": 8, "latency_us": 1}),  # decode: latency, and the weights' reads
    ("allreduce", {"chip": "tpu-v5e", "link_gbs": 100, "chips": 4}),
    ("serving", {"chip": "h200-sxm", "chips": 2}),  # out of memory at batch 64: at most 52 sequences fit
    ("serving", {"chip": "mi300x", "chips": 2, "pue": 1.2}),
    ("serving", {"chip": "h200-sxm", "chips": 1, "params_b": 405}),  # the weights alone do not fit
    ("serving", {"chip": "h200-sxm", "chips": 3}),  # tensor parallelism cannot split 64 heads three ways
    ("serving", {"chip": "h200-sxm", "chips": 2, "context": 1024, "batch": 400}),  # weight matmuls compute-bound
    # DeepSeek-V3 in FP8 on 8 H200s, MLA: 99.97% of the experts read at batch 256, 37 GB at batch 1.
    *((name, {**DEEPSEEK_V3, "batch": batch}) for name in ("serving", "latency-throughput") for batch in (1, 256)),
    ("inference", {**{k: v for k, v in DEEPSEEK_V3.items() if k != "chips"}, "batch": 64}),
    ("compare", {"chips": ["h200-sxm", "mi300x"], "params_b": 671, "active_b": 37, "experts": 256, "top_k": 8}),
    ("serving", {**DEEPSEEK_V3, "active_b": 5}),  # fewer active parameters than 8 of 256 experts hold: an error
    ("latency-throughput", {"attention": "mqa", "kv_bytes": "1"}),
]


def _sample(calculator: Calculator, rng: random.Random) -> dict[str, Any]:
    inputs: dict[str, Any] = {}
    for spec in calculator.inputs:
        roll = rng.random()
        if spec.kind == "choice":
            inputs[spec.key] = rng.choice([*spec.choice_values, "nope"])
        elif roll < 0.8 and spec.min is not None and spec.max is not None:
            low, high = max(spec.min, 1e-3), spec.max
            value = low * (high / low) ** rng.random()  # log-uniform over the declared range
            inputs[spec.key] = value if rng.random() < 0.5 else f"{value:.6g}"
        elif roll < 0.9:
            inputs[spec.key] = rng.choice([0, -1, "", "x", 1e300])
    return inputs


def _numeric_questions() -> list[dict[str, Any]]:
    """Every numeric question in the book's quiz blocks, as its author wrote it."""
    questions = []
    for page in sorted((ROOT / "docs").rglob("*.md")):
        for fence in find_fences(page.read_text(encoding="utf-8"), frozenset({"quiz"})):
            quiz = yaml.safe_load(fence.body)
            questions += [q for q in quiz.get("questions", []) if isinstance(q, dict) and q.get("kind") == "numeric"]
    return questions


def _exercises() -> list[dict[str, Any]]:
    """Every exercise in the book, as the page carries it: how its cases are drawn for a Check."""
    from calckit.exercise_checks import read_exercise
    from calculators import CALCULATORS

    exercises = []
    for page in sorted((ROOT / "docs").rglob("*.md")):
        for fence in find_fences(page.read_text(encoding="utf-8"), frozenset({"exercise"})):
            exercise = read_exercise(yaml.safe_load(fence.body), CALCULATORS, "calculators")
            exercises.append(dict(exercise.drawing_data()))
    return exercises


def golden_cases(per_calculator: int = 60, seed: int = 20261129) -> list[dict[str, Any]]:
    """Each case is {"function": NAME, "arguments": {...}}, as the browser worker receives it."""
    rng = random.Random(seed)
    runs = [(name, inputs) for name, inputs in HAND_PICKED]
    for name, calculator in CALCULATORS.items():
        runs += [(name, _sample(calculator, rng)) for _ in range(per_calculator)]
    cases = [{"function": "run", "arguments": {"name": name, "inputs": inputs}} for name, inputs in runs]
    for question in _numeric_questions():
        cases += [{"function": "quiz_variant", "arguments": {"question": question, "seed": s}} for s in range(1, 6)]
    for exercise in _exercises():  # a Check's cases, drawn in the calculators' worker from a seed the page picks
        cases += [{"function": "exercise_cases", "arguments": {**exercise, "seed": f"check-{s}"}} for s in range(3)]
    return cases
