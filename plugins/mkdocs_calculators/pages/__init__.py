"""How a page is rendered: its blocks (page.py, the one function every host calls), the fences (fences.py, slips.py),
the YAML an author writes (yaml_source.py, yaml_errors.py) and the Markdown in it (authored_text.py), anchors
(ids.py), the numbers its prose computes (values.py), the HTML of calculators and tables (render.py, stand_in.py,
tables.py), and the pages the plugin generates: the reference pages (reference.py) and the reader's progress
(progress_page.py)."""
