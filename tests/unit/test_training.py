"""Training time: the worked example of docs/contributing.md, checked against a published training run."""

from __future__ import annotations

import pytest

from calckit.api import run
from calckit.book import calculator as get

TRAINING = get("training")


def test_flops_are_six_n_d() -> None:
    """70 B parameters on 2 T tokens: 6 x 7e10 x 2e12 = 8.4e23 FLOPs."""
    assert TRAINING.run({}).values["flops"] == pytest.approx(8.4e23)


def test_llama_2_70b_gpu_hours() -> None:
    """Meta, "Llama 2: Open Foundation and Fine-Tuned Chat Models" (2023), table 2: 1,720,320 A100 GPU-hours for
    the 70 B model on 2 T tokens. On A100s at 312 TFLOP/s dense BF16 that is an MFU of about 43.5 %."""
    values = TRAINING.run({"chip": "a100-80gb-sxm", "mfu": 43.5}).values
    assert values["chip_hours"] == pytest.approx(1_720_320, rel=0.005)


def test_more_chips_finish_sooner_for_the_same_chip_hours() -> None:
    small, large = (TRAINING.run({"chips": chips}).values for chips in (1024, 4096))
    assert large["days"] == pytest.approx(small["days"] / 4)
    assert large["chip_hours"] == pytest.approx(small["chip_hours"])


def test_texts() -> None:
    assert [o["text"] for o in run("training", {})["outputs"]] == ["8.4 × 10²³ FLOP", "38 days", "1.87 million"]
