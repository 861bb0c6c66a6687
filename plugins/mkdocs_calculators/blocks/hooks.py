"""What a kind declares beyond reading and rendering its blocks: its browser half, and what it adds to the reader's
progress. Both are optional; the build generates from them what used to be written by hand for each kind (entry.js's
mount table, runtime/site.py; the progress page's list, pages/progress_page.py)."""

from __future__ import annotations

import inspect
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..pages.progress_page import BlockItem

__all__ = ["BlockItem", "Browser", "Progress", "kind_folder"]


@dataclass(frozen=True)
class Browser:
    """A kind's script in the reader's browser: entry.js loads `module` only on a page with an element that matches
    `selector`, and calls its export `mount` with those elements (and the page's generation). The module and every
    other `.js` and `.css` file in the kind's folder are written flat into the site's assets/calculators/, beside the
    shared ones (runtime.js, status.js, progress.js, ...), so a module imports them as `./runtime.js`."""

    module: str  # "quiz.js"
    selector: str  # "[data-quiz]"
    mount: str  # "mountQuizzes"
    near_viewport: bool = False  # mount each block as it nears the screen (or is touched, or linked), not at once
    page_styles: tuple[str, ...] = ()  # its stylesheets that every page needs: they go into calculators.css
    keeps_offline: bool = False  # a page with such a block keeps Python's runtime for offline use (offline.js)

    def mount_entry(self) -> dict[str, Any]:
        """Its row of entry.js's mount table."""
        return {
            "selector": self.selector,
            "module": self.module,
            "mount": self.mount,
            "near": self.near_viewport,
            "offline": self.keeps_offline,
        }


@dataclass(frozen=True)
class Progress:
    """What a kind adds to the reader's progress (the "Your progress" page and the line under a page's title): each
    of its blocks is one item, which `item` makes from the block's model as the block renders (the build cache keeps
    it with the block's HTML). A page that another host built (Zensical, then `mkdocs-calculators ship`) is read back
    from its HTML: the block's tag carries `data-NAME-key` and `data-NAME-version` (NAME the kind's name) and
    `aria-labelledby`, naming its title's element."""

    label: str  # "Quiz": before each block's title in the progress page's rows
    item: Callable[[Any, Any], BlockItem]  # (model, Authored block) -> the block's item
    total_from_tag: Callable[[Mapping[str, str]], int] = lambda tag: 1  # its size, from its tag's attributes
    title_prefix: str = ""  # what its title's element says before the title ("Exercise: ")
    # The plugin's kinds: the catalogue's keys (i18n/) for `label` and for the text of the title's element ("Exercise:
    # {title}"), which the book's language words, and for the kind's name in a sentence ("exercise", the line under a
    # page's title); a book's kind has none, and is named by `label` and its name.
    label_key: str = ""
    title_key: str = ""
    name_key: str = ""


def kind_folder(kind: object) -> Path:
    """The folder of a kind: where the module that defines its class is (blocks/quiz/ for blocks/quiz/__init__.py),
    which holds its browser files."""
    return Path(inspect.getfile(type(kind))).parent
