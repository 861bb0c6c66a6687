"""A reader who tries to break or cheat an exercise, in Chromium: every trick here worked when exercises ran in the
calculators' worker and were graded there (R8, R11).

The reader's code can reach any JavaScript object from Python (`pyodide_js`, `importlib`, a JsProxy's constructor's
constructor gives the worker's global scope), so each trick goes the shortest way there. Each must leave the page,
its storage and caches, the calculators and the verdict as they were; passing needs code that computes the answer.
"""

from __future__ import annotations

import json
import re
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest
import yaml
from playwright.sync_api import Browser, Page

from calckit.exercise_checks import read_exercise
from calculators import CALCULATORS
from mkdocs_calculators.pages.fences import find_fences
from tests.browser.calculator_page import expected, follow_instantly, present, wait_for_texts, wait_mounted
from tests.browser.test_exercise import CALCULATOR, PAGE, RIGHT, ROOFLINE, open_exercises, press, result_text, type_code
from tests.support import ROOT

pytestmark = pytest.mark.browser

# The worker's global scope, from Python, the way a reader finds it.
GLOBALS = (
    "import importlib\n"
    "here = importlib.import_module('pyodide_js').constructor.constructor('return this')()\n"
    "run_js = importlib.import_module('pyodide_js').constructor.constructor\n"
)
REACHABLE = [
    "caches",
    "indexedDB",
    "fetch",
    "XMLHttpRequest",
    "importScripts",
    "WebSocket",
    "EventSource",
    "BroadcastChannel",
    "Worker",
    "SharedWorker",
    "postMessage",
    "localStorage",
    "document",
]


@pytest.fixture
def page(warm_page: Page) -> Page:
    """The tricks are not about a first visit: each test is a new
    tab in the module's warm context (conftest's warm_page)."""
    return warm_page


def run(page: Page, code: str, button: str = "run") -> str:
    type_code(page, ROOFLINE, code)
    press(page, ROOFLINE, button)
    return result_text(page, ROOFLINE)


def attainable_returning(body: str) -> str:
    return f"def attainable(peak_tflops, bandwidth_tbs, intensity):\n    {body}\n"


def assert_not_passed(page: Page, text: str) -> None:
    """The Check did not pass (a case fails, or the code does not run), and no pass is remembered."""
    assert (" fails" in text or text.startswith("Your code does not run")) and not text.startswith("All "), text
    page.reload()
    page.wait_for_selector(f"{ROOFLINE}[data-mounted]", state="attached")
    assert page.text_content(f"{ROOFLINE} .exercise-status") != "You passed this exercise on an earlier visit."


def test_what_reader_code_reaches_goes_no_further(page: Page, base_url: str) -> None:
    """What reader code can reach and change, step by step on one page (each Run is a fresh interpreter of its own):
    no global that leads beyond the worker, nothing of the book's package, builtins patched for that Run alone and
    never in the calculators, and code nesting deeper than the browser's stack a Python error."""
    open_exercises(page, base_url + PAGE)
    no_global_that_reaches_beyond_the_worker_is_left(page)
    the_books_package_is_not_in_the_readers_python(page)
    patching_builtins_changes_neither_the_calculators_nor_the_next_run(page)
    nesting_too_deep_for_the_browser_is_a_python_error(page)


def no_global_that_reaches_beyond_the_worker_is_left(page: Page) -> None:
    """Through pyodide_js and the Function constructor, every way out (storage, caches, network, other contexts, the
    worker's own postMessage) is gone, navigator's storage and locks too."""
    names = json.dumps(REACHABLE)
    code = (
        f"{GLOBALS}"
        f"for name in {names}:\n"
        "    print(name, run_js('return typeof self[\"' + name + '\"]')())\n"
        "for name in ['storage', 'locks', 'serviceWorker']:\n"
        "    print('navigator.' + name, run_js('return typeof navigator[\"' + name + '\"]')())\n"
    )
    run(page, code)
    printed = present(page.text_content(f"{ROOFLINE} .exercise-stdout")).splitlines()
    assert printed == [f"{name} undefined" for name in REACHABLE] + [
        f"navigator.{name} undefined" for name in ("storage", "locks", "serviceWorker")
    ]


@pytest.fixture
def other_host() -> Iterator[tuple[str, list[str]]]:
    """A server on another origin (another port) that answers any path with a module, and the paths it was asked for:
    what reaches it left the browser (Playwright's own request events also list requests a policy then refuses)."""
    asked: list[str] = []

    class Module(BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            asked.append(self.path)
            body = b"export const loaded = true;"
            self.send_response(200)
            self.send_header("Content-Type", "text/javascript")
            self.send_header("Access-Control-Allow-Origin", "*")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args: object) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Module)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}", asked
    finally:
        server.shutdown()
        server.server_close()


