// @ts-check
/**
 * Quizzes on the page: the questions the build rendered (quiz_render.py writes the markup), made answerable.
 *
 * Grading runs here, from the answer key the build computed (`data-quiz-data`): no Python, no waiting. Only "new
 * numbers" asks the worker, for a fresh variant of a numeric question (`calckit.api.quiz_variant`). Progress is
 * saved through progress.js under `data-quiz-key` (the page's path and the quiz's id), restored on return, and
 * follows what another tab of the book saves. Numeric answers are read and graded by grading.js, the twin of
 * calckit's rule.
 */
import { NumberError, allows, readAnswer } from "./grading.js";
import { load as loadProgress, save, watch } from "./progress.js";

/** @typedef {{id: string, kind: "single" | "multiple", explanation: string, correct: number[], choices: string[], shuffle?: boolean}} ChoiceData */
/** @typedef {{id: string, kind: "sort", explanation: string, buckets: Record<string, string>, items: {bucket: string, explanation: string}[], shuffle?: boolean}} SortData */
/** @typedef {{amount: number, relative: boolean, text: string}} Tolerance */
/** @typedef {{seed?: number, inputs: Record<string, unknown>, text: string, answer: number, answer_text: string}} Variant */
/**
 * @typedef {{id: string, kind: "numeric", explanation: string, text: string, inputs: Record<string, unknown>,
 *   answer: number, answer_text: string, unit: string, tolerance: Tolerance, variant: Record<string, unknown> | null}} NumericData
 */
/** @typedef {ChoiceData | SortData | NumericData} QuestionData */
/** @typedef {{value?: any, checked?: boolean, correct?: boolean, variant?: Variant}} Answer */
/** @typedef {{version: string, current: number, answers: Record<string, Answer>}} Progress */
/** @typedef {{correct: boolean, details: string[]}} Verdict */
/**
 * What one kind of question does; the flow around it (check, try again, save) is shared.
 * @typedef {object} Kind
 * @property {() => any} read the reader's answer, as saved
 * @property {(value: any) => void} restore put a saved answer back
 * @property {() => string} missing what to do before the answer can be checked, or ""
 * @property {() => Verdict} grade mark each part of the answer, and say whether it is right
 * @property {() => void} clear remove the marks
 * @property {() => void} focus focus the first control
 * @property {() => void} [reset] back to the question as the build wrote it
 * @property {(answer: Answer) => void} [load] apply what a saved answer carries besides its value (a variant)
 */

const STAGE_TEXT = { runtime: "Starting Python in your browser…", package: "Loading the calculators…" };
const SEED_KEY = "quiz-order-seed"; // this reader's own number, from which each question's order of options is drawn

/** This reader's seed, made once and kept in this browser; null when storage is off (the build's order stays). */
function readerSeed() {
  try {
    let seed = localStorage.getItem(SEED_KEY);
    if (!seed) {
      seed = String(crypto.getRandomValues(new Uint32Array(1))[0]);
      localStorage.setItem(SEED_KEY, seed);
    }
    return seed;
  } catch {
    return null;
  }
}

/**
 * A shuffle of `count` options that is the same every time for the same text (FNV-1a, then mulberry32).
 * @param {number} count @param {string} text @returns {number[]}
 */
function shuffled(count, text) {
  let state = 0x811c9dc5;
  for (const char of text) state = Math.imul(state ^ /** @type {number} */ (char.codePointAt(0)), 0x01000193);
  const random = () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const order = [...Array(count).keys()];
  for (let i = count - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [order[i], order[j]] = [order[j], order[i]];
  }
  return order;
}

/**
 * Show a question's options in this reader's order: stable across their reloads, its own for every reader, and
 * never the author's (where the right answer may always come first). Answers are saved by option, not by place.
 * @param {HTMLElement} list @param {string} selector the options, each with `attribute` holding its index
 * @param {string} attribute @param {string} salt
 */
