"""The build cache is keyed on the code that ran (extras/build_cache.py), not on the files on disk: `mkdocs serve` that
keeps rendering with the plugin it loaded at start, while the plugin's files on disk change, leaves nothing that the
next strict build (which runs the new code) reuses; and a `hooks:` file that changes how a kind renders is part of
the key, as loaded."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
import time
from pathlib import Path

from tests.build.sites import build_fixture
from tests.build.test_contributing_guide import _block_kind_guide
from tests.build.test_own_book_guide import guide_files
from tests.support import NODE_MODULES, build_env, free_port, mkdocs_serve

WAIT = 30  # seconds for a build of a one-page book on a busy machine
# The guide's term kind, with a misspelt key: the new plugin reports it; the plugin loaded before the kind was added
# sees a plain code block.
BROKEN_TERM = "```term\nword: roofline\nmeanign: a model of attainable throughput\n```\n"
TERM_MISTAKES = [
    "docs/index.md:{fence}: term block needs 'meaning': what it means",
    "docs/index.md:{key}: term block: unknown key 'meanign' (did you mean 'meaning'? expected one of: word, meaning)",
]


def _copy_of_the_plugin(root: Path) -> Path:
    """This plugin, copied into `root`, where the builds run (so the copy is the plugin they import)."""
    import mkdocs_calculators

    plugin = root / "mkdocs_calculators"
    shutil.copytree(Path(mkdocs_calculators.__file__).parent, plugin, ignore=shutil.ignore_patterns("__pycache__"))
    return plugin


def _add_the_guides_term_kind(plugin: Path) -> None:
    module, registry_line, _ = _block_kind_guide()
    (plugin / "blocks/term.py").write_text(module, encoding="utf-8")
    registry_file = plugin / "blocks/__init__.py"
    registry, added = re.subn(r"(REGISTRY = \([^)]*)\)", rf"\1{registry_line})", registry_file.read_text(), count=1)
    assert added == 1
    registry_file.write_text(registry, encoding="utf-8")


def _strict_build(root: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--site-dir", str(root / "site")],
        cwd=root,
        env=build_env(),
        capture_output=True,
        text=True,
        timeout=180,
        check=False,
    )


def test_a_kind_added_while_serving_is_not_hidden_from_the_next_strict_build(tmp_path: Path) -> None:
    """The guide's book, served with a copy of the plugin; while it serves, the contributing guide's term kind is
    added to that copy and a page is saved: serve renders it with the plugin it loaded (the term block is plain
    code to it). The strict build that follows runs the new plugin, and stops on the term block's mistakes."""
    for path, text in guide_files().items():
        (tmp_path / path).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / path).write_text(text, encoding="utf-8")
    (tmp_path / "node_modules").symlink_to(NODE_MODULES)
    plugin = _copy_of_the_plugin(tmp_path)
    index = tmp_path / "docs/index.md"
    page = index.read_text(encoding="utf-8") + "\n" + BROKEN_TERM
    fence = page.splitlines().index("```term") + 1
    mistakes = [line.format(fence=fence, key=fence + 2) for line in TERM_MISTAKES]
    index.write_text(page, encoding="utf-8")

    port = free_port()
    serve, log = mkdocs_serve(tmp_path, port, build_env())

    def seen(words: str) -> bool:
        return any(words in line for line in log) or serve.poll() is not None

    try:
        # "Serving on" comes once the watcher is set up: a file saved before it may go unseen (CI, busy, once saw
        # no rebuild at all after an edit made on "Documentation built").
        deadline = time.monotonic() + WAIT
        while not seen("Serving on") and time.monotonic() < deadline:
            time.sleep(0.2)
        assert seen("Serving on") and serve.poll() is None, "".join(log)
        _add_the_guides_term_kind(plugin)
        # Saved again, unchanged: serve rebuilds. MkDocs logs "Reloading browsers" once a rebuild has finished (a
        # rebuild's own "Documentation built" line was once missing from the log in CI, though the rebuild had
        # finished). Saved again every few seconds until then, so that a save the watcher missed is not the end.
        deadline = time.monotonic() + WAIT
        while not seen("Reloading browsers") and time.monotonic() < deadline:
            index.write_text(page, encoding="utf-8")
            again = min(deadline, time.monotonic() + 5)
            while not seen("Reloading browsers") and time.monotonic() < again:
                time.sleep(0.2)
        assert seen("Reloading browsers") and serve.poll() is None, "".join(log)
        assert not [line for line in log if "term block" in line]  # serve runs the plugin it started with
    finally:
        serve.terminate()
        serve.wait(timeout=WAIT)

    build = _strict_build(tmp_path)
    assert build.returncode == 1, build.stderr
    assert [line for line in mistakes if line in build.stderr] == mistakes, build.stderr


HOOK = """from mkdocs_calculators.blocks.calculator import KIND

_render = type(KIND).render


def render(self, model, block):
    return _render(self, model, block) + '<p class="hooked">{mark}</p>'


type(KIND).render = render
"""
PAGE = "# Hooked\n\n```calculator\nuse: roofline\nintensity: 7\n```\n"


def test_a_hook_that_changes_a_kinds_render_is_part_of_the_key(tmp_path: Path) -> None:
    """A build with a hook that marks every calculator, then the hook edited: the next strict build renders with the
    edited hook, not from the cache the first one left."""
    hook = tmp_path / "hooks.py"
    hook.write_text(HOOK.format(mark="first"), encoding="utf-8")
    first = build_fixture(tmp_path, {"docs/index.md": PAGE}, hooks=["hooks.py"])
    assert first.returncode == 0, first.output
    assert '<p class="hooked">first</p>' in first.html()
    hook.write_text(HOOK.format(mark="second"), encoding="utf-8")
    second = build_fixture(tmp_path, {"docs/index.md": PAGE}, hooks=["hooks.py"])
    assert second.returncode == 0, second.output
    assert '<p class="hooked">second</p>' in second.html()
    assert '<p class="hooked">first</p>' not in second.html()