def test_import_cannot_load_a_script_from_another_host(
    browser: Browser, base_url: str, other_host: tuple[str, list[str]]
) -> None:
    """import() is syntax, not a global the lockdown can take away: the policy the exercise workers run under
    (exercise_runtime.js) refuses a script from anywhere but the site, and nothing is asked of the other host. The
    page is not behind the tests' guard (which fails requests to other hosts): the other host's server witnesses."""
    address, asked = other_host
    context = browser.new_context()
    page = context.new_page()
    open_exercises(page, base_url + PAGE)
    code = (
        f"{GLOBALS}"
        f"tried = run_js(\"return import('{address}/module.js').then(() => 'loaded', () => 'refused')\")()\n"
        "import time\n"
        "start = time.time()\n"
        "while time.time() - start < 1:\n"
        "    pass\n"
        "print('asked')\n"
    )
    assert "asked" in run(page, code)
    page.wait_for_timeout(1500)  # a request the policy let through would have reached the server by now
    assert asked == []
    # The same code in a worker without the policy does reach it: the server and the probe work.
    page.evaluate(
        """(address) => new Promise((done) => {
            const source = URL.createObjectURL(new Blob([`import("${address}/unpoliced.js").then(() => postMessage(1),
              () => postMessage(0))`], { type: "text/javascript" }));
            const worker = new Worker(source, { type: "module" });
            worker.onmessage = () => { worker.terminate(); done(); };
        })""",
        address,
    )
    assert asked == ["/unpoliced.js"]
    context.close()


def _open_with_caches_and_a_stored_probe(page: Page, base_url: str) -> list[str]:
    """The exercises' page, controlled by the service worker once its caches are filled, with a value in
    localStorage ('trick-probe': 'kept') for a trick to delete: the names of the caches, to compare after."""
    open_exercises(page, base_url + PAGE)
    page.wait_for_function("navigator.serviceWorker.controller !== null", timeout=30_000)
    page.wait_for_function("caches.keys().then((keys) => keys.length > 0)")
    page.evaluate("localStorage.setItem('trick-probe', 'kept')")
    names: list[str] = page.evaluate("caches.keys()")
    return names


def test_exercise_code_cannot_delete_the_sites_caches_or_storage(page: Page, base_url: str) -> None:
    """The trick from the issue: importlib.import_module('js') then caches.delete; and the same through the global
    scope, indexedDB, the origin's private file system and the prototype's own getter."""
    before = _open_with_caches_and_a_stored_probe(page, base_url)
    code = (
        f"{GLOBALS}"
        "tries = {\n"
        "  'js module': lambda: importlib.import_module('js').caches.keys(),\n"
        "  'global': lambda: here.caches.keys(),\n"
        "  'getter': lambda: run_js('return Object.getOwnPropertyDescriptor(WorkerGlobalScope.prototype, "
        '"caches").get.call(self).keys()\')(),\n'
        "  'indexedDB': lambda: here.indexedDB.deleteDatabase('x'),\n"
        "  'opfs': lambda: here.navigator.storage.getDirectory(),\n"
        "}\n"
        "for name, attempt in tries.items():\n"
        "    try:\n"
        "        attempt()\n"
        "        print(name, 'reached')\n"
        "    except Exception as error:\n"
        "        print(name, 'refused')\n"
    )
    run(page, code)
    printed = present(page.text_content(f"{ROOFLINE} .exercise-stdout")).splitlines()
    assert printed == [f"{name} refused" for name in ("js module", "global", "getter", "indexedDB", "opfs")]
    assert page.evaluate("caches.keys()") == before
    assert page.evaluate("localStorage.getItem('trick-probe')") == "kept"


