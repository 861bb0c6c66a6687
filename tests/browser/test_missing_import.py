"""One calculator's import of a module the browser lacks leaves the page's other calculators computing.

The strict build refuses the import at its line (tests/build/test_author_code_limits.py); `mkdocs serve`, and a build
that is not strict, say so and go on. The book's `__init__` imports every module, so in Pyodide that one import used
to fail the whole package and every calculator of the page with it. Here roofline's module imports attrs (installed
for the build's Python, absent from Pyodide), makes a class with it at its top level and uses it in compute; matmul's
module does not: matmul computes, and roofline says what it lacks beside it.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import Browser, Page

from tests.browser.calculator_page import BOOT_TIMEOUT, expected, open_page, wait_for_texts, wait_mounted
from tests.browser.conftest import guarded_page
from tests.build.test_author_code import build_with_package
from tests.build.test_author_code_limits import roofline_with
from tests.support import serve

pytestmark = pytest.mark.browser

KERNEL = "import attrs\n\n\n@attrs.frozen\nclass _Kernel:\n    intensity: float\n\n\n"
ROOFLINE_WITH_ATTRS = roofline_with('    _Kernel(intensity=number(inputs, "intensity"))').replace(
    "\n__all__", f"\n{KERNEL}__all__", 1
)
PAGE = "# Two calculators\n\n```calculator\nuse: roofline\n```\n\n```calculator\nuse: matmul\n```\n"


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """Built as `mkdocs serve` builds (not strict, no snapshot made), served on 127.0.0.1."""
    root = tmp_path_factory.mktemp("missing-import")
    build = build_with_package(
        root, {"roofline.py": ROOFLINE_WITH_ATTRS}, PAGE, timeout=300, strict=False, plugin={"snapshot": False}
    )
    assert build.returncode == 0, build.output
    assert "calculators/roofline.py:" in build.output and "No module named 'attrs'" in build.output, build.output
    with serve(build.site) as url:
        yield url


@pytest.fixture
def page(browser: Browser, site: str) -> Iterator[Any]:
    with guarded_page(browser, site) as page:
        yield page


def test_the_other_calculator_computes_and_the_one_that_lacks_a_module_says_so(page: Page, site: str) -> None:
    open_page(page, site + "/")
    page.locator("#calc-1-intensity").fill("20")
    page.wait_for_function(
        "() => document.querySelector('#calc-1 .calc-stale-note')?.textContent.startsWith("
        "\"These inputs could not be computed (ModuleNotFoundError: No module named 'attrs')\")",
        timeout=BOOT_TIMEOUT,
    )
    assert page.locator("#calc-1 .calc-stale-note").is_visible()
    # The page's other calculator, whose module needs no attrs, computes in the same worker.
    wait_mounted(page, "#calc-2")
    page.locator("#calc-2-batch").fill("512")
    wait_for_texts(page, expected("matmul", batch=512), "#calc-2")
    page.locator("#calc-2 .calc-stale-note").wait_for(state="hidden")
