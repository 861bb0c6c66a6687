"""Where a page's blocks go under MkDocs (hosts/mkdocs_site.py): each block's token in the page's HTML replaced by its
content in one pass, and each calculator's slot in the written page filled with its HTML; a slot another plugin
removed is reported, not silently dropped."""

from __future__ import annotations

from mkdocs_calculators.hosts.mkdocs_site import TOKEN_PREFIX, fill_slots, put_in_place, slot

A, B, C = (TOKEN_PREFIX + digit * 32 for digit in "abc")


def test_a_token_in_a_paragraph_of_its_own_is_replaced_whole_and_elsewhere_in_place() -> None:
    html = f"<h2>One</h2>\n<p>{A}</p>\n<p>Before {B} after</p>\n<p>{C}</p>"
    placed = put_in_place(html, {A: "<section>a</section>", B: "<span>b</span>"})
    assert placed == f"<h2>One</h2>\n<section>a</section>\n<p>Before <span>b</span> after</p>\n<p>{C}</p>"


def test_nothing_to_put_leaves_the_page_as_it_is() -> None:
    html = f"<p>{A}</p>"
    assert put_in_place(html, {}) is html


def test_every_slot_is_filled_and_a_lost_one_is_named() -> None:
    written = f"<main>{slot(A)}<p>text</p>{slot(B)}{slot(A)}</main>"
    filled, lost = fill_slots(written, {A: "<form>a</form>", B: "<form>b</form>", C: "<form>c</form>"})
    assert filled == "<main><form>a</form><p>text</p><form>b</form><form>a</form></main>"
    assert lost == [C]  # its slot is not in the page: another plugin rewrote it


def test_a_slot_of_another_page_is_left_alone() -> None:
    written = f"<main>{slot(B)}</main>"
    assert fill_slots(written, {A: "<form>a</form>"}) == (written, [A])