# Every other door Pyodide's own Python modules open on JavaScript, each trying to empty the site's caches and its
# localStorage (not only to look): a door that opened would leave them emptied, whatever it printed.
EMPTY_CACHES = "caches.keys().then((keys) => Promise.all(keys.map((key) => caches.delete(key))))"
EMPTY_STORAGE = "localStorage.clear()"
DOORS = {
    "sys.modules js": "import sys\nsys.modules['js'].caches.keys()\nsys.modules['js'].localStorage.clear()\n",
    "import js": "import js\njs.caches.keys()\njs.localStorage.clear()\n",
    "pyodide.code.run_js caches": f"import pyodide.code\npyodide.code.run_js({EMPTY_CACHES!r})\n",
    "pyodide.code.run_js storage": f"from pyodide.code import run_js\nrun_js({EMPTY_STORAGE!r})\n",
    "pyodide.ffi to_js": (
        "from pyodide.ffi import to_js\n"
        f"to_js([]).constructor.constructor({'return ' + EMPTY_CACHES!r})()\n"
        f"to_js([]).constructor.constructor({'return ' + EMPTY_STORAGE!r})()\n"
    ),
    "pyodide.ffi create_proxy": (
        "import pyodide.ffi\n"
        "proxy = pyodide.ffi.create_proxy(lambda: 0)\n"
        f"proxy.constructor.constructor({'return ' + EMPTY_CACHES!r})()\n"
    ),
    "pyodide.ffi JsProxy of self": (
        "import pyodide.ffi, pyodide.code\n"
        "scope = pyodide.code.run_js('globalThis')\n"
        "assert isinstance(scope, pyodide.ffi.JsProxy)\n"
        "scope.caches.keys()\n"
    ),
    # The same modules by the ways round an `import` statement that is refused.
    "importlib pyodide.code": f"import importlib\nimportlib.import_module('pyodide.code').run_js({EMPTY_CACHES!r})\n",
    "__import__ pyodide.code": f"__import__('pyodide.code', fromlist=['run_js']).run_js({EMPTY_STORAGE!r})\n",
    "importlib pyodide.ffi": (
        "import importlib\n"
        "to_js = importlib.import_module('pyodide.ffi').to_js\n"
        f"to_js([]).constructor.constructor({'return ' + EMPTY_CACHES!r})()\n"
    ),
    "sys.modules pyodide": (
        "import sys\n"
        "loaded = [module for name, module in sys.modules.items() if name.startswith(('pyodide', '_pyodide'))]\n"
        "run_js = next(getattr(module, 'run_js') for module in loaded if hasattr(module, 'run_js'))\n"
        f"run_js({EMPTY_CACHES!r})\n"
    ),
}


def test_pyodides_own_modules_reach_neither_the_caches_nor_storage(page: Page, base_url: str) -> None:
    """`sys.modules['js']`, `import js`, `pyodide.code.run_js` and the JsProxies `pyodide.ffi` makes (whose
    constructor's constructor is JavaScript's Function) each try to empty the site's caches and localStorage from an
    exercise: each is refused (raises in the reader's Python), and the caches and storage are as they were."""
    before = _open_with_caches_and_a_stored_probe(page, base_url)
    code = (
        f"DOORS = {DOORS!r}\n"
        "for name, attempt in DOORS.items():\n"
        "    try:\n"
        "        exec(attempt, {})\n"
        "        print(name, 'reached')\n"
        "    except Exception:\n"
        "        print(name, 'refused')\n"
    )
    run(page, code)
    printed = present(page.text_content(f"{ROOFLINE} .exercise-stdout")).splitlines()
    assert printed == [f"{name} refused" for name in DOORS]
    page.wait_for_timeout(500)  # a deletion a door had started (a promise) would have been carried out by now
    assert page.evaluate("caches.keys()") == before
    assert page.evaluate("localStorage.getItem('trick-probe')") == "kept"


def the_books_package_is_not_in_the_readers_python(page: Page) -> None:
    """The function an exercise is checked against (calculators.matmul.critical_batch) cannot be imported or read
    from the reader's own interpreter: it has calckit alone, and no file of the book's package anywhere in its file
    system (the calculators' worker, which has the package, never runs the reader's code)."""
    code = (
        "import importlib.util, os\n"
        "print('spec', importlib.util.find_spec('calculators'))\n"
        "try:\n"
        "    import calculators.matmul\n"
        "except ImportError as error:\n"
        "    print(type(error).__name__, error.name)\n"
        "found = sorted(os.path.join(folder, name) for folder, _, names in os.walk('/') for name in names\n"
        "               if 'matmul' in name or name.startswith(('calculators', 'course_book')))\n"
        "print('files', found)\n"
        "print('wheels', sorted(os.listdir('/lib/wheels')))\n"
    )
    run(page, code)
    printed = present(page.text_content(f"{ROOFLINE} .exercise-stdout")).splitlines()
    assert printed[:3] == ["spec None", "ModuleNotFoundError calculators", "files []"], printed
    (wheels,) = [line for line in printed if line.startswith("wheels ")]
    assert re.fullmatch(r"wheels \['calckit-[^']+\.whl'\]", wheels), wheels


