"""The disaggregation planner, worked by hand against its sources.

Sources: Meta's Llama 3 70B config.json (80 layers, 64 query heads, 8 KV heads of 128), so a BF16 cache of
2 x 8 x 128 x 80 x 2 = 327,680 bytes per token; DeepSeek-V3's MLA, (512 + 64) x 61 x 2 = 70,272 bytes; a 400 Gb/s
NIC moves 50 GB/s. Zhong et al., "DistServe", OSDI 2024, section 3.1: a prefill instance as an M/D/1 queue, mean
TTFT = D + R D^2 / (2 (1 - R D)). Patel et al., "Splitwise", ISCA 2024: the KV cache sent layer by layer during the
prefill. OpenAI's gpt-oss-120b config.json: 36 layers, 8 KV heads of 64, every other layer a 128-token window.
"""

from __future__ import annotations

import pytest

from calckit.book import calculator as get
from calculators.disaggregation import exposed_transfer, md1_ttft, md1_utilisation_for

D = get("disaggregation")
LLAMA_KV = 2 * 8 * 128 * 80 * 2  # 327,680 bytes per token


def run(**inputs: object) -> dict[str, object]:
    return dict(D.run(inputs).values)


class TestTransfer:
    def test_the_issue_figures(self) -> None:
        """Llama 3 70B, 4,096 tokens: 1.342 GB; over eight 400 Gb/s NICs 3.36 ms, over one 26.8 ms (issue 48: '1.34 GB
        in 3.4 ms over eight NICs, 27 ms over one')."""
        values = run()
        assert values["kv_per_request"] == pytest.approx(4096 * LLAMA_KV)
        assert values["kv_per_request"] == pytest.approx(1.342e9, rel=1e-3)
        assert values["transfer_time"] == pytest.approx(4096 * LLAMA_KV / 400e9)
        assert round(float(values["transfer_time"]) * 1e3, 1) == 3.4
        assert round(float(run(nics=1)["transfer_time"]) * 1e3) == 27

    def test_mla_ships_less(self) -> None:
        values = run(attention="mla", layers=61, heads=128)
        assert values["kv_per_token"] == 70_272
        assert values["transfer_time"] == pytest.approx(4096 * 70_272 / 400e9)  # 0.72 ms

    def test_sliding_window(self) -> None:
        """gpt-oss-120b at 131,072 tokens: 2 x 8 x 64 x 2 = 2,048 bytes a token and layer; 36 full layers keep 9.66 GB,
        18 full and 18 windowed at 128 keep 4.84 GB."""
        shape = {"attention": "gqa", "layers": 36, "heads": 64, "kv_heads": 8, "head_dim": 64, "prompt": 131072}
        assert run(**shape)["kv_per_request"] == pytest.approx(2048 * 36 * 131072)
        windowed = run(**shape, window=128, windowed_layers=18)["kv_per_request"]
        assert windowed == pytest.approx(2048 * (18 * 131072 + 18 * 128))

    def test_layerwise_hides_the_transfer(self) -> None:
        """Sent a layer at a time, only the last layer's 1/80 is left when the link keeps up: 3.36 ms / 80 = 42 us."""
        transfer = 4096 * LLAMA_KV / 400e9
        assert run(transfer="layerwise")["exposed_transfer"] == pytest.approx(transfer / 80)
        assert exposed_transfer(10.0, 1.0, 10, True) == pytest.approx(10 - 0.9)  # the link is the bottleneck
        assert exposed_transfer(10.0, 1.0, 10, False) == 10.0


class TestQueue:
    def test_md1_mean(self) -> None:
        """DistServe's Avg_TTFT = D + R D^2 / (2 (1 - R D))."""
        assert md1_ttft(4.0, 0.1) == pytest.approx(0.1 + 4 * 0.01 / (2 * 0.6))

    def test_default_load(self) -> None:
        """D = 4,096 / 27,000 = 151.7 ms; 8 requests/s over 2 instances: rho = 0.607, wait 116.9 ms, TTFT with the
        3.36 ms transfer 272 ms."""
        d = 4096 / 27000
        rho = 4 * d
        values = run()
        assert values["prefill_time"] == pytest.approx(d)
        assert values["utilisation"] == pytest.approx(rho)
        assert values["queue_wait"] == pytest.approx(rho * d / (2 * (1 - rho)))
        assert values["ttft"] == pytest.approx(d + rho * d / (2 * (1 - rho)) + 4096 * LLAMA_KV / 400e9)

    def test_overload_has_no_mean(self) -> None:
        result = D.run({"rate": 14})
        assert result.values["ttft"] == "—"
        assert "grows without end" in result.notes["ttft"]


class TestGoodput:
    def test_utilisation_for_a_target(self) -> None:
        """Mean D (1 + rho / (2 (1 - rho))) = target solves to rho = 2 s / (1 + 2 s), s = target / D - 1."""
        rho = md1_utilisation_for(0.4, 0.15)
        assert md1_ttft(rho / 0.15, 0.15) == pytest.approx(0.4)
        assert md1_utilisation_for(0.1, 0.15) == 0.0

    def test_default_goodput(self) -> None:
        """s = (0.4 - 0.00336) / 0.1517 - 1 = 1.615, rho = 0.763, 2 x 0.763 / 0.1517 = 10.06 requests/s; the decode
        instance keeps up to 7,590 / 512 = 14.8, at 64 / 7,590 = 8.43 ms a token."""
        d, transfer = 4096 / 27000, 4096 * LLAMA_KV / 400e9
        s = (0.4 - transfer) / d - 1
        values = run()
        assert values["goodput"] == pytest.approx(2 * (2 * s / (1 + 2 * s)) / d)
        assert values["decode_capacity"] == pytest.approx(7590 / 512)
        assert values["tpot"] == pytest.approx(64 / 7590)
        assert values["goodput_per_gpu"] == pytest.approx(float(values["goodput"]) / 24)
        assert values["limited_by"] == "the prefill pool's queue, at the TTFT target"

    def test_decode_limits_with_more_prefill(self) -> None:
        values = run(prefill_instances=3)
        assert values["goodput"] == pytest.approx(7590 / 512)
        assert values["limited_by"] == "the decode pool's throughput"

    def test_missed_tpot_means_no_goodput(self) -> None:
        values = run(tpot_slo=5)
        assert values["goodput"] == 0
        assert str(values["limited_by"]).startswith("the decode pool:")


def test_the_chart_stops_below_saturation_where_rounding_reaches_it() -> None:
    """At 35,311 prefill instances of 1.0729 ms each, the capacity times 120/120 rounds under the capacity while the
    rate per instance times the prefill time is 1.0: the chart's last point divided by zero (found by the fuzz test).
    Its points stop below saturation: 120 of them, from 0 to 119/120 of the capacity, each TTFT finite."""
    inputs = {"prompt": 10729, "prefill_rate": 10_000_000, "prefill_instances": 35311, "rate": 0}
    result = D.run(inputs)
    points = result.chart["layer"][0]["data"]["values"] if "layer" in result.chart else None
    assert points is not None and len(points) == 120
    capacity = 35311 / (10729 / 10_000_000)
    assert points[-1]["rate"] == pytest.approx(capacity * 119 / 120)
    assert all(point["ttft"] > 0 for point in points)
