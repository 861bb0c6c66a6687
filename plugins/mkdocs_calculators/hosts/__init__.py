"""The hosts that drive a build: the MkDocs plugin (plugin.py), the Python-Markdown extension that Zensical runs
(markdown.py), and the `mkdocs-calculators` command (cli.py) with its `ship` step for pages another host built
(ship.py); disabled.py is what the plugin writes when it is turned off."""