def patching_builtins_changes_neither_the_calculators_nor_the_next_run(page: Page) -> None:
    """builtins.min = lambda ...: 42 in an exercise: the calculator on the page still computes the roofline, and the
    next run has the real min (each run is a fresh interpreter)."""
    run(
        page,
        "import builtins\nbuiltins.min = lambda *a, **k: 42.0\nbuiltins.max = builtins.min\n"
        "print(builtins.min(1, 2))\n",
    )
    assert page.text_content(f"{ROOFLINE} .exercise-stdout") == "42.0\n"
    page.fill(f"{CALCULATOR}-intensity", "20")
    wait_for_texts(page, expected("roofline", chip="tpu-v5e", intensity=20), CALCULATOR)
    run(page, "print(min(1, 2))\n")
    assert page.text_content(f"{ROOFLINE} .exercise-stdout") == "1\n"


def test_patching_builtins_does_not_follow_the_reader_to_the_next_page(page: Page, base_url: str) -> None:
    """builtins.min = lambda ...: 42 in an exercise, then Material's instant navigation (no reload: the page's
    workers could live on) to the roofline lesson: its calculator recomputes with the real min. Patched, its
    attainable performance would be min(...) = 42 TFLOP/s rather than 3.35 TB/s × 20 = 67 TFLOP/s."""
    open_exercises(page, base_url + PAGE)
    run(page, "import builtins\nbuiltins.min = lambda *a, **k: 42.0\nprint(builtins.min(1, 2))\n")
    assert page.text_content(f"{ROOFLINE} .exercise-stdout") == "42.0\n"
    page.evaluate("window.sameDocument = true")
    follow_instantly(page, "article a[href$='roofline/']", f"{base_url}/lessons/roofline/")
    assert page.evaluate("window.sameDocument") is True  # the page was swapped in, not loaded anew
    wait_mounted(page, "#calc-1")
    page.fill("#calc-1-intensity", "20")
    wanted = expected("roofline", intensity=20)
    assert wanted["attainable"].startswith("67"), wanted
    wait_for_texts(page, wanted, "#calc-1")


# Ways to make a Check pass without computing the answer, by name.
CHEATS = {
    # Reading the expected value from the checker's frames, or from any object Python holds.
    "frames": "import sys\n"
    "def attainable(peak_tflops, bandwidth_tbs, intensity):\n"
    "    frame = sys._getframe(1)\n"
    "    while frame:\n"
    "        for value in frame.f_locals.values():\n"
    "            if isinstance(value, dict) and 'expected' in value:\n"
    "                return value['expected']\n"
    "        frame = frame.f_back\n"
    "    return 0\n",
    "gc": "import gc\n"
    "def attainable(peak_tflops, bandwidth_tbs, intensity):\n"
    "    for thing in gc.get_objects():\n"
    "        if isinstance(thing, dict) and thing.get('inputs') == {'peak_tflops': peak_tflops,\n"
    "                'bandwidth_tbs': bandwidth_tbs, 'intensity': intensity} and 'expected' in thing:\n"
    "            return thing['expected']\n"
    "    return 0\n",
    # Making the comparison say yes: builtins.abs, the checker's own function, a number that lies.
    "abs": "import builtins\nbuiltins.abs = lambda x: 0\n" + attainable_returning("return 0"),
    "comparison": "import sys\n"
    "for module in list(sys.modules.values()):\n"
    "    for name in ('_verdict', 'verdict'):\n"
    "        if hasattr(module, name) and getattr(module, '__name__', '').startswith('calckit'):\n"
    "            setattr(module, name, lambda *a, **k: '')\n" + attainable_returning("return 0"),
    "lying-float": "class Liar(float):\n"
    "    def __sub__(self, other): return 0.0\n"
    "    def __rsub__(self, other): return 0.0\n"
    "    def __eq__(self, other): return True\n"
    "    __hash__ = float.__hash__\n" + attainable_returning("return Liar(0)"),
    # Asking the book's own calculator, which exercises are checked against.
    "the-book": "import importlib\n"
    "roofline = importlib.import_module('calculators').CALCULATORS['roofline']\n"
    + attainable_returning(
        "return roofline.evaluate(roofline.check({'peak_tflops': peak_tflops, 'bandwidth_tbs': "
        "bandwidth_tbs, 'intensity': intensity})[0]).values['attainable'] / 1e12"
    ),
}
# The exercises whose progress in the site's storage says they were passed.
REMEMBERED = """() => Object.entries(localStorage)
    .filter(([key, value]) => key.includes("|exercise:") && JSON.parse(value).passed === true).map(([key]) => key)"""


