"""The modelling figures of chapter 27's MI300X section, each phrase built from the calculators' values.

Llama 3 70B: 141,107,412,992 bytes of BF16 weights (Meta's model.safetensors.index.json), so 70.55e9 parameters;
80 layers, 8 KV heads of 128 (config.json). H200: 141 GB, 4.8 TB/s (NVIDIA); MI300X: 192 GB, 5.3 TB/s (AMD).
"""

from __future__ import annotations

from calckit.book import calculator as get
from calculators.chips import get_chip

from .page_text import assert_says

PAGE = "chapters/27-asics-and-accelerators.md"
CHECKPOINT = 141_107_412_992  # bytes


def test_the_checkpoint_does_not_fit_an_h200() -> None:
    """141.1 GB against 141 GB: the H200's largest model at 2 bytes per parameter is 70.5 B, below 70.55 B."""
    h200 = get_chip("h200-sxm").memory_gb.value * 1e9
    assert h200 < CHECKPOINT
    table = get("compare").run({"chips": ["h200-sxm", "mi300x"], "precision": "bf16", "params_b": 70.6}).table
    assert table is not None
    assert table.rows[0][-1].endswith("(does not fit)") and not table.rows[1][-1].endswith("(does not fit)")
    assert_says(
        PAGE,
        f"take {CHECKPOINT / 1e9:.1f} GB at 16-bit precision",
        "params_b: 70.6",
        "the checkpoint alone is as large as the memory",
        f"the H200 holds {141 * 2**30 / 1e9:.0f} × 10⁹ bytes, and about {(141 * 2**30 - CHECKPOINT) / 1e9:.0f} GB",
    )


def test_what_an_mi300x_leaves_for_the_cache() -> None:
    """(192e9 - 141.107e9) / 327,680 B = 155,313 tokens; / 8,192 = 18.96, so 18 whole sequences."""
    per_token = get("inference").run({"params_b": 70.6, "layers": 80, "hidden": 8192}).values["kv_per_token"]
    assert per_token == 327_680
    spare = get_chip("mi300x").memory_gb.value * 1e9 - CHECKPOINT
    tokens = spare / per_token
    assert_says(
        PAGE,
        f"fit with {spare / 1e9:.0f} GB to spare",
        f"so {spare / 1e9:.0f} GB holds about {round(tokens, -3):,.0f} tokens",
        f"{int(tokens // 8192)} whole sequences",
    )


def test_batch_1_decode_bounds() -> None:
    """5.3e12 / 141.1e9 = 37.6 tokens/s on an MI300X; 4.8e12 / 141.1e9 = 34.0 on an H200."""
    rows = get("compare").run({"chips": ["h200-sxm", "mi300x"], "precision": "bf16", "params_b": 70.6}).table
    assert rows is not None
    assert rows.rows[1][-1].startswith("37.5") and rows.rows[0][-1].startswith("34")
    assert_says(PAGE, "5.3 TB/s ÷ 141.1 GB ≈ 38 tokens per second on an MI300X, against 34 on an H200")
