"""When the runtime cannot load (R5): the results stay, a message says why, the rest of the page works.

Each case breaks one file with context-level routing (which also covers the service worker's own requests): the wasm
missing, blocked or not WebAssembly, or the worker script missing, fail the calculators with a message; a missing,
corrupt or foreign memory snapshot is only a slower start, since the worker then boots Python plainly; so is one of
the exercise worker's snapshot, whose interpreter then boots plainly and still runs the reader's code.
"""

from __future__ import annotations

import gzip
import json
import re
import subprocess
import weakref
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, BrowserContext, Page, Route, expect

from calckit.api import run
from tests.browser.calculator_page import expected, follow_instantly, texts, wait_mounted
from tests.browser.conftest import Network, new_context
from tests.browser.test_exercise import (
    JS_PROBE,
    JS_PROBED,
    ROOFLINE,
    exercise_boots,
    open_exercises,
    press,
    result_text,
    type_code,
)
from tests.browser.test_exercise import PAGE as EXERCISE_PAGE
from tests.browser.test_quiz import CHECK, answer_key, first_index, open_quiz, question, verdict

pytestmark = pytest.mark.browser

PAGE = "/lessons/roofline/"
QUIZ_PAGE = "/lessons/roofline-quiz/"
TIMEOUT = 90_000  # a plain boot after a failed restore, on a busy 2-core machine
WASM = "**/assets/calculators/pyodide/pyodide.asm.wasm"
WORKER = "**/assets/calculators/worker.js"
SNAPSHOT = "**/assets/calculators/snapshot-*.bin"
EXERCISE_SNAPSHOT = "**/assets/calculators/exercise-snapshot-*.bin"


def not_found(route: Route) -> None:
    route.fulfill(status=404, content_type="text/plain", body="not found")


def serving(body: bytes, content_type: str = "application/octet-stream") -> Callable[[Any], None]:
    """A handler that answers 200 with `body`."""

    def answer(route: Route) -> None:
        route.fulfill(status=200, content_type=content_type, body=body)

    return answer


GARBAGE = b"\x00garbage\xff" * 1000

# Whether the first calculator marks its results stale: its class and its note, read together.
STALE_MARKS = """() => {
    const root = document.querySelector('#calc-1');
    return {stale: root.classList.contains('calc-stale'), note: !root.querySelector('.calc-stale-note').hidden};
}"""


# The errors each page of `broken` raised, by page (a Page has no room of its own for them).
ERRORS: weakref.WeakKeyDictionary[Page, list[str]] = weakref.WeakKeyDictionary()
Handler = Callable[[Route], None]
Opener = Callable[..., Page]  # (URL pattern, its handler, and any more (pattern, handler) pairs) -> a page


@pytest.fixture
def broken(browser: Browser, network: Network) -> Iterator[Opener]:
    """A fresh page whose context answers a URL pattern with `handler` (and each further pattern with its own);
    every other request goes on as usual."""
    contexts: list[BrowserContext] = []

    def open_with(pattern: str, handler: Handler, *more: tuple[str, Handler]) -> Page:
        context = new_context(browser, network)
        for each, answer in ((pattern, handler), *more):
            context.route(each, answer)  # registered last, so tried first
        contexts.append(context)
        page = context.new_page()
        errors = ERRORS.setdefault(page, [])
        page.on("pageerror", lambda error: errors.append(str(error)))
        return page

    yield open_with
    for context in contexts:
        context.close()
    assert network.foreign == [], f"requests left 127.0.0.1: {network.foreign}"


def open_calculators(page: Page, url: str) -> dict[str, str]:
    """Open the calculator page; return what the first calculator shows before any script computes."""
    page.goto(url)
    wait_mounted(page, "#calc-1")
    return texts(page, "#calc-1")


def runtime_url(page: Page) -> str:
    url: str = page.evaluate(
        "document.querySelector('script[src*=\"assets/calculators/entry.js\"]').src.replace('entry.js', 'runtime.js')"
    )
    return url


