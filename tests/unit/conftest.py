"""Which unit tests guard the plugin and which the book's content, so a contributor runs what their change touches.

`pytest -m content` is what a change to `docs/` or `calculators/` needs (`make check` runs it); `pytest -m plugin`
what a change to `plugins/` needs (with the build, conformance and browser layers, which are all `plugin`). Every test
module here is named in exactly one of the two sets below: collecting one that is in neither stops the run with a line
saying where to add it, so no test is left out of both runs.
"""

from __future__ import annotations

from pathlib import Path

import pytest

# The plugin and calckit: the page renderer, the block kinds' models, the runtime's layout, grading, the test tools.
PLUGIN_TESTS = frozenset(
    {
        "test_adjustables.py",
        "test_api.py",
        "test_authored_text.py",
        "test_bench_bytes.py",
        "test_bench_editor.py",
        "test_book_contract.py",
        "test_book_to_ship.py",
        "test_searched.py",
        "test_book_kinds.py",
        "test_i18n.py",
        "test_book_names.py",
        "test_build_cache.py",
        "test_busy.py",
        "test_calckit_imports.py",
        "test_contracts.py",
        "test_digests.py",
        "test_exercise.py",
        "test_exercise_reach.py",
        "test_fences.py",
        "test_formula_heights.py",
        "test_grading.py",
        "test_markdown_extension.py",
        "test_math_scan.py",
        "test_options.py",
        "test_page_render.py",
        "test_progress_blocks.py",
        "test_progress_names.py",
        "test_quiz.py",
        "test_repository_gates.py",
        "test_runtime_layout.py",
        "test_session.py",
        "test_slots.py",
        "test_snapshot_failures.py",
        "test_spec.py",
        "test_stand_in_height.py",
        "test_stand_ins.py",
        "test_stylesheets.py",
        "test_suite_order.py",
        "test_test_server.py",
        "test_twins.py",
        "test_typed_check.py",
        "test_values.py",
        "test_units.py",
        "test_yaml_compose.py",
    }
)

# The book: its calculators worked by hand, its chip database, and the figures its pages quote.
CONTENT_TESTS = frozenset(
    {
        "test_bench_recompute.py",
        "test_calculators.py",
        "test_chapter27_claims.py",
        "test_charts.py",
        "test_chip_atlas_2026.py",
        "test_chip_checks.py",
        "test_chip_dates.py",
        "test_chips.py",
        "test_collectives.py",
        "test_communication.py",
        "test_comparison.py",
        "test_course_order.py",
        "test_decode_step.py",
        "test_disaggregation.py",
        "test_energy.py",
        "test_expert_parallel.py",
        "test_fp4.py",
        "test_inference.py",
        "test_inference_at_scale_lesson.py",
        "test_kv_cache.py",
        "test_landscape_figures.py",
        "test_latency_throughput.py",
        "test_matmul.py",
        "test_memory_in_training_lesson.py",
        "test_model_review.py",
        "test_parallelism.py",
        "test_parallelism_lesson.py",
        "test_pipeline_schedule.py",
        "test_roofline.py",
        "test_roofline_lesson.py",
        "test_scale_hand_checks.py",
        "test_scaling_book_cases.py",
        "test_serving.py",
        "test_serving_lesson.py",
        "test_serving_moe_lesson.py",
        "test_speculative.py",
        "test_systolic.py",
        "test_training.py",
        "test_training_memory.py",
        "test_utilization.py",
    }
)


def concern(path: Path) -> str:
    """`plugin` or `content` for a unit test module, or a UsageError naming the file and where to say which."""
    name = path.name
    if (name in PLUGIN_TESTS) == (name in CONTENT_TESTS):
        where = "both" if name in PLUGIN_TESTS else "neither"
        raise pytest.UsageError(
            f"tests/unit/{name} is in {where} of PLUGIN_TESTS and CONTENT_TESTS: name it in exactly one, in "
            "tests/unit/conftest.py (content: it tests the book's calculators, chips or pages; plugin: the rest)"
        )
    return "plugin" if name in PLUGIN_TESTS else "content"
