"""How a page's blocks are found and rendered: the fences (fences.py, slips.py), the YAML an author writes
(yaml_source.py, yaml_errors.py) and the Markdown in it (authored_text.py), anchors (ids.py), and the HTML of
calculators, tables and the generated reference pages (render.py, stand_in.py, tables.py, reference.py)."""