def boot(page: Page, field: str = "#calc-1-intensity") -> dict[str, Any]:
    """Start the runtime as a first interaction with `field` would, and wait for it: {mode, ms} when ready."""
    page.focus(field)
    page.evaluate("async (url) => { await (await import(url)).bootRuntime(); }", runtime_url(page))
    worker = next(worker for worker in page.workers if worker.url.endswith("/assets/calculators/worker.js"))
    started: dict[str, Any] = worker.evaluate("self.calculatorsBoot")
    return started


def assert_unavailable(page: Page, before: dict[str, str], reason: str) -> None:
    """The first interaction fails: the message names the reason, the pre-rendered results stay, the page works."""
    page.fill("#calc-1-intensity", "1000")
    page.wait_for_selector("#calc-1.calc-unavailable", state="attached", timeout=TIMEOUT)
    status = page.locator("#calc-1 .calc-status")
    expect(status).to_have_text(re.compile(r"^The interactive part could not start"))
    expect(status).to_contain_text(reason)
    expect(status).to_contain_text("the rest of the page works as usual")
    assert texts(page, "#calc-1") == before == expected("roofline")
    assert ERRORS[page] == []
    # The rest of the page: instant navigation away and back, the other calculator's results still there.
    follow_instantly(page, "a.md-header__button.md-logo", "**/")
    follow_instantly(page, "article a[href$='roofline/']", f"**{PAGE}")
    wait_mounted(page, "#calc-1")
    assert texts(page, "#calc-1") == before


class TestRuntimeUnavailable:
    def test_missing_wasm(self, broken: Opener, base_url: str) -> None:
        page = broken(WASM, not_found)
        assert_unavailable(page, open_calculators(page, base_url + PAGE), "pyodide.asm.wasm could not be loaded")

    def test_blocked_wasm(self, broken: Opener, base_url: str) -> None:
        page = broken(WASM, lambda route: route.abort("blockedbyclient"))
        assert_unavailable(page, open_calculators(page, base_url + PAGE), "pyodide.asm.wasm could not be downloaded")

    def test_wasm_that_is_not_webassembly(self, broken: Opener, base_url: str) -> None:
        page = broken(WASM, serving(GARBAGE, "application/wasm"))
        assert_unavailable(page, open_calculators(page, base_url + PAGE), "pyodide.asm.wasm is not WebAssembly")

    def test_missing_worker_script(self, broken: Opener, base_url: str) -> None:
        page = broken(WORKER, not_found)
        assert_unavailable(page, open_calculators(page, base_url + PAGE), "the worker script could not be loaded")

    def test_a_shared_link_stays_marked_stale_when_python_cannot_start(self, broken: Opener, base_url: str) -> None:
        """The form carries the link's inputs and the results are the build's: they say so from the moment Python is
        known not to start (there is no answer to wait for), and keep saying so."""
        page = broken(WORKER, not_found)
        page.goto(base_url + PAGE + "?calc-1.intensity=50")
        # Read in the page, in one go, as soon as the calculator is unavailable: it is marked stale already (a timer
        # that marked it later once lost this race to the worker's failure on a busy machine).
        marks = page.wait_for_function(
            f"() => document.querySelector('#calc-1.calc-unavailable') && ({STALE_MARKS})()", timeout=TIMEOUT
        )
        assert marks.json_value() == {"stale": True, "note": True}
        assert page.input_value("#calc-1-intensity") == "50"
        assert texts(page, "#calc-1") == expected("roofline")
        note = page.locator("#calc-1 .calc-stale-note")
        expect(note).to_be_visible()
        expect(note).to_have_text("These results are for the inputs as first written, not for those in the form.")
        expect(page.locator("#calc-1")).to_contain_class("calc-stale")

    def test_an_edit_after_python_failed_is_marked_stale_at_once(self, broken: Opener, base_url: str) -> None:
        """No answer will come, so nothing is waited for: the edit that takes the form away from the build's inputs
        marks the results in the same moment, and the one that brings it back unmarks them."""
        page = broken(WORKER, not_found)
        open_calculators(page, base_url + PAGE)
        page.focus("#calc-1-intensity")  # the first interaction starts Python, which cannot start
        page.wait_for_selector("#calc-1.calc-unavailable", state="attached", timeout=TIMEOUT)
        authored = page.eval_on_selector("#calc-1-intensity", "field => field.defaultValue")
        # The edit and the reading in one script: what the input event itself did, before any timer could run.
        edit = f"""(value) => {{
            const field = document.querySelector('#calc-1-intensity');
            field.value = value;
            field.dispatchEvent(new Event('input', {{bubbles: true}}));
            return ({STALE_MARKS})();
        }}"""
        assert page.evaluate(edit, "50") == {"stale": True, "note": True}
        assert page.evaluate(edit, authored) == {"stale": False, "note": False}
        assert ERRORS[page] == []

    def test_quizzes_still_work_without_the_runtime(self, broken: Opener, base_url: str) -> None:
        """Quizzes are graded in plain JS: with the wasm gone, a question is still checked."""
        page = broken(WASM, not_found)
        open_quiz(page, base_url + QUIZ_PAGE)
        key = answer_key(page, CHECK)[0]
        first = question(CHECK, 1)
        page.click(f"{first} .quiz-choice[data-choice='{first_index(key, correct=True)}']")
        page.click(f"{first} .quiz-check")
        assert verdict(page, first) == "✓ Correct."


