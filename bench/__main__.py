"""Run every figure once (or those named: `python -m bench --only t2,t3`), print the raw numbers and the table, and
write `.bench/results.json`."""

from __future__ import annotations

import argparse
import sys

from bench.browser import ALL
from bench.run import main
from calckit import book


def _figures(text: str) -> frozenset[str]:
    named = frozenset(name.strip().upper() for name in text.split(",") if name.strip())
    if not named or named - ALL:
        raise argparse.ArgumentTypeError(f"expected figures among {', '.join(sorted(ALL))}, not {text!r}")
    return named


parser = argparse.ArgumentParser(prog="python -m bench", description="The figures of the design brief, measured.")
parser.add_argument("--only", type=_figures, default=ALL, help="figures to measure, e.g. t2,t3 (default: all)")
arguments = parser.parse_args()
book.use("calculators")  # the book measured: its expected results come from its own package
sys.exit(main(arguments.only))
