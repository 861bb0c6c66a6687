// @ts-check
/**
 * Loaded on every page, so it stays tiny, and as a classic script, so that it also runs from file:// (where module
 * scripts are blocked). On each page that Material shows (instant navigation swaps pages without reloading scripts)
 * it finds the calculators and loads the component module only where there are some.
 */
(() => {
  const base = /** @type {HTMLScriptElement} */ (document.currentScript).src;
  /**
   * Each block kind's browser half (its elements, its module and the function that module exports, whether it waits
   * until a block nears the screen, whether a page with one keeps Python's runtime offline), in kinds.js, which the
   * build writes from the registered kinds (runtime/site.py's mount_table, from each kind's `browser`, blocks/hooks.py).
   * Asked for as this script starts, so that it is there by the time the page mounts; not from a file, where module
   * scripts are blocked (and nothing mounts).
   * @type {Promise<typeof import("./kinds.js")> | null}
   */
  const mountTable = location.protocol === "file:" ? null : import(new URL("kinds.js", base).href);
  mountTable?.catch(() => {}); // said when a page mounts: staticPage
  let generation = 0;
  const BOOT_EVENT = "calculators:boot"; // on document, as runtime.js starts Python; its detail the boot's promise
  const BOOT_START_MS = 4000; // past the idle boot's own limit (calculator.js, 3 s once a calculator is on screen)
  const BOOT_LIMIT_MS = 20_000; // a boot on a slow phone's network
  const STATIC = "calculators-static"; // on <html>: the components' scripts cannot run here (quiz.css, in calculators.css)
  // The page's head marked <html> "calculators-live" (the components' scripts will run: runtime/site.py, LIVE_MARK) and
  // looks, once the page is parsed, for this mark that they do.
  document.documentElement.classList.add("calculators-entry");

  /**
   * Chromium's autofill reads every form field of a page once DOMContentLoaded has been dispatched, in the same task,
   * and asks of each whether it can take focus: for a field in a calculator that content-visibility skips off screen
   * (calculators.css), the answer lays that calculator out, a style and layout pass of its own for each (four on the
   * roofline lesson: 55 ms of that task's 136 at a phone's speed, against 67 for the whole task without the plugin).
   * This script runs in that task, just before the event: every calculator's fields are held out of the page until
   * the task ends, and put back before the next frame and before anything mounts (mountPage). No frame is drawn in
   * between, so none shows them missing (and a skipped calculator keeps its stand-in size regardless). Autofill reads
   * them again in a later task, where the passes no longer add to the longest task of the page's load. Asking which
   * calculators are skipped would cost a style pass of the whole page here: all are held.
   * @type {[Comment, Element][]}
   */
  const heldFields = [];
  for (const fields of document.querySelectorAll("[data-calculator] .calc-fields")) {
    const mark = document.createComment("");
    fields.replaceWith(mark);
    heldFields.push([mark, fields]);
  }
  function putFieldsBack() {
    for (const [mark, fields] of heldFields.splice(0)) mark.replaceWith(fields);
  }
  if (heldFields.length) {
    requestAnimationFrame(putFieldsBack);
    setTimeout(putFieldsBack); // a tab in the background draws no frame
  }

  /** Opened from a file: say why the calculator is still, and keep its results readable. @param {HTMLElement[]} elements */
  function explainFileMode(elements) {
    for (const element of elements) {
      // In the book's language: written by the build beside the status line (no module, hence no catalogue, here).
      const status = /** @type {HTMLElement | null} */ (element.querySelector(".calc-status"));
      if (status) status.textContent = status.dataset.fileText ?? "";
      for (const control of element.querySelectorAll("input, select, button")) {
        /** @type {HTMLInputElement} */ (control).disabled = true;
      }
      const chart = /** @type {HTMLElement | null} */ (element.querySelector(".calc-chart"));
      if (chart) chart.hidden = true;
    }
  }

  /**
   * Opened from a file, a page still reaches the others: the build links to folders ("../roofline/"), which a
   * browser shows as a listing from file://, so each such link is pointed at the folder's index.html. A quiz cannot
   * be checked (its module is blocked): its note says why, and its Check submits nothing (see below).
   */
  function fileMode() {
    document.documentElement.classList.add(STATIC); // quizzes show their options at once, in the build's order
    for (const link of /** @type {HTMLAnchorElement[]} */ ([...document.querySelectorAll("a[href]")])) {
      const url = new URL(link.href);
      if (url.protocol === "file:" && url.pathname.endsWith("/")) {
        url.pathname += "index.html";
        link.href = url.href;
      }
    }
    for (const note of /** @type {NodeListOf<HTMLElement>} */ (document.querySelectorAll(".quiz .quiz-note"))) {
      note.textContent = note.dataset.fileText ?? note.textContent;
    }
  }

  /**
   * A block's form never submits itself to the server, which would reload the page and lose what the reader wrote:
   * once mounted, its script handles Check and Enter; before that (a slow network, a reader quicker than the module,
   * a page opened from a file, a module that cannot load) the submit is stopped here, and a quiz's Check is made again
   * as soon as its script has mounted it (`mountNow`).
   */
  /** @type {Set<HTMLFormElement>} */
  const heldChecks = new Set();
  document.addEventListener("submit", (event) => {
    const form = /** @type {HTMLFormElement} */ (event.target);
    const block = form.closest("[data-quiz], [data-calculator], [data-exercise]");
    if (!block || block.hasAttribute("data-mounted")) return;
    event.preventDefault();
    if (block.hasAttribute("data-quiz")) heldChecks.add(form);
  });

  /**
   * A component loads its module only on pages that have it (not from file://, where module scripts are blocked), and
   * mounts at once: the kinds that do not wait to near the screen (exercises, sortable tables) and the components that
   * are not kinds (the player, the progress line). A module that does not arrive (offline and never cached, or the
   * reader left the page while it loaded) leaves them as the build wrote them.
   * @param {string} selector @param {string} module @param {string} mount
   */
  function mountComponent(selector, module, mount) {
    const elements = /** @type {HTMLElement[]} */ ([...document.querySelectorAll(selector)]);
    if (elements.length === 0 || location.protocol === "file:") return elements;
    const current = generation;
    import(new URL(module, base).href).then((loaded) => loaded[mount](elements, current), staticPage);
    return elements;
  }

  /** A component's module did not arrive: the page as the build wrote it (quizzes show every question). */
  function staticPage() {
    document.documentElement.classList.add(STATIC);
  }

  /** @type {IntersectionObserver[]} */
  let observers = [];

  /**
   * Calculators and quizzes come alive as each nears the viewport (within half a screen), as a reader touches,
   * focuses or changes one first, or at once when the address links to it: a long page does not make every form,
   * quiz and chart live at once while it loads, which held a phone's main thread for a second. Nothing a reader does
   * first is lost: a calculator's mount reads its form, and recomputes when the reader changed it meanwhile. Each
   * module loads with its first mount.
   * @param {string} selector @param {string} module @param {string} mount
   */
  function mountNearViewport(selector, module, mount) {
    const elements = /** @type {HTMLElement[]} */ ([...document.querySelectorAll(selector)]);
    if (elements.length === 0) return elements;
    const current = generation;
    /** @type {Promise<any> | null} */
    let loaded = null;
    /** @param {HTMLElement[]} batch */
    const mountNow = (batch) => {
      if (current !== generation) return;
      loaded ??= import(new URL(module, base).href);
      loaded.then(
        (component) => {
          component[mount](batch, current);
          for (const form of heldChecks) {
            if (!batch.some((element) => element.contains(form))) continue;
            heldChecks.delete(form);
            form.requestSubmit();
          }
        },
        staticPage, // offline and never cached, or the page was left meanwhile
      );
    };
    if (!("IntersectionObserver" in window)) {
      mountNow(elements);
      return elements;
    }
    const events = ["focusin", "pointerdown", "input", "change"];
    /** @param {Element[]} batch */
    const reached = (batch) => {
      for (const element of batch) {
        observer.unobserve(element);
        for (const event of events) element.removeEventListener(event, touched, true);
      }
      mountNow(/** @type {HTMLElement[]} */ (batch));
    };
    const observer = new IntersectionObserver(
      (entries) => {
        const near = entries.filter((entry) => entry.isIntersecting).map((entry) => entry.target);
        if (near.length) reached(near);
      },
      { rootMargin: "50% 0px" },
    );
    /** @param {Event} event */
    function touched(event) {
      reached([/** @type {Element} */ (event.currentTarget)]);
    }
    // A link to one (its #id, or its inputs as a shared link gives them, ?calc-1.intensity=50) mounts it at once.
    const query = [...new URLSearchParams(location.search).keys()];
    const linked = elements.filter(
      (element) => location.hash === `#${element.id}` || query.some((key) => key.startsWith(`${element.id}.`)),
    );
    for (const element of elements) {
      observer.observe(element);
      for (const event of events) element.addEventListener(event, touched, true);
    }
    observers.push(observer);
    if (linked.length) reached(linked);
    return elements;
  }

  /**
   * A quiz or an exercise is anchored by its id (#quiz-basics); a link made when they were numbered among their kind
   * (#quiz-2) still lands. The block carries its old anchor (data-old-anchor, written at build), and the address is
   * pointed at its new one in place (no history entry, no request) with the block scrolled into view, as the link
   * would have. An element that has the old id itself keeps it (a quiz whose id is `2` is #quiz-2 now).
   */
  function followOldAnchor() {
    let old = "";
    try {
      old = decodeURIComponent(location.hash.slice(1));
    } catch {
      return; // not an id this page could have written
    }
    if (!old || document.getElementById(old)) return;
    const block = [...document.querySelectorAll("[data-old-anchor]")].find(
      (element) => element.getAttribute("data-old-anchor") === old,
    );
    if (!block?.id) return;
    history.replaceState(history.state, "", `#${block.id}`); // Material keeps its scroll offset in the state
    block.scrollIntoView();
  }
  // The page's head calls it on popstate, before Material's script sees the address (runtime/site.py, LIVE_MARK); on
  // hashchange, after, where Material's instant navigation is not there to see it (a page opened from a file).
  /** @type {any} */ (window).calculatorsOldAnchor = followOldAnchor;
  addEventListener("hashchange", followOldAnchor);

  function mountPage() {
    putFieldsBack(); // before a calculator mounts and reads its form
    followOldAnchor(); // first: a quiz that an old link names then mounts at once, as one its new link names
    generation += 1;
    for (const form of heldChecks) if (!form.isConnected) heldChecks.delete(form); // those of the page the reader left
    for (const observer of observers) observer.disconnect();
    observers = [];
    if (location.protocol === "file:") {
      const elements = /** @type {HTMLElement[]} */ ([...document.querySelectorAll("[data-calculator]")]);
      return explainFileMode(elements);
    }
    const current = generation;
    mountTable?.then(({ kinds }) => {
      if (current !== generation) return; // the reader has gone on to another page meanwhile
      let offline = false;
      for (const kind of kinds) {
        const elements = (kind.near ? mountNearViewport : mountComponent)(kind.selector, kind.module, kind.mount);
        offline ||= kind.offline && elements.length > 0;
      }
      // The offline copy is kept when it can be: a page that cannot load offline.js (the same cases) goes without.
      if (offline) {
        import(new URL("offline.js", base).href).then(
          (offline) => offline.keepRuntimeOffline(),
          () => {},
        );
      }
    }, staticPage); // offline and never cached: the page as the build wrote it
    mountComponent("[data-calc-player]", "player.js", "mountPlayers"); // Previous, Play, Next for a cycle input
    mountComponent("[data-adjusts]", "calculator_prose.js", "mountAdjustables"); // inputs adjustable in the prose
    mountComponent("[data-progress-here]", "progress-view.js", "mountProgressHere"); // the reader's progress here
    mountComponent("[data-progress-book]", "progress-view.js", "mountProgressBook"); // and on the progress page
  }

  /**
   * The service worker keeps the site for reading offline (sw.js at the site's root, written at build). Its path is
   * one of the build's values (build-info.js, a module: imported once the page has loaded, as registering waits for
   * that anyway). Under `mkdocs serve`, whose pages change with every edit, the build leaves it empty: no worker, and
   * one left from an earlier visit to a built site on the same address is removed.
   */
  function registerServiceWorker() {
    const container = navigator.serviceWorker;
    if (!container || location.protocol === "file:") return;
    const root = new URL("../../", base);
    const options = { scope: root.pathname, updateViaCache: /** @type {const} */ ("none") };
    /** @type {() => Promise<typeof import("./build-info.js")>} */
    const buildInfo = () => import(new URL("build-info.js", base).href);
    let registered = false;
    const register = () => {
      if (registered) return;
      registered = true;
      buildInfo()
        .then(async ({ serviceWorker }) => {
          if (serviceWorker) await container.register(new URL(serviceWorker, root), options);
          else {
            const old = await container.getRegistration(root.href);
            if (old?.scope === root.href) await old.unregister();
          }
        })
        .catch(() => {});
    };
    // Once the page's first boot of Python has settled: the worker's first install copies every page of the site
    // into its cache, and beside the boot's downloads, on two cores, a first visit's first result took 850 ms where
    // it took 526 without it (`make bench`, T2). The runtime keeps what it downloads by itself (worker.js), so
    // nothing is downloaded twice. A page with nothing that boots Python, or whose blocks stay off screen, does not
    // wait: a boot not started BOOT_START_MS after the load is not waited for, nor one that takes over BOOT_LIMIT_MS.
    /** @type {Promise<void> | null} */
    let boot = null;
    let loaded = false;
    document.addEventListener(BOOT_EVENT, (event) => {
      if (boot) return;
      boot = /** @type {CustomEvent<Promise<void>>} */ (event).detail;
      if (loaded) boot.then(register, register);
    });
    const registerAfterBoot = () => {
      loaded = true;
      if (!document.querySelector("[data-calculator], [data-exercise]")) return register();
      setTimeout(register, BOOT_LIMIT_MS);
      if (boot) boot.then(register, register);
      else setTimeout(() => boot ?? register(), BOOT_START_MS);
    };
    if (document.readyState === "complete") registerAfterBoot();
    else addEventListener("load", registerAfterBoot, { once: true });
  }

  // Material's document$ emits each page it shows; from file:// it completes without emitting, so mount once then.
  // The mount runs in a task of its own, not inside Material's DOMContentLoaded handler, whose task is the longest
  // of a page's load already (Material's own work, then Chromium's autofill reading every form): a phone's main
  // thread then blocks for less at a time.
  const documents = /** @type {any} */ (window).document$;
  if (documents?.subscribe && location.protocol !== "file:") documents.subscribe(() => setTimeout(mountPage));
  else if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", mountPage);
  else mountPage();
  if (location.protocol === "file:") {
    if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", fileMode);
    else fileMode();
  }
  registerServiceWorker();
})();
