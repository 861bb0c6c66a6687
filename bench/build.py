"""T6: what the calculators plugin adds to `mkdocs build --strict`, on the book and on 200 generated pages."""

from __future__ import annotations

import shutil
import tempfile
import time
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from bench.figures import BenchError, Figure, guarded, median
from mkdocs_calculators.extras.build_cache import CACHE_DIR
from tests.support import NODE_MODULES, ROOT, build_site

__all__ = ["BuildTimes", "measure_builds", "problems", "time_builds", "write_generated_site"]

RUNS = 5
COLD_RUNS = 3
GENERATED_PAGES = 200
CALCULATOR_EVERY = 4  # every 4th generated page embeds a roofline calculator

# Like the book's mkdocs.yml (theme, features, hooks, extensions), with no nav and the pinned runtime found by an
# absolute path, since the generated site lives in a temporary folder.
GENERATED_CONFIG = """\
site_name: Generated book
site_url: http://127.0.0.1:8000/
strict: true
theme:
  name: material
  custom_dir: {root}/overrides
  font: false
  language: en
  features: [navigation.instant, navigation.footer, navigation.sections, search.highlight, toc.follow]
  palette:
    - media: "(prefers-color-scheme: light)"
      scheme: default
      toggle: {{icon: material/weather-night, name: Switch to dark mode}}
    - media: "(prefers-color-scheme: dark)"
      scheme: slate
      toggle: {{icon: material/weather-sunny, name: Switch to light mode}}
hooks:
  - {root}/overrides/hooks.py
extra_css:
  - assets/stylesheets/theme-fixes.css
plugins:
  - search
  - calculators:
      enabled: !ENV [CALCULATORS_ENABLED, true]
      node_modules: {node_modules}
markdown_extensions:
  - admonition
  - attr_list
  - footnotes
  - md_in_html
  - tables
  - toc:
      permalink: true
  - pymdownx.details
  - pymdownx.superfences
"""

PARAGRAPHS = (
    "A chip has two speeds that matter for a kernel: how many floating-point operations it can do per second, and "
    "how many bytes per second it can move between memory and its arithmetic units. Which one limits the kernel "
    "depends on its arithmetic intensity, the FLOPs it performs for every byte it moves.",
    "At low intensity the kernel waits for data and runs at the memory bandwidth times its intensity; at high "
    "intensity data arrives faster than it can be used and the kernel runs at the chip's peak. The two roofs meet at "
    "the ridge point, peak compute divided by bandwidth.",
    "Generating one token at a time with a batch of one reads every weight once and does about two FLOPs with it. "
    "At 16-bit precision that is about one FLOP per byte, far to the left of any modern ridge, which is why decoding "
    "is limited by memory bandwidth and why batching helps.",
    "Tiling keeps a block of the inputs in on-chip memory while it is reused, which raises the intensity seen by the "
    "off-chip memory. The larger the tile, the fewer times each byte crosses the pins, up to what the local memory "
    "can hold.",
)


def page_markdown(number: int) -> str:
    """A generated page: a title, a few paragraphs, a section, and on every 4th page a roofline calculator."""
    paragraphs = [PARAGRAPHS[(number + k) % len(PARAGRAPHS)] for k in range(4)]
    parts = [f"# Generated page {number}", paragraphs[0], paragraphs[1]]
    if number % CALCULATOR_EVERY == 0:
        inputs = f"peak_tflops: {100 + number}\nbandwidth_tbs: {1 + number / 100:g}\nintensity: {number + 1}"
        parts.append(f"```calculator\nuse: roofline\n{inputs}\n```")
    parts += ["## Further notes", paragraphs[2], paragraphs[3]]
    return "\n\n".join(parts) + "\n"


def write_generated_site(folder: Path, pages: int = GENERATED_PAGES) -> Path:
    """Write mkdocs.yml and `pages` pages (index.md and page-001.md ...) under `folder`; return the config's path."""
    docs = folder / "docs"
    docs.mkdir(parents=True)
    for number in range(pages):
        name = "index.md" if number == 0 else f"page-{number:03d}.md"
        (docs / name).write_text(page_markdown(number), encoding="utf-8")
    config = folder / "mkdocs.yml"
    config.write_text(GENERATED_CONFIG.format(root=ROOT, node_modules=NODE_MODULES), encoding="utf-8")
    return config


