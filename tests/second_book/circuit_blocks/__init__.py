"""The second book's own block kinds, registered with the plugin in pyproject.toml (mkdocs_calculators.kinds).

They live beside the book's package of calculators, not in it: a kind imports the plugin, which runs at build only,
while the package `circuits` is shipped to the reader's browser, which has calckit and the standard library alone.
"""