function shuffleOptions(list, selector, attribute, salt) {
  const seed = readerSeed();
  if (seed === null) return;
  const options = /** @type {HTMLElement[]} */ ([...list.querySelectorAll(selector)]);
  const byIndex = new Map(options.map((option) => [Number(option.getAttribute(attribute)), option]));
  const order = shuffled(options.length, `${seed}:${salt}`);
  list.append(.../** @type {HTMLElement[]} */ (order.map((index) => byIndex.get(index)).filter(Boolean)));
}

/**
 * Make each quiz element answerable; called for every page Material shows.
 * @param {HTMLElement[]} elements
 * @param {number} generation the page's number, for replies from the worker
 */
export function mountQuizzes(elements, generation) {
  for (const element of elements) mountQuiz(element, generation);
}

/** This quiz's saved progress, if it is for this version of the quiz. @param {string} key @param {string} version @returns {Progress} */
function load(key, version) {
  const saved = loadProgress(key);
  if (saved && saved.version === version && saved.answers) return /** @type {Progress} */ (saved);
  return { version, current: 0, answers: {} };
}

/** @param {string} tag @param {string} className @param {string} text */
function element(tag, className, text) {
  const node = document.createElement(tag);
  node.className = className;
  node.textContent = text;
  return node;
}

/** A verdict line with its symbol hidden from screen readers (the words carry the meaning). @param {boolean} right @param {string} text */
function verdictLine(right, text) {
  const line = element("p", `quiz-verdict ${right ? "quiz-right" : "quiz-wrong"}`, "");
  line.append(element("span", "quiz-symbol", right ? "✓ " : "✗ "), text);
  line.firstElementChild?.setAttribute("aria-hidden", "true");
  return line;
}

/** @param {HTMLElement} root @param {number} generation */
function mountQuiz(root, generation) {
  if (root.dataset.mounted) return;
  root.dataset.mounted = "true";
  /** @type {{questions: QuestionData[]}} */
  const data = JSON.parse(root.dataset.quizData ?? '{"questions": []}');
  const key = root.dataset.quizKey ?? `quiz:${location.pathname}#${root.dataset.quiz}`;
  const forms = /** @type {HTMLFormElement[]} */ ([...root.querySelectorAll(".quiz-question")]);
  const footer = /** @type {HTMLElement} */ (root.querySelector(".quiz-footer"));
  const nav = /** @type {HTMLElement} */ (root.querySelector(".quiz-nav"));
  const previous = /** @type {HTMLButtonElement} */ (root.querySelector(".quiz-prev"));
  const next = /** @type {HTMLButtonElement} */ (root.querySelector(".quiz-next"));
  const score = /** @type {HTMLElement} */ (root.querySelector(".quiz-score"));
  const resetButton = /** @type {HTMLButtonElement} */ (root.querySelector(".quiz-reset"));
  const undo = /** @type {HTMLElement} */ (root.querySelector(".quiz-undo"));
  const undoButton = /** @type {HTMLButtonElement} */ (undo.querySelector("button"));
  let progress = load(key, root.dataset.quizVersion ?? "");
  /** @type {Progress | null} */
  let beforeReset = null; // what "Undo reset" brings back, until the reader answers again

  function saveProgress() {
    showScore();
    save(key, progress);
  }
  function forgetUndo() {
    beforeReset = null;
    undo.hidden = true;
    /** @type {HTMLElement} */ (undo.querySelector("[role=status]")).textContent = "";
  }
  const context = {
    answers: () => progress.answers,
    changed: () => {
      forgetUndo();
      saveProgress();
    },
    generation,
  };
  forms.forEach((form, index) => {
    const spec = data.questions[index];
    if (spec.kind === "numeric" || spec.shuffle === false) return;
    const salt = `${key}#${spec.id}`;
    const choices = /** @type {HTMLElement | null} */ (form.querySelector(".quiz-choices"));
    if (choices) shuffleOptions(choices, ".quiz-choice", "data-choice", salt);
    const pool = /** @type {HTMLElement | null} */ (form.querySelector(".quiz-pool .quiz-items"));
    if (pool) shuffleOptions(pool, ".quiz-slot", "data-item", salt);
  });
  const questions = forms.map((form, index) => mountQuestion(form, data.questions[index], context));

  function showScore() {
    const answers = Object.values(progress.answers);
    const right = answers.filter((answer) => answer.correct).length;
    const done = answers.filter((answer) => answer.checked).length === forms.length;
    score.textContent = `Score: ${right} of ${forms.length}` + (done ? ". You have answered every question." : "");
  }

  /** @param {number} index @param {boolean} focus */
  function show(index, focus) {
    progress.current = Math.max(0, Math.min(index, forms.length - 1));
    forms.forEach((form, position) => (form.hidden = position !== progress.current));
    previous.disabled = progress.current === 0;
    next.disabled = progress.current === forms.length - 1;
    if (focus) /** @type {HTMLElement} */ (forms[progress.current].querySelector(".quiz-legend")).focus();
  }

  previous.addEventListener("click", () => {
    show(progress.current - 1, true);
    save(key, progress);
  });
  next.addEventListener("click", () => {
    show(progress.current + 1, true);
    save(key, progress);
  });
  // A reset clears every answer at once, so it can be undone: the button that undoes it takes the focus.
  resetButton.addEventListener("click", () => {
    beforeReset = progress;
    progress = { version: progress.version, current: 0, answers: {} };
    for (const question of questions) question.reset();
    show(0, false);
    saveProgress();
    undo.hidden = false;
    /** @type {HTMLElement} */ (undo.querySelector("[role=status]")).textContent = "Every answer was cleared.";
    undoButton.focus();
  });
  undoButton.addEventListener("click", () => {
    if (!beforeReset) return;
    progress = beforeReset;
    forgetUndo();
    for (const question of questions) question.restore();
    show(progress.current, true);
    saveProgress();
  });

  for (const question of questions) question.restore();
  nav.hidden = forms.length < 2;
  footer.hidden = false;
  /** @type {HTMLElement} */ (root.querySelector(".quiz-note")).hidden = true;
  show(progress.current, false);
  showScore();
  // Another tab answered or reset this quiz: show its answers merged with ours (progress.js merged them).
  const stop = watch(key, () => {
    if (!root.isConnected) return stop();
    progress = { ...load(key, progress.version), current: progress.current };
    forgetUndo();
    for (const question of questions) {
      question.reset();
      question.restore();
    }
    show(progress.current, false);
    showScore();
  });
}

