"""T7 alone, on the pages named: `make bench-t7 PAGES="/lessons/roofline/ /chapters/27-asics-and-accelerators/"`.

The same measurement as a full `make bench` (Lighthouse desktop, and mobile beside the plugin-free twin, best of
five runs in turns), for the pages an author changed: about a minute a page (a whole `make bench`, with its 16 pages,
took 19 min 41 s on two cores).
Lighthouse's mobile score moves by several points with the machine's load: run it on a quiet machine.
"""

from __future__ import annotations

import os
import sys

from bench.figures import BenchError, table
from bench.lab import served_book
from bench.lighthouse import book_pages, lighthouse


def main(pages: list[str]) -> int:
    """Measure, print the figures; exit status 2 for a page the book does not have, 1 when a measurement broke."""
    load = os.getloadavg()[0]
    with (
        served_book() as (book_url, site),
        served_book(CALCULATORS_ENABLED="false", MISSING_PAGES="info") as (
            plain_url,
            plain_site,
        ),
    ):
        known = book_pages(site)
        unknown = [page for page in pages if page not in known]
        if unknown or not pages:
            named = f"not pages of the book: {' '.join(unknown)}" if unknown else "no page named"
            print(f"bench-t7: {named}; PAGES takes paths from the site's root, of: {' '.join(known)}")
            return 2
        try:
            figures = lighthouse(book_url, plain_url, pages, set(book_pages(plain_site)), {})
        except BenchError as error:
            print(f"bench-t7: {error}")
            return 1
    print(f"\nT7 on {len(pages)} pages; load average over 1 min {load:.2f} before, {os.getloadavg()[0]:.2f} after:\n")
    print(table(figures))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
