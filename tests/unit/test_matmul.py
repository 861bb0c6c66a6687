"""The matrix-multiply calculator: intensity and critical batch, worked by hand for the roofline lesson.

Sources of the figures: NVIDIA's Hopper whitepaper (H100 SXM, 989.4 TFLOP/s dense BF16, 1,978.9 FP8) and data sheet
(3.35 TB/s); Google Cloud's TPU v5e page (197 TFLOP/s BF16, 393 TOPS INT8, 819 GB/s); Meta's Llama 3 70B config.json
(hidden 8,192, intermediate 28,672). The derivation of the formula is in calculators/matmul.py.
"""

from __future__ import annotations

import pytest

from calckit.book import calculator as get
from calculators.matmul import critical_batch

MATMUL = get("matmul")
LLAMA_70B_MLP = {"d_model": 8192, "d_ff": 28672}


def test_intensity_is_about_the_batch_at_16_bits() -> None:
    """B = 64, D = 8,192, F = 28,672, 2 bytes each: 2BDF / (2BD + 2DF + 2BF) = 64 / (1 + 64 x 36,864 / 234,881,024).

    By hand: 64 x 36,864 = 2,359,296; / 234,881,024 = 0.010045; 64 / 1.010045 = 63.36 FLOP per byte.
    """
    values = MATMUL.run({"chip": "h100-sxm", "batch": 64, **LLAMA_70B_MLP}).values
    assert values["intensity"] == pytest.approx(63.364, abs=1e-3)
    assert values["bound"] == "Memory-bound"
    assert values["fraction"] == pytest.approx(63.364 / 295.343, rel=1e-4)


def test_h100_bf16_critical_batch() -> None:
    """Ridge 989.4 / 3.35 = 295.34. B* = 295.34 x 2 x DF / (2DF - 295.34 x 2 x (D + F)).

    By hand: DF = 234,881,024; 2DF = 469,762,048; 295.343 x 2 x 36,864 = 21,775,070; so
    B* = 295.343 / (1 - 21,775,070 / 469,762,048) = 295.343 / 0.953646 = 309.70. The large-matrix estimate,
    ridge x 2 / 2, is 295.3.
    """
    values = MATMUL.run({"chip": "h100-sxm", **LLAMA_70B_MLP}).values
    assert values["ridge"] == pytest.approx(295.343, abs=1e-3)
    assert values["critical_batch"] == pytest.approx(309.70, abs=0.01)
    assert values["critical_batch_approx"] == pytest.approx(295.34, abs=0.01)


def test_tpu_v5e_bf16_critical_batch() -> None:
    """Ridge 197 / 0.819 = 240.54; B* = 240.54 / (1 - 240.54 x 2 x 36,864 / 469,762,048) = 240.54 / 0.96225 = 249.97."""
    values = MATMUL.run({"chip": "tpu-v5e", **LLAMA_70B_MLP}).values
    assert values["ridge"] == pytest.approx(240.537, abs=1e-3)
    assert values["critical_batch"] == pytest.approx(249.97, abs=0.01)
    assert values["critical_batch_approx"] == pytest.approx(240.54, abs=0.01)


@pytest.mark.parametrize(
    ("precision", "weight_bytes", "activation_bytes", "expected"),
    [
        # FP8 compute with 8-bit weights and activations: the ridge doubles (590.7) and so do the FLOPs per byte.
        ("fp8", "1", "1", 309.72),
        # FP8 compute fed 16-bit operands: twice the ridge, the same bytes, so about twice the batch.
        ("fp8", "2", "2", 651.08),
        # 8-bit weights, 16-bit compute (weight-only quantization): half the bytes per weight, about half the batch.
        ("bf16", "1", "2", 154.85),
    ],
)
def test_h100_critical_batch_by_precision(
    precision: str, weight_bytes: str, activation_bytes: str, expected: float
) -> None:
    inputs = {"precision": precision, "weight_bytes": weight_bytes, "activation_bytes": activation_bytes}
    values = MATMUL.run({"chip": "h100-sxm", **inputs, **LLAMA_70B_MLP}).values
    assert values["critical_batch"] == pytest.approx(expected, abs=0.01)


def test_at_the_critical_batch_the_intensity_is_the_ridge() -> None:
    batch = critical_batch(295.343, 8192, 28672, 2.0, 2.0)
    assert batch is not None
    at = MATMUL.run({"chip": "custom", "peak_tflops": 989.4, "bandwidth_tbs": 3.35, "batch": 310, **LLAMA_70B_MLP})
    below = MATMUL.run({"chip": "custom", "peak_tflops": 989.4, "bandwidth_tbs": 3.35, "batch": 309, **LLAMA_70B_MLP})
    assert at.values["intensity"] >= at.values["ridge"] > below.values["intensity"]
    # So close to the ridge neither roof alone decides: the verdict says both (calculators/roofline.py, limit).
    assert at.values["bound"] == below.values["bound"] == "At the ridge: both limits"


def test_a_narrow_matrix_never_reaches_the_ridge() -> None:
    """D = F = 256 at 2 bytes caps the intensity at 2DF / (2 (D + F)) = 128 FLOP per byte, under the H100's 295."""
    values = MATMUL.run({"chip": "h100-sxm", "d_model": 256, "d_ff": 256, "batch": 1_000_000}).values
    assert values["critical_batch"] == "—"
    assert values["intensity"] < 128
    assert values["bound"] == "Memory-bound"


def test_time_at_best_is_flops_over_attainable() -> None:
    """B = 4,096 is compute-bound on an H100: 2 x 4,096 x 8,192 x 28,672 FLOPs at 989.4 TFLOP/s = 1.945 ms."""
    values = MATMUL.run({"chip": "h100-sxm", "batch": 4096, **LLAMA_70B_MLP}).values
    assert values["time"] == pytest.approx(2 * 4096 * 8192 * 28672 / 989.4e12)


def test_summary_says_which_side_of_the_critical_batch() -> None:
    below = MATMUL.run({"chip": "h100-sxm", "batch": 64, **LLAMA_70B_MLP}).summary
    above = MATMUL.run({"chip": "h100-sxm", "batch": 400, **LLAMA_70B_MLP}).summary
    assert "needs a batch of at least 310 to reach the compute roof" in below
    assert above.startswith("Compute-bound") and "above the critical batch of 310" in above