def time_build(config: Path, *, plugin: bool) -> float:
    """Seconds of one strict build of `config` into an empty temporary folder, with or without the plugin."""
    with tempfile.TemporaryDirectory(prefix="bench-site-") as site:
        started = time.perf_counter()
        result = build_site(
            config,
            Path(site),
            CALCULATORS_ENABLED="true" if plugin else "false",
            MISSING_PAGES="warn" if plugin else "info",  # the plugin's generated pages are absent without it
            # Python keeps the modules it compiles, as on a contributor's machine: where PYTHONDONTWRITEBYTECODE is
            # set (it is on some CI and sandbox machines), every timed build compiled the plugin and the book from
            # source (0.06x of T6), which the plain build, whose packages pip compiled at install, never does.
            PYTHONDONTWRITEBYTECODE="",
        )
        seconds = time.perf_counter() - started
    if result.returncode != 0:
        raise BenchError(
            f"the strict build of {config} with the plugin {'enabled' if plugin else 'disabled'} fails: "
            + problems(result.stderr)
        )
    return seconds


def problems(stderr: str, last: int = 4) -> str:
    """The last warnings and errors of a failed build's log, on one line."""
    lines = [line.strip() for line in stderr.splitlines() if line.strip() and not line.startswith("INFO")]
    return " | ".join(lines[-last:])


@dataclass(frozen=True)
class BuildTimes:
    plugin: list[float]
    plain: list[float]

    @property
    def ratio(self) -> float:
        return median(self.plugin) / median(self.plain)


def time_builds(config: Path, runs: int = RUNS) -> BuildTimes:
    """One untimed build of each kind (warm file cache and bytecode, and the plugin's cache of rendered pages, as
    for a contributor who builds again), then `runs` of each, interleaved ABBA."""
    time_build(config, plugin=True)
    time_build(config, plugin=False)
    times = BuildTimes(plugin=[], plain=[])
    for run in range(runs):
        for plugin in (True, False) if run % 2 == 0 else (False, True):
            (times.plugin if plugin else times.plain).append(time_build(config, plugin=plugin))
    return times


def time_cold_builds(config: Path, runs: int = COLD_RUNS) -> list[float]:
    """Seconds of `runs` builds with the plugin, each without what an earlier build kept (the plugin's cache)."""
    cold = []
    for _ in range(runs):
        shutil.rmtree(config.parent / CACHE_DIR, ignore_errors=True)
        cold.append(time_build(config, plugin=True))
    return cold


def _compare(name: str, what: str, target: float, config: Path, raw: dict[str, Any]) -> list[Figure]:
    times = time_builds(config)
    cold = time_cold_builds(config)  # last: the builds timed above find the cache as a contributor's rebuild does
    raw[name] = {**asdict(times), "plugin_without_cache": cold}
    print(
        f"T6 {name}, seconds: plugin {_seconds(times.plugin)}; plain {_seconds(times.plain)}; "
        f"plugin without its cache {_seconds(cold)}",
        flush=True,
    )
    detail = (
        f"plugin {median(times.plugin):.2f} s, plain {median(times.plain):.2f} s (medians of {len(times.plugin)}; "
        f"fastest {min(times.plugin):.2f} s and {min(times.plain):.2f} s); a first build, without the plugin's "
        f"cache: {median(cold):.2f} s, {median(cold) / median(times.plain):.2f}x"
    )
    return [Figure("T6", what, target, times.ratio, "x", detail)]


def measure_builds() -> tuple[list[Figure], dict[str, Any]]:
    """T6 for the book and for the generated site; raw: the seconds of every timed build."""
    raw: dict[str, Any] = {}
    book = "build time, book: plugin / plain"
    figures = guarded("T6", book, lambda: _compare("book", book, 1.3, ROOT / "mkdocs.yml", raw))
    generated = f"build time, {GENERATED_PAGES} generated pages: plugin / plain"
    with tempfile.TemporaryDirectory(prefix="bench-generated-") as folder:
        config = write_generated_site(Path(folder))
        figures += guarded("T6", generated, lambda: _compare(f"{GENERATED_PAGES} pages", generated, 2.0, config, raw))
    return figures, raw


def _seconds(samples: list[float]) -> str:
    return ", ".join(f"{sample:.2f}" for sample in samples)
