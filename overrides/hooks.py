"""Small additions to Material that its options do not cover (run as MkDocs hooks).

- The date each page last changed, from git where the site is built from a clone (Material shows
  `page.meta.revision_date` at the foot of the page). One `git log` for the whole docs folder, not one per page.
- An accessible name for Material's search dialog.
"""

from __future__ import annotations

import datetime
import subprocess
from pathlib import Path
from typing import Any

_SEARCH_DIALOG = '<div class="md-search" data-md-component="search" role="dialog">'
_changed: dict[str, datetime.date] = {}  # docs-relative path -> date of the last commit that touched it


def _last_changes(docs_dir: Path) -> dict[str, datetime.date]:
    """Each file's last commit date under `docs_dir`; empty outside a git clone or without git."""
    try:
        log = subprocess.run(
            ["git", "log", "--format=%x00%cs", "--name-only", "--relative", "--", "."],
            cwd=docs_dir,
            capture_output=True,
            text=True,
            timeout=30,
            check=True,
        ).stdout
    except (OSError, subprocess.SubprocessError):
        return {}
    changes: dict[str, datetime.date] = {}
    for commit in log.split("\0")[1:]:
        day, *names = commit.strip().split("\n")
        for name in names:
            if name:
                changes.setdefault(name, datetime.date.fromisoformat(day))  # newest commit first
    return changes


def on_config(config: Any) -> None:
    _changed.clear()
    _changed.update(_last_changes(Path(config["docs_dir"])))


def on_page_markdown(markdown: str, *, page: Any, config: Any, files: Any) -> str:
    day = _changed.get(page.file.src_uri)
    if day is not None:
        page.meta["revision_date"] = f"{day.day} {day:%B %Y}"
    return markdown


def on_post_page(output: str, *, page: Any, config: Any) -> str:
    # A dialog needs an accessible name (axe: aria-dialog-name); Material's search dialog has none.
    return output.replace(_SEARCH_DIALOG, _SEARCH_DIALOG[:-1] + ' aria-label="Search">', 1)
