// @ts-check
/**
 * Tables whose rows a reader can sort by any column (the chip database): each column heading becomes a button, the
 * sorted column says so through aria-sort. A column of figures (cells with a data-value, which the build writes for
 * every number) sorts by those numbers; any other column sorts as text, so "Cerebras WSE-3" is not sorted by its 3.
 */

/** A figure cell's number (its data-value: the text carries source marks), or NaN for a cell without one ("—"). @param {HTMLTableCellElement} cell */
function numberIn(cell) {
  return cell.dataset.value !== undefined ? Number(cell.dataset.value) : Number.NaN;
}

/**
 * The text order, made at the first sort by a text column, not as the page loads: Chromium's first Intl.Collator loads
 * its collation data, 30 to 60 ms of the main thread on a desktop (four times that on a phone) while the page starts.
 * @type {Intl.Collator | undefined}
 */
let collator;

/** @param {HTMLTableElement} table @param {number} column @param {boolean} ascending */
function sortBy(table, column, ascending) {
  const body = table.tBodies[0];
  const rows = [...body.rows];
  const numeric = rows.some((row) => row.cells[column].dataset.value !== undefined);
  const text = (/** @type {HTMLTableRowElement} */ row) => (row.cells[column].textContent ?? "").trim();
  const byText = numeric ? null : (collator ??= new Intl.Collator(undefined, { numeric: true, sensitivity: "base" }));
  rows.sort((a, b) => {
    if (byText) {
      const order = byText.compare(text(a), text(b));
      return ascending ? order : -order;
    }
    const [x, y] = [numberIn(a.cells[column]), numberIn(b.cells[column])];
    // Rows without a figure go last, whichever the direction.
    if (Number.isNaN(x)) return Number.isNaN(y) ? 0 : 1;
    if (Number.isNaN(y)) return -1;
    const order = x < y ? -1 : x > y ? 1 : 0;
    return ascending ? order : -order;
  });
  body.append(...rows);
}

/** @param {HTMLTableElement[]} tables */
export function mountSortable(tables) {
  for (const table of tables) {
    if (table.dataset.sortableMounted) continue;
    table.dataset.sortableMounted = "true";
    const headings = [...(table.tHead?.rows[0]?.cells ?? [])];
    headings.forEach((heading, column) => {
      const button = document.createElement("button");
      button.type = "button";
      button.className = "calc-sort";
      button.append(...heading.childNodes);
      heading.append(button);
      button.addEventListener("click", () => {
        const ascending = heading.getAttribute("aria-sort") !== "ascending";
        for (const other of headings) other.removeAttribute("aria-sort");
        heading.setAttribute("aria-sort", ascending ? "ascending" : "descending");
        sortBy(table, column, ascending);
      });
    });
  }
}