/**
 * The flow every question shares: check, feedback, try again, and saving the answer.
 * @param {HTMLFormElement} form
 * @param {QuestionData} spec
 * @param {{answers: () => Record<string, Answer>, changed: () => void, generation: number}} context
 */
function mountQuestion(form, spec, context) {
  const fieldset = /** @type {HTMLFieldSetElement} */ (form.querySelector("fieldset"));
  const check = /** @type {HTMLButtonElement} */ (form.querySelector(".quiz-check"));
  const retry = /** @type {HTMLButtonElement} */ (form.querySelector(".quiz-retry"));
  const feedback = /** @type {HTMLElement} */ (form.querySelector(".quiz-feedback"));
  const answer = () => (context.answers()[spec.id] ??= {});
  const changed = () => {
    if (!answer().checked) {
      answer().value = kind.read();
      context.changed();
    }
  };
  /** @type {Kind} */
  const kind =
    spec.kind === "sort"
      ? sortKind(form, spec, changed)
      : spec.kind === "numeric"
        ? numericKind(form, spec, context, answer, () => render())
        : choiceKind(form, spec);

  /** Show the saved state of this question: its answer, and its verdict if it was checked. */
  function render() {
    const saved = answer();
    kind.clear();
    feedback.replaceChildren();
    const checked = Boolean(saved.checked);
    if (checked) showVerdict(kind.grade());
    fieldset.disabled = checked;
    check.hidden = checked;
    retry.hidden = !checked;
  }

  /** @param {Verdict} verdict */
  function showVerdict({ correct, details }) {
    feedback.replaceChildren(verdictLine(correct, correct ? "Correct." : "Not quite."));
    for (const detail of details) feedback.append(element("p", "quiz-detail", detail));
    if (spec.explanation) feedback.append(element("p", "quiz-explanation", spec.explanation));
  }

  form.addEventListener("submit", (event) => {
    event.preventDefault();
    if (answer().checked) return;
    const missing = kind.missing();
    if (missing) {
      feedback.replaceChildren(element("p", "quiz-missing", missing));
      return;
    }
    const verdict = kind.grade();
    Object.assign(answer(), { value: kind.read(), checked: true, correct: verdict.correct });
    showVerdict(verdict);
    fieldset.disabled = true;
    check.hidden = true;
    retry.hidden = false;
    retry.focus();
    context.changed();
  });
  retry.addEventListener("click", () => {
    Object.assign(answer(), { checked: false, correct: false });
    render();
    kind.focus();
    context.changed();
  });
  form.addEventListener("input", changed);
  form.addEventListener("change", changed);

  return {
    restore() {
      const saved = answer();
      kind.load?.(saved);
      if (saved.value !== undefined) kind.restore(saved.value);
      render();
    },
    reset() {
      kind.reset?.();
      kind.restore(undefined);
      render();
    },
  };
}

