"""The good fixture site, built strictly once and read by several modules."""

from __future__ import annotations

import pytest

from tests.build.good_site import GOOD_SITE
from tests.build.sites import Build, build_fixture


@pytest.fixture(scope="session")
def good_site(tmp_path_factory: pytest.TempPathFactory) -> Build:
    """The good fixture site, built strictly, with its memory snapshot (test_runtime_build reads it); the tests that
    read it check that the build passed."""
    return build_fixture(tmp_path_factory.mktemp("good"), GOOD_SITE, plugin={"snapshot": True})
