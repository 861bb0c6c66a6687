"""The all-reduce calculator against a hand-worked tensor-parallel MLP on eight H100s.

Figures: NVIDIA Hopper whitepaper, 989.4 TFLOP/s dense BF16; NVIDIA H100 data sheet, NVLink 900 GB/s per GPU (both
directions, so 450 GB/s sent); Meta's Llama 3 70B config.json, hidden 8,192 and intermediate 28,672. The ring
all-reduce sends 2 (N - 1) / N of the data from each chip (Patarasuk and Yuan, "Bandwidth optimal all-reduce
algorithms for clusters of workstations", JPDC 2009).
"""

from __future__ import annotations

import pytest

from calckit.book import calculator as get

ALLREDUCE = get("allreduce")


def test_eight_h100s_llama_70b_mlp() -> None:
    """B = 4,096 tokens, N = 8.

    Matmul per chip: 2 x 4,096 x 8,192 x 28,672 / 8 / 989.4e12 = 243.1 us.
    Sent per chip: 2 x 7/8 x 4,096 x 8,192 x 2 B = 117,440,512 B; at 450 GB/s, 261.0 us.
    Ratio 7 x 2 x 989.4e12 / (28,672 x 450e9) = 1.0736; the multiply is longer only for F > 30,781.
    """
    values = ALLREDUCE.run({"chip": "h100-sxm"}).values
    assert values["compute_time"] == pytest.approx(243.09e-6, rel=1e-4)
    assert values["bytes_sent"] == 117_440_512
    assert values["comm_time"] == pytest.approx(260.98e-6, rel=1e-4)
    assert values["ratio"] == pytest.approx(1.07357, rel=1e-4)
    assert values["min_d_ff"] == pytest.approx(30_781.3, abs=0.1)
    assert values["bound"] == "Communication-bound"
    assert values["overlapped_time"] == values["comm_time"]
    assert values["serial_time"] == pytest.approx(values["comm_time"] + values["compute_time"])


def test_the_ratio_does_not_depend_on_the_batch() -> None:
    ratios = {ALLREDUCE.run({"chip": "h100-sxm", "batch": b}).values["ratio"] for b in (1, 64, 4096, 65536)}
    assert max(ratios) == pytest.approx(min(ratios))


def test_fewer_chips_fit_under_the_compute_roof() -> None:
    """N = 4: 3 x 2 x 989.4e12 / (28,672 x 450e9) = 0.4601, so the all-reduce takes under half the multiply."""
    values = ALLREDUCE.run({"chip": "h100-sxm", "chips": 4}).values
    assert values["ratio"] == pytest.approx(0.46010, rel=1e-4)
    assert values["bound"] == "Compute-bound"
    assert values["overlapped_time"] == values["compute_time"]
