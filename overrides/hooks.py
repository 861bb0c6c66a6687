"""Small fixes to Material's own markup that its templates offer no option for (run as an MkDocs hook)."""

from __future__ import annotations

from typing import Any

_SEARCH_DIALOG = '<div class="md-search" data-md-component="search" role="dialog">'


def on_post_page(output: str, *, page: Any, config: Any) -> str:
    # A dialog needs an accessible name (axe: aria-dialog-name); Material's search dialog has none.
    return output.replace(_SEARCH_DIALOG, _SEARCH_DIALOG[:-1] + ' aria-label="Search">', 1)