/** Single choice (radio buttons) and multiple choice (checkboxes). @param {HTMLFormElement} form @param {ChoiceData} spec @returns {Kind} */
function choiceKind(form, spec) {
  const inputs = /** @type {HTMLInputElement[]} */ ([...form.querySelectorAll(".quiz-choice input")]);
  const chosen = () => inputs.filter((input) => input.checked).map((input) => Number(input.value));
  return {
    read: chosen,
    restore(value) {
      for (const input of inputs) input.checked = Array.isArray(value) && value.includes(Number(input.value));
    },
    missing: () =>
      chosen().length ? "" : spec.kind === "single" ? "Choose an answer first." : "Choose at least one answer first.",
    grade() {
      const picked = chosen();
      for (const input of inputs) {
        const index = Number(input.value);
        const mark = /** @type {HTMLElement} */ (input.closest(".quiz-choice")?.querySelector(".quiz-mark"));
        if (!picked.includes(index)) continue;
        const right = spec.correct.includes(index);
        mark.replaceChildren(verdictLine(right, right ? "A right answer." : "Not a right answer."));
        if (spec.choices[index]) mark.append(element("span", "quiz-why", spec.choices[index]));
        mark.hidden = false;
      }
      const hits = picked.filter((index) => spec.correct.includes(index)).length;
      const correct = hits === spec.correct.length && picked.length === spec.correct.length;
      const details =
        spec.kind === "multiple" && !correct
          ? [
              `${hits} of your ${picked.length === 1 ? "1 choice" : `${picked.length} choices`} ` +
                `${hits === 1 ? "is" : "are"} right; ` +
                (spec.correct.length === 1 ? "there is 1 right answer." : `there are ${spec.correct.length} right answers.`),
            ]
          : [];
      return { correct, details };
    },
    clear() {
      for (const mark of form.querySelectorAll(".quiz-choice .quiz-mark")) {
        mark.replaceChildren();
        /** @type {HTMLElement} */ (mark).hidden = true;
      }
    },
    focus: () => (inputs.find((input) => input.checked) ?? inputs[0])?.focus(),
  };
}

/**
 * A number worked out by the reader, graded against the answer the build (or the worker, for new numbers) computed.
 * @param {HTMLFormElement} form
 * @param {NumericData} spec
 * @param {{changed: () => void, generation: number}} context
 * @param {() => Answer} answer
 * @param {() => void} render
 * @returns {Kind}
 */
