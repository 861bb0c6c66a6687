"""What the plugin does with `enabled: false`: nothing to the pages (a block is shown as the code it is written in),
but the pages it generates are still there, each saying the plugin is off, so that a book's `nav` that lists them
(`reference/calculators.md`, `progress.md`) builds strictly either way, as MkDocs' own plugins do when disabled."""

from __future__ import annotations

from mkdocs.config.defaults import MkDocsConfig
from mkdocs.structure.files import File, Files, InclusionLevel

from ..config import NAME
from ..i18n import Strings
from ..pages.progress_page import PROGRESS_PAGE
from ..pages.reference import CALCULATORS_PAGE

__all__ = ["PLACEHOLDERS", "add_placeholders"]

# The generated pages whose paths do not depend on the book's package (which a disabled plugin does not import), and
# their titles' keys in the catalogue. A data table's page is named after the table, in the package: list it in nav
# only while enabled.
PLACEHOLDERS = {CALCULATORS_PAGE: "reference.title", PROGRESS_PAGE: "progress.title"}


def placeholder(title: str, strings: Strings) -> str:
    """The page's Markdown, in the book's language (its title and sentence from the catalogue)."""
    sentence = strings("disabled.page", plugin=NAME)
    return f"# {title}\n\n{sentence}\n"


def add_placeholders(files: Files, config: MkDocsConfig, strings: Strings) -> Files:
    """`files` with a placeholder for each generated page the author has no page of their own at."""
    for path, key in PLACEHOLDERS.items():
        if files.get_file_from_path(path) is None:
            inclusion = InclusionLevel.NOT_IN_NAV if path == PROGRESS_PAGE else InclusionLevel.UNDEFINED
            content = placeholder(strings(key), strings)
            files.append(File.generated(config, path, content=content, inclusion=inclusion))
    return files
