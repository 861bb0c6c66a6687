"""What the plugin does with `enabled: false`: nothing to the pages (a block is shown as the code it is written in),
but the pages it generates are still there, each saying the plugin is off, so that a book's `nav` that lists them
(`reference/calculators.md`, `progress.md`) builds strictly either way, as MkDocs' own plugins do when disabled."""

from __future__ import annotations

from mkdocs.config.defaults import MkDocsConfig
from mkdocs.structure.files import File, Files, InclusionLevel

from ..config import NAME
from ..pages.progress_page import PROGRESS_PAGE
from ..pages.reference import CALCULATORS_PAGE

__all__ = ["PLACEHOLDERS", "add_placeholders"]

# The generated pages whose paths do not depend on the book's package (which a disabled plugin does not import), and
# their titles. A data table's page is named after the table, in the package: list it in nav only while enabled.
PLACEHOLDERS = {CALCULATORS_PAGE: "Calculators", PROGRESS_PAGE: "Your progress"}


def placeholder(title: str) -> str:
    return (
        f"# {title}\n\nThe `{NAME}` plugin writes this page when it builds the book. This build has it turned off "
        f"(`enabled: false` under `{NAME}:` in `mkdocs.yml`), so its blocks show as the code they are written in.\n"
    )


def add_placeholders(files: Files, config: MkDocsConfig) -> Files:
    """`files` with a placeholder for each generated page the author has no page of their own at."""
    for path, title in PLACEHOLDERS.items():
        if files.get_file_from_path(path) is None:
            inclusion = InclusionLevel.NOT_IN_NAV if path == PROGRESS_PAGE else InclusionLevel.UNDEFINED
            files.append(File.generated(config, path, content=placeholder(title), inclusion=inclusion))
    return files