function numericKind(form, spec, context, answer, render) {
  const input = /** @type {HTMLInputElement} */ (form.querySelector(".quiz-numeric input"));
  const text = /** @type {HTMLElement} */ (form.querySelector(".quiz-text"));
  const status = /** @type {HTMLElement} */ (form.querySelector(".quiz-status"));
  const feedback = /** @type {HTMLElement} */ (form.querySelector(".quiz-feedback"));
  const newNumbers = /** @type {HTMLButtonElement | null} */ (form.querySelector(".quiz-new"));
  /** @type {Variant} */
  let current = spec;

  /** @param {Variant} variant */
  function apply(variant) {
    current = variant;
    text.textContent = variant.text;
    form.dataset.inputs = JSON.stringify(variant.inputs);
  }

  /**
   * The reader's number in the question's unit (grading.js: a decimal comma, grouped thousands, the unit or another
   * prefix of it), or what to do instead. @returns {{value: number} | {error: string}}
   */
  function given() {
    try {
      return { value: readAnswer(input.value, spec.unit) };
    } catch (error) {
      if (!(error instanceof NumberError)) throw error;
      return { error: `${error.message}.` };
    }
  }

  if (newNumbers && spec.variant) {
    newNumbers.hidden = false;
    newNumbers.addEventListener("click", async () => {
      newNumbers.disabled = true;
      status.textContent = "Making new numbers…";
      /** @type {(() => void) | null} */
      let stopWatching = null;
      try {
        const runtime = await import("./runtime.js");
        stopWatching = runtime.watchRuntime(({ stage }) => {
          if (stage in STAGE_TEXT) status.textContent = STAGE_TEXT[/** @type {"runtime" | "package"} */ (stage)];
        });
        runtime.setPageGeneration(context.generation);
        const seed = crypto.getRandomValues(new Uint32Array(1))[0];
        /** @type {Variant | null} */
        const variant = await runtime.callPython("quiz_variant", { question: spec.variant, seed });
        if (!variant || !form.isConnected) return;
        apply(variant);
        Object.assign(answer(), { variant, value: "", checked: false, correct: false });
        input.value = "";
        render();
        status.textContent = "";
        feedback.replaceChildren(element("p", "quiz-detail", "New numbers: read the question again."));
        input.focus();
        context.changed();
      } catch (error) {
        status.textContent =
          `New numbers need Python in your browser, which could not start (${/** @type {Error} */ (error).message}). ` +
          "The question as written still works.";
      } finally {
        stopWatching?.();
        newNumbers.disabled = false;
      }
    });
  }

  return {
    read: () => input.value,
    restore(value) {
      input.value = typeof value === "string" ? value : "";
    },
    missing: () => {
      const read = given();
      return "error" in read ? read.error : "";
    },
    grade() {
      const read = given();
      const correct = "value" in read && allows(read.value, current.answer, spec.tolerance);
      return { correct, details: correct ? [`The answer is ${current.answer_text}.`] : [] };
    },
    clear() {},
    focus: () => input.focus(),
    reset() {
      apply(spec);
      status.textContent = "";
    },
    load(saved) {
      if (saved.variant) apply(saved.variant);
    },
  };
}

/**
 * Items to sort into buckets: drag with a mouse, tap an item then a bucket, or use the keyboard (Enter or Space
 * picks an item up, arrow keys or Tab reach a bucket, Enter drops it there, Escape cancels). Every move is announced.
 * @param {HTMLFormElement} form
 * @param {SortData} spec
 * @param {() => void} changed
 * @returns {Kind}
 */
