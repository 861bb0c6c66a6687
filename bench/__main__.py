"""Run every figure once, print the raw numbers and the table, and write `.bench/results.json`."""

from __future__ import annotations

import sys

from bench.run import main

sys.exit(main())
