"""What the build adds beside the pages: math typeset with KaTeX (formulas.py), charts checked against Vega-Lite's
schema (chart_check.py), the checks of what a page weighs and links (budgets.py, page_checks.py), and the reuse of
what an earlier build worked out (build_cache.py)."""