function sortKind(form, spec, changed) {
  const sort = /** @type {HTMLElement} */ (form.querySelector(".quiz-sort"));
  const announcer = /** @type {HTMLElement} */ (form.querySelector(".quiz-announce"));
  const check = /** @type {HTMLButtonElement} */ (form.querySelector(".quiz-check"));
  // In the order shown (this reader's), and by item index for the answer key.
  const shown = /** @type {HTMLElement[]} */ ([...sort.querySelectorAll(".quiz-slot")]);
  const slots = [...shown].sort((a, b) => Number(a.dataset.item) - Number(b.dataset.item));
  const zones = /** @type {HTMLElement[]} */ ([...sort.querySelectorAll(".quiz-zone")]);
  const pool = /** @type {HTMLElement} */ (sort.querySelector(".quiz-pool"));
  // Arrow keys visit the buckets first, then the pool.
  const targets = /** @type {HTMLButtonElement[]} */ ([
    ...sort.querySelectorAll(".quiz-bucket .quiz-target"),
    pool.querySelector(".quiz-target"),
  ]);
  /** @type {number | null} */
  let held = null;
  /** @type {{index: number, x: number, y: number, moved: boolean} | null} */
  let drag = null;
  let suppressClick = false;

  const button = (/** @type {number} */ index) => /** @type {HTMLButtonElement} */ (slots[index].querySelector(".quiz-item"));
  const label = (/** @type {number} */ index) => button(index).textContent ?? "";
  const zoneOf = (/** @type {HTMLElement} */ node) => /** @type {HTMLElement} */ (node.closest(".quiz-zone"));
  const zoneName = (/** @type {HTMLElement} */ zone) => zone.querySelector(".quiz-target")?.textContent ?? "";
  const unsorted = () => /** @type {HTMLElement[]} */ ([...pool.querySelectorAll(".quiz-slot")]);

  /** @param {string} message */
  function announce(message) {
    // Cleared first, so that the same sentence twice is read twice.
    announcer.textContent = "";
    requestAnimationFrame(() => (announcer.textContent = message));
  }

  /** @param {number} index */
  function pick(index) {
    if (held !== null) button(held).setAttribute("aria-pressed", "false");
    held = index;
    button(index).setAttribute("aria-pressed", "true");
    sort.classList.add("quiz-holding");
    const names = zones.filter((zone) => zone !== pool).map(zoneName);
    announce(`Picked up “${label(index)}”. Choose its bucket: ${names.join(" or ")}. Escape cancels.`);
  }

  function letGo() {
    if (held !== null) button(held).setAttribute("aria-pressed", "false");
    held = null;
    sort.classList.remove("quiz-holding");
    for (const zone of zones) zone.classList.remove("quiz-over");
  }

  /** @param {boolean} refocus */
  function cancel(refocus) {
    if (held === null) return;
    const index = held;
    letGo();
    announce(`“${label(index)}” stays in ${zoneName(zoneOf(slots[index]))}.`);
    if (refocus) button(index).focus();
  }

  /** @param {HTMLElement} zone @param {boolean} byKeyboard */
  function drop(zone, byKeyboard) {
    if (held === null) return;
    const index = held;
    letGo();
    /** @type {HTMLElement} */ (zone.querySelector(".quiz-items")).append(slots[index]);
    const left = unsorted().length;
    const rest = left ? `${left} left to sort.` : "Every item is placed: check your answer.";
    announce(`“${label(index)}” placed in ${zoneName(zone)}. ${rest}`);
    changed();
    if (byKeyboard) {
      const following = unsorted()[0];
      (following ? button(slots.indexOf(following)) : check).focus();
    }
  }

  /** The zone under the pointer, looking through the item being dragged. @param {number} x @param {number} y */
  function zoneAt(x, y) {
    const below = document.elementsFromPoint(x, y).find((node) => drag && !slots[drag.index].contains(node));
    const zone = /** @type {HTMLElement | null} */ (below?.closest(".quiz-zone") ?? null);
    return zone && sort.contains(zone) ? zone : null;
  }

  slots.forEach((slot, index) => {
    const item = button(index);
    item.addEventListener("click", (event) => {
      // Only the pointer's click that ends a drag is swallowed: a key's click (detail 0) always picks.
      if (suppressClick && event.detail !== 0) {
        suppressClick = false;
        return;
      }
      if (held === index) cancel(true);
      else pick(index);
    });
    item.addEventListener("pointerdown", (event) => {
      suppressClick = false;
      if (event.pointerType !== "mouse" || event.button !== 0) return;
      drag = { index, x: event.pageX, y: event.pageY, moved: false };
      item.setPointerCapture(event.pointerId);
    });
    item.addEventListener("pointermove", (event) => {
      if (!drag || drag.index !== index) return;
      const dx = event.pageX - drag.x;
      const dy = event.pageY - drag.y;
      if (!drag.moved && Math.hypot(dx, dy) < 6) return;
      if (!drag.moved) {
        drag.moved = true;
        pick(index);
        slot.classList.add("quiz-dragging");
      }
      item.style.transform = `translate(${dx}px, ${dy}px)`;
      // Near the top or bottom of the window, scroll, so that a bucket off screen can be reached.
      if (event.clientY < 40) window.scrollBy(0, -16);
      else if (event.clientY > innerHeight - 40) window.scrollBy(0, 16);
      const over = zoneAt(event.clientX, event.clientY);
      for (const zone of zones) zone.classList.toggle("quiz-over", zone === over);
    });
    /** @param {PointerEvent} event */
    const release = (event) => {
      if (!drag || drag.index !== index) return;
      const { moved } = drag;
      const zone = event.type === "pointerup" ? zoneAt(event.clientX, event.clientY) : null;
      drag = null;
      item.style.transform = "";
      slot.classList.remove("quiz-dragging");
      if (item.hasPointerCapture(event.pointerId)) item.releasePointerCapture(event.pointerId);
      if (!moved) return;
      // The click that ends a drag is not a pick. It may land on a bucket rather than the item, so the flag only
      // lives until the events of this release are done.
      suppressClick = event.type === "pointerup";
      setTimeout(() => (suppressClick = false));
      if (zone) drop(zone, false);
      else cancel(false);
    };
    item.addEventListener("pointerup", release);
    item.addEventListener("pointercancel", release);
  });

  for (const target of targets) {
    target.addEventListener("click", (event) => {
      if (held === null) announce("Pick an item first, then its bucket.");
      else drop(zoneOf(target), event.detail === 0); // detail 0: Enter or Space, not a pointer
    });
  }
  for (const zone of zones) {
    // A tap anywhere in a bucket drops the picked item there.
    zone.addEventListener("click", (event) => {
      const target = /** @type {HTMLElement} */ (event.target);
      if (held !== null && !target.closest(".quiz-item, .quiz-target")) drop(zone, false);
    });
  }
  sort.addEventListener("keydown", (event) => {
    if (held === null) return;
    if (event.key === "Escape") {
      event.preventDefault();
      cancel(true);
      return;
    }
    const step = { ArrowRight: 1, ArrowDown: 1, ArrowLeft: -1, ArrowUp: -1 }[event.key];
    if (!step) return;
    event.preventDefault();
    const at = targets.indexOf(/** @type {HTMLButtonElement} */ (document.activeElement));
    const to = at === -1 ? (step > 0 ? 0 : targets.length - 1) : (at + step + targets.length) % targets.length;
    targets[to].focus();
  });

  return {
    read: () =>
      Object.fromEntries(
        slots.map((slot, index) => [index, zoneOf(slot).dataset.zone ?? ""]).filter(([, zone]) => zone !== ""),
      ),
    restore(value) {
      letGo();
      for (const slot of shown) {
        const index = Number(slot.dataset.item);
        const zone = zones.find((candidate) => candidate.dataset.zone === (value?.[index] ?? "")) ?? pool;
        /** @type {HTMLElement} */ (zone.querySelector(".quiz-items")).append(slot);
      }
    },
    missing() {
      const left = unsorted().length;
      return left ? `Place every item in a bucket first (${left} left).` : "";
    },
    grade() {
      letGo();
      let right = 0;
      slots.forEach((slot, index) => {
        const item = spec.items[index];
        const ok = zoneOf(slot).dataset.zone === item.bucket;
        right += ok ? 1 : 0;
        slot.classList.add(ok ? "quiz-slot-right" : "quiz-slot-wrong");
        const mark = /** @type {HTMLElement} */ (slot.querySelector(".quiz-mark"));
        mark.replaceChildren(verdictLine(ok, ok ? "Right bucket." : "Not this bucket."));
        if (item.explanation) mark.append(element("span", "quiz-why", item.explanation));
        mark.hidden = false;
      });
      return { correct: right === slots.length, details: [`${right} of ${slots.length} items are in the right bucket.`] };
    },
    clear() {
      for (const slot of slots) {
        slot.classList.remove("quiz-slot-right", "quiz-slot-wrong");
        const mark = /** @type {HTMLElement} */ (slot.querySelector(".quiz-mark"));
        mark.replaceChildren();
        mark.hidden = true;
      }
    },
    focus: () => button(slots.indexOf(unsorted()[0] ?? slots[0])).focus(),
  };
}
