"""What a reader's browser is given, and how it gets there: the runtime's files in the site (site.py), the wheels
(wheel.py, dependencies.py) and the check of what the package imports (imports.py), the memory snapshots
(snapshot.py), the service worker (service_worker.py), the one stylesheet (stylesheets.py), the site's layout and the
build's values for the scripts (layout.py), and the scripts' types generated from Python's (twins.py)."""
