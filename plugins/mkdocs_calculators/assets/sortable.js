// @ts-check
/**
 * Tables whose rows a reader can sort by any column (the chip database): each column heading becomes a button, the
 * sorted column says so through aria-sort, and numbers sort as numbers (a cell's data-value, when it has one).
 */

/** A cell's number: its data-value when the text carries marks (footnotes), else the first number in it; or NaN. @param {HTMLTableCellElement} cell */
function numberIn(cell) {
  if (cell.dataset.value !== undefined) return Number(cell.dataset.value);
  const match = (cell.textContent ?? "").replaceAll(",", "").match(/-?\d+(?:\.\d+)?/);
  return match ? Number(match[0]) : Number.NaN;
}

/** @param {HTMLTableElement} table @param {number} column @param {boolean} ascending */
function sortBy(table, column, ascending) {
  const body = table.tBodies[0];
  const rows = [...body.rows];
  const numeric = rows.some((row) => !Number.isNaN(numberIn(row.cells[column])));
  const key = (/** @type {HTMLTableRowElement} */ row) => {
    const cell = row.cells[column];
    return numeric ? numberIn(cell) : (cell.textContent ?? "").trim().toLowerCase();
  };
  rows.sort((a, b) => {
    const [x, y] = [key(a), key(b)];
    // Rows without a figure go last, whichever the direction.
    if (numeric && Number.isNaN(x)) return Number.isNaN(y) ? 0 : 1;
    if (numeric && Number.isNaN(y)) return -1;
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