def test_check_cannot_pass_without_solving(page: Page, base_url: str) -> None:
    """Each cheat in turn on one page (each Check runs in a fresh interpreter of its own), then the tricks that take
    more than one Check: none passes, none is remembered as a pass in the site's storage, and the page reloaded does
    not say that the exercise was passed (assert_not_passed). Last, the honest answer does pass."""
    open_exercises(page, base_url + PAGE)
    passed = {}
    for name, cheat in CHEATS.items():
        verdict = run(page, cheat, "check")
        if verdict.startswith("All ") or not (" fails" in verdict or verdict.startswith("Your code does not run")):
            passed[name] = verdict
        if remembered := page.evaluate(REMEMBERED):
            passed[name] = f"{verdict} (remembered as passed: {remembered})"
    assert passed == {}
    a_patched_checker_does_not_carry_over_to_the_next_check(page)
    a_forged_reply_is_not_taken_as_a_pass(page)
    text = outputs_written_out_in_advance_fail(page)
    assert_not_passed(page, text)
    assert run(page, RIGHT, "check").startswith("All ")


def assert_not_passing(page: Page, text: str) -> None:
    """The Check did not pass (a case fails, or the code does not run), and the site's storage holds no pass."""
    assert (" fails" in text or text.startswith("Your code does not run")) and not text.startswith("All "), text
    assert page.evaluate(REMEMBERED) == []


def a_patched_checker_does_not_carry_over_to_the_next_check(page: Page) -> None:
    """The issue's trick: replace the comparison in sys.modules with one Run, then Check `return 0`."""
    run(
        page,
        "import sys\n"
        "for module in list(sys.modules.values()):\n"
        "    for name in ('_verdict', 'verdict'):\n"
        "        if hasattr(module, name):\n"
        "            setattr(module, name, lambda *a, **k: '')\n",
    )
    assert_not_passing(page, run(page, attainable_returning("return 0"), "check"))


def a_forged_reply_is_not_taken_as_a_pass(page: Page) -> None:
    """The worker posting a reply of its own (a pass, for every id the page might be waiting on) is not a verdict:
    the page keeps nothing of it, and does not greet the reader as passed on the next visit."""
    forged = (
        "{ok: true, passed: 22, total: 22, stdout: '', error: null, failure: null, "
        "results: Array(40).fill({kind: 'number', value: 0})}"
    )
    code = (
        f"{GLOBALS}"
        "try:\n"
        '    run_js("for (let id = 0; id < 200; id++) { '  # the first page's generation is 1
        f"postMessage({{type: 'result', id, generation: 1, result: {forged}}}); "
        f"postMessage({{type: 'done', reply: {forged}}}); }}\")()\n"
        "except Exception:\n"
        "    pass\n" + attainable_returning("return 0")
    )
    assert_not_passing(page, run(page, code, "check"))


def outputs_written_out_in_advance_fail(page: Page) -> str:
    """A table of the answers to the build's cases (which a reader could read out of the page, or the site's
    source) passes the fixed cases only: each Check draws cases of its own."""
    markdown = (ROOT / "docs/lessons/roofline-exercises.md").read_text(encoding="utf-8")
    fence = next(iter(find_fences(markdown, frozenset({"exercise"}))))
    exercise = read_exercise(yaml.safe_load(fence.body), CALCULATORS)
    table = {tuple(case.inputs[name] for name in exercise.parameters): case.expected for case in exercise.cases}
    code = f"TABLE = {table!r}\n" + attainable_returning("return TABLE.get((peak_tflops, bandwidth_tbs, intensity), 0)")
    text = run(page, code, "check")
    fixed = sum(case.fixed for case in exercise.cases)
    assert f"(the {fixed} before it pass)" in text
    assert_not_passing(page, text)
    return text


def nesting_too_deep_for_the_browser_is_a_python_error(page: Page) -> None:
    """json.dumps of a list nested 100,000 deep exhausts the browser's stack before Python's own check: the reader
    gets a RecursionError, not "Maximum call stack size exceeded", and the next run works."""
    text = run(page, "import json\nx = []\nfor _ in range(100000):\n    x = [x]\njson.dumps(x)\n")
    assert "RecursionError: maximum recursion depth exceeded" in text
    assert "Maximum call stack" not in text
    run(page, "print('still here')\n")
    assert page.text_content(f"{ROOFLINE} .exercise-stdout") == "still here\n"
