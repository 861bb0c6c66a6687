"""T7: Lighthouse 12 (the pinned npm package) on the home page and a calculator page, desktop and mobile.

Lighthouse starts its own Chromium (Debian's, through CHROME_PATH) against the book served on 127.0.0.1. The
brief's targets are for desktop; mobile is reported beside them. The local server does not compress, so transfer
sizes, and with them the mobile figures, are worse than on a host that serves gzip.
"""

from __future__ import annotations

import json
import os
import subprocess
from typing import Any

from bench.figures import BenchError, Figure
from tests.browser.conftest import CHROMIUM
from tests.support import NODE_MODULES

__all__ = ["lighthouse"]

PAGES = {"home": "/", "calculator": "/lessons/roofline/"}
CATEGORIES = ("performance", "accessibility", "best-practices")
TARGETS = {"performance": 95, "accessibility": 100, "best-practices": 95}  # desktop, from the design brief
FLAGS = "--headless=new --no-sandbox --disable-gpu --disable-background-networking --disable-component-update"


def _scores(url: str, preset: str) -> dict[str, Any]:
    command = [
        str(NODE_MODULES / ".bin" / "lighthouse"),
        url,
        "--output=json",
        "--quiet",
        f"--only-categories={','.join(CATEGORIES)}",
        f"--chrome-flags={FLAGS}",
        *(["--preset=desktop"] if preset == "desktop" else []),
    ]
    done = subprocess.run(
        command, capture_output=True, text=True, timeout=300, check=False, env={**os.environ, "CHROME_PATH": CHROMIUM}
    )
    if done.returncode != 0:
        raise BenchError(f"lighthouse {preset} {url} failed: {done.stderr.strip()[-300:]}")
    report = json.loads(done.stdout)
    flagged = [
        f"{audit}: {report['audits'][audit].get('displayValue') or report['audits'][audit]['score']}"
        for category in report["categories"].values()
        for audit in (ref["id"] for ref in category["auditRefs"] if ref.get("weight"))
        if (report["audits"][audit].get("score") is not None and report["audits"][audit]["score"] < 0.9)
    ]
    return {
        "scores": {name: round(category["score"] * 100) for name, category in report["categories"].items()},
        "flagged": flagged,
    }


def lighthouse(base_url: str, raw: dict[str, Any]) -> list[Figure]:
    results = {
        f"{page} {preset}": _scores(base_url + path, preset)
        for page, path in PAGES.items()
        for preset in ("desktop", "mobile")
    }
    raw["T7"] = results
    for name, result in results.items():
        print(f"T7 {name}: {result['scores']}; below 0.9: {', '.join(result['flagged']) or 'nothing'}", flush=True)
    return [
        Figure(
            "T7",
            f"Lighthouse {name}, {category}",
            TARGETS[category] if name.endswith("desktop") else None,
            result["scores"][category],
            detail="; ".join(result["flagged"]) if category == "performance" else "",
            at_least=True,
        )
        for name, result in results.items()
        for category in CATEGORIES
    ]
