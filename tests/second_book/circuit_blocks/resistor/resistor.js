// @ts-check
/**
 * The second book's resistor blocks (circuit_blocks/resistor): each band says its colour as the pointer rests on it.
 * Written flat beside the plugin's modules in the site, so it imports them as "./status.js".
 */
import { claim } from "./status.js";

/** @param {HTMLElement[]} elements */
export function mountResistors(elements) {
  for (const root of elements) {
    if (!claim(root)) continue;
    for (const band of /** @type {HTMLElement[]} */ ([...root.querySelectorAll(".resistor-band")])) {
      band.title = band.dataset.colour ?? "";
    }
  }
}
