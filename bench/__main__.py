"""Run every figure once, print the raw numbers and the table, and write `.bench/results.json`."""

from __future__ import annotations

import sys

from bench.run import main
from calckit import book

book.use("calculators")  # the book measured: its expected results come from its own package
sys.exit(main())
