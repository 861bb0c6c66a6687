// @ts-check
/** A quiz's questions that sort items into buckets, by pointer, by tap or from the keyboard. */
import { language, plural, t } from "./i18n.js";
import { explanation, spokenText, verdictLine } from "./quiz_marks.js";

/** @typedef {import("./contracts.js").SortData} SortData */
/** @typedef {import("./quiz.js").Kind} Kind */

/**
 * Items to sort into buckets: drag with a mouse, tap an item then a bucket, or use the keyboard (Enter or Space
 * picks an item up, arrow keys or Tab reach a bucket, Enter drops it there, Escape cancels). Every move is announced.
 * @param {HTMLFormElement} form
 * @param {SortData} spec
 * @param {() => void} changed
 * @returns {Kind}
 */
export function sortKind(form, spec, changed) {
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
  const label = (/** @type {number} */ index) => spokenText(button(index));
  const zoneOf = (/** @type {HTMLElement} */ node) => /** @type {HTMLElement} */ (node.closest(".quiz-zone"));
  const zoneName = (/** @type {HTMLElement} */ zone) => spokenText(/** @type {Element} */ (zone.querySelector(".quiz-target")));
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
    announce(t("quiz.sort.picked", { item: label(index), buckets: new Intl.ListFormat(language, { type: "disjunction" }).format(names) }));
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
    const rest = left ? plural("quiz.sort.left", left) : t("quiz.sort.done");
    announce(t("quiz.sort.placed", { item: label(index), bucket: zoneName(zone), rest }));
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
      if (held === null) announce(t("quiz.sort.first"));
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
    // Right to left (Material's direction, Arabic or Hebrew), the next bucket is the one to the left.
    const ahead = getComputedStyle(sort).direction === "rtl" ? -1 : 1;
    const step = { ArrowRight: ahead, ArrowDown: 1, ArrowLeft: -ahead, ArrowUp: -1 }[event.key];
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
      const placed = /** @type {Record<number, string> | undefined} */ (value); // as read() saved it: item -> bucket
      for (const slot of shown) {
        const index = Number(slot.dataset.item);
        const zone = zones.find((candidate) => candidate.dataset.zone === (placed?.[index] ?? "")) ?? pool;
        /** @type {HTMLElement} */ (zone.querySelector(".quiz-items")).append(slot);
      }
    },
    missing() {
      const left = unsorted().length;
      return left ? plural("quiz.sort.missing", left) : "";
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
        mark.replaceChildren(verdictLine(ok, t(ok ? "quiz.sort.right" : "quiz.sort.wrong")));
        const why = explanation(slot, "quiz-why");
        if (why) mark.append(why);
        mark.hidden = false;
      });
      return { correct: right === slots.length, details: [plural("quiz.sort.result", slots.length, { right })] };
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
