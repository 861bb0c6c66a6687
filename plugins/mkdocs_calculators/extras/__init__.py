"""What the build adds beside the pages: math typeset with KaTeX (formulas.py), charts checked against Vega-Lite's
schema (chart_check.py), and the checks of what a page weighs and links (budgets.py, page_checks.py)."""