# A chapter with a calculator that steps through cycles (player.js) and sortable tables of chips (sortable.js).
CHAPTER = "/chapters/27-asics-and-accelerators/"
COMPONENT_SCRIPTS = ("player.js", "sortable.js", "offline.js")


def test_component_scripts_that_do_not_arrive_leave_the_page_as_built(broken: Opener, base_url: str) -> None:
    """A component's module that never arrives (offline and never cached, or the reader left the page while it
    loaded: a test that moved on too soon met it first) throws nothing into the page: the tables stay as the build
    sorted them, the stepper's buttons stay hidden, and the calculator still mounts."""
    aborted: list[str] = []

    def abort(route: Route) -> None:
        aborted.append(route.request.url.rsplit("/", 1)[1])
        route.abort()

    patterns = [(f"**/assets/calculators/{script}", abort) for script in COMPONENT_SCRIPTS]
    page = broken(*patterns[0], *patterns[1:])
    failed: list[str] = []
    page.on("requestfailed", lambda request: failed.append(request.url.rsplit("/", 1)[1]))
    page.goto(base_url + CHAPTER)
    wait_mounted(page, "#calc-systolic")
    for _ in range(TIMEOUT // 50):
        if set(COMPONENT_SCRIPTS) <= set(failed):
            break
        page.wait_for_timeout(50)
    # An unhandled rejection is reported after the failure's handlers ran: a task later, it would be in ERRORS.
    page.evaluate("() => new Promise((resolve) => setTimeout(resolve, 100))")
    assert set(aborted) == set(COMPONENT_SCRIPTS), aborted
    assert ERRORS[page] == []
    assert "calculators-static" in page.evaluate("document.documentElement.className").split()
    assert page.locator("table[data-sortable]").count() >= 2
    assert page.locator("table[data-sortable-mounted], table[data-sortable] th button").count() == 0
    assert page.locator("[data-calc-player]").count() == 1
    expect(page.locator("[data-calc-player]")).to_be_hidden()


def snapshot_bytes(site: Path, glob: str) -> bytes:
    """The build's snapshot that `glob` names (the calculators' or the exercises'), as the site serves it."""
    (path,) = (site / "assets/calculators").glob(glob)
    return path.read_bytes()


def corrupt_snapshot(site: Path, glob: str) -> bytes:
    """The snapshot `glob` names with its Pyodide build id changed: one made for another runtime."""
    raw = bytearray(gzip.decompress(snapshot_bytes(site, glob)))
    raw[16:48] = bytes(32)  # the 256-bit build id after the 16-byte header (pyodide.asm.mjs, makeSnapshot)
    return gzip.compress(bytes(raw), compresslevel=1)


# A snapshot broken each way, by name: the handler for the URL of the one `glob` names. The two ways here take the two
# ways a restore can fail in each worker, each then booting plainly: the snapshot's bytes cannot be read
# (snapshot_bytes.js rejects, as it does for the truncated and the not gzipped: see
# test_snapshot_bytes_refuses_what_is_not_a_whole_snapshot), or Pyodide refuses bytes read whole.
SNAPSHOT_BROKEN: dict[str, Callable[[Path, str], Handler]] = {
    "missing": lambda site, glob: not_found,
    "of another Pyodide build": lambda site, glob: serving(corrupt_snapshot(site, glob)),
}

# snapshot_bytes.js, in Node (whose Response and DecompressionStream are the browser's standard ones), on each file
# argv names as `status:path`: what it read (the number of bytes) or why it refused, as JSON, one line a file.
READ_SNAPSHOTS = """
import { readFileSync } from "node:fs";
const { snapshotBytes } = await import(process.argv[1]);
for (const argument of process.argv.slice(2)) {
  const [status, path] = argument.split(/:(.*)/s);
  try {
    const bytes = await snapshotBytes(new Response(readFileSync(path), { status: Number(status) }));
    console.log(JSON.stringify(bytes.length));
  } catch (error) {
    console.log(JSON.stringify(String(error?.message ?? error)));
  }
}
"""


def test_snapshot_bytes_refuses_what_is_not_a_whole_snapshot(site: Path, tmp_path: Path) -> None:
    """Each worker reads its snapshot through snapshot_bytes.js and boots plainly when that throws, as the test below
    shows for a missing one: the truncated, the not gzipped and the failed download are thrown out there, and the
    build's own snapshots read whole, gzipped as the build writes them or already unzipped by a server."""
    whole = snapshot_bytes(site, "snapshot-*.bin")
    files = {
        "truncated": whole[:100_000],
        "not gzip": GARBAGE,
        "whole": whole,
        "unzipped": gzip.decompress(whole),
        "exercises whole": snapshot_bytes(site, "exercise-snapshot-*.bin"),
    }
    for name, body in files.items():
        (tmp_path / name).write_bytes(body)
    arguments = [f"200:{tmp_path / name}" for name in files] + [f"404:{tmp_path / 'whole'}"]
    script = site / "assets/calculators/snapshot_bytes.js"
    done = subprocess.run(
        ["node", "--input-type=module", "-e", READ_SNAPSHOTS, script.as_uri(), *arguments],
        capture_output=True,
        text=True,
        check=False,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    read = dict(zip([*files, "not found"], map(json.loads, done.stdout.splitlines()), strict=True))
    assert isinstance(read.pop("truncated"), str)  # Node's words for a gzip stream cut short; the browser has its own
    assert read == {
        "not gzip": "not a Pyodide memory snapshot",
        "whole": len(gzip.decompress(whole)),
        "unzipped": len(gzip.decompress(whole)),
        "exercises whole": len(gzip.decompress(files["exercises whole"])),
        "not found": "HTTP 404",
    }


@pytest.mark.parametrize("broken_how", sorted(SNAPSHOT_BROKEN))
def test_a_snapshot_that_cannot_be_restored_costs_a_plain_boot(
    broken: Opener, base_url: str, site: Path, broken_how: str
) -> None:
    """The calculators' snapshot and the exercises' broken the same way, on a page with a calculator and an exercise:
    each costs a plain boot of its own; the calculators still compute CPython's values, and the reader's Run still
    runs, in an interpreter whose `js` reaches nothing either."""
    how = SNAPSHOT_BROKEN[broken_how]
    page = broken(SNAPSHOT, how(site, "snapshot-*.bin"), (EXERCISE_SNAPSHOT, how(site, "exercise-snapshot-*.bin")))
    open_exercises(page, base_url + EXERCISE_PAGE)
    assert boot(page, "#calc-2-intensity")["mode"] == "plain"
    result = page.evaluate(
        "async (url) => (await import(url)).runCalculator('roofline', {intensity: '1000'})", runtime_url(page)
    )
    assert result["outputs"] == run("roofline", {"intensity": "1000"})["outputs"]
    type_code(page, ROOFLINE, JS_PROBE)
    press(page, ROOFLINE, "run")
    assert "Ran without errors." in result_text(page, ROOFLINE, TIMEOUT)
    assert page.text_content(f"{ROOFLINE} .exercise-stdout") == JS_PROBED
    assert exercise_boots(page)[0] == "plain"
    assert ERRORS[page] == []
