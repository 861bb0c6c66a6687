"""Where the book's code runs at build: in a process of its own that is ended past the time limit (compute_process.py,
compute_child.py), after its package is loaded and checked against the contract (books.py)."""
