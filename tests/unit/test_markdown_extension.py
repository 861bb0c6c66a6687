"""The `calculators` Markdown extension outside any host (Python-Markdown alone) renders the blocks with the plugin's
own function, and `mkdocs-calculators` reads the book's options from mkdocs.yml as the plugin would."""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import markdown
import pytest

from mkdocs_calculators.hosts.cli import UsageError, main, read_options
from mkdocs_calculators.hosts.markdown import CalculatorsExtension, _lines_before
from tests.support import SECOND_BOOK


def test_the_extension_renders_the_second_books_calculator(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.syspath_prepend(str(SECOND_BOOK))
    md = markdown.Markdown(extensions=["calculators"], extension_configs={"calculators": {"package": "circuits"}})
    html = md.convert("# Ohm\n\n```calculator\nuse: ohms-law\nvolts: 9\nohms: 450\n```\n\nAfter.\n")
    assert re.findall(r'<output for="calc-1-form">([^<]*)</output>', html) == ["0.02 A", "0.18 W"]  # 9 V / 450 Ω
    assert "<p>After.</p>" in html and "use: ohms-law" not in html


def test_after_the_extension_another_books_calculator_computes_here(monkeypatch: pytest.MonkeyPatch) -> None:
    """The extension's compute process (the second book's) runs that book's code only while the extension renders a
    page (calckit.session): after it, nothing is sent there. A calculator of another book, or of none, computes in
    this interpreter, not in that process (which knows no `roofline`), nor does a calculator named as one of its
    book's."""
    from calckit import book
    from calckit.running import active_executor
    from calckit.spec import evaluate

    monkeypatch.syspath_prepend(str(SECOND_BOOK))
    md = markdown.Markdown(extensions=[CalculatorsExtension(package="circuits")])
    assert "0.02 A" in md.convert("```calculator\nuse: ohms-law\nvolts: 9\nohms: 450\n```\n")
    assert active_executor() is None
    roofline = book.load("calculators").calculator("roofline")
    assert evaluate(roofline, roofline.defaults).values["attainable"] > 0
    circuits = book.load("circuits")
    ohms_law = circuits.calculator("ohms-law")
    assert evaluate(ohms_law, {"volts": 9.0, "ohms": 450.0}).values["amps"] == pytest.approx(0.02)
    stand_in = dataclasses.replace(ohms_law, compute=lambda values: ohms_law.compute({**values, "volts": 18.0}))
    assert evaluate(stand_in, {"volts": 9.0, "ohms": 450.0}).values["amps"] == pytest.approx(0.04)
    # Nor is a function of another book that checks an exercise sent to it (which refused it as outside its package,
    # when unit tests ran before the build layer's): it is called here.
    from calckit import answers, running

    def here(path: str, arguments: Mapping[str, Any]) -> object:
        return answers.call_function(path, arguments, "calculators")

    case = {"ridge": 295.3, "d": 8192, "f": 28672, "weight_bytes": 2, "activation_bytes": 2}
    assert running.call_function("calculators.matmul.critical_batch", case, here) == pytest.approx(309.6512874339642)


def test_a_problem_without_a_host_names_the_text_and_its_line(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """Logged where logging has a handler (here pytest's; under Zensical, which has none, it is printed)."""
    monkeypatch.syspath_prepend(str(SECOND_BOOK))
    md = markdown.Markdown(extensions=[CalculatorsExtension(package="circuits", strict=False)])
    html = md.convert("Text.\n\n```calculator\nuse: ohms-law\nohms: 0\n```\n")
    message = "<markdown>:5: calculator 'ohms-law': 'ohms' must be > 0 (got 0)"
    assert [(record.levelname, record.getMessage()) for record in caplog.records] == [("ERROR", message)]
    assert "calc-broken" in html and "&lt;markdown&gt;:5:" in html


@pytest.mark.parametrize(
    ("body", "file_text", "before"),
    [
        ("# A\n\nx", "---\ntitle: A\n---\n# A\n\nx\n", 3),  # front matter: three lines above the text
        ("# A", "# A\n", 0),
        ("\n\n# A", "---\nt: 1\n---\n\n\n# A", 5),  # blank lines the host kept count as the file's
        ("# A", None, 0),
    ],
)
def test_lines_before_the_text_count_the_front_matter(body: str, file_text: str | None, before: int) -> None:
    assert _lines_before(body, file_text) == before


def test_options_come_from_the_plugin_or_else_the_extension(tmp_path: Path) -> None:
    config = tmp_path / "mkdocs.yml"
    config.write_text("site_name: x\nmarkdown_extensions:\n  - calculators:\n      package: circuits\n")
    options = read_options(config)
    assert (options.package, options.node_modules, options.docs_dir) == (
        "circuits",
        tmp_path / "node_modules",
        tmp_path / "docs",
    )
    config.write_text(
        "site_name: x\nplugins:\n  - calculators:\n      package: circuits\n      node_modules: ../nm\n"
        "      snapshot: false\nmarkdown_extensions:\n  - calculators:\n      package: circuit\n"
    )
    with pytest.raises(UsageError, match="names the package 'circuits' and the extension 'circuit'"):
        read_options(config)
    config.write_text(config.read_text().replace("package: circuit\n", "package: circuits\n"))
    assert read_options(config).node_modules == tmp_path / "../nm" and not read_options(config).snapshot


def test_a_configuration_without_the_plugin_or_the_extension(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "mkdocs.yml").write_text("site_name: x\n")
    assert main(["ship", str(tmp_path / "site"), "--config", str(tmp_path / "mkdocs.yml")]) == 1
    assert capsys.readouterr().err == (
        f"mkdocs-calculators: {tmp_path / 'mkdocs.yml'}: names neither the `calculators` plugin nor the "
        "`calculators` Markdown extension\n"
    )


def test_the_extension_speaks_the_books_language(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """Under Zensical the plugin's words follow the book's `theme.language` (read from mkdocs.yml beside the pages
    when the host gives none), or the extension's own `language`, with its `strings` on top; a mistake in those is
    said in place of every block, at its line."""
    monkeypatch.syspath_prepend(str(SECOND_BOOK))
    block = "```calculator\nuse: ohms-law\n```\n"
    monkeypatch.chdir(tmp_path)
    (tmp_path / "mkdocs.yml").write_text("theme:\n  language: de\n", encoding="utf-8")
    md = markdown.Markdown(extensions=[CalculatorsExtension(package="circuits")])
    assert "Auf Standardwerte zurücksetzen" in md.convert(block)
    md = markdown.Markdown(
        extensions=[CalculatorsExtension(package="circuits", language="fr", strings={"calculator.reset": "Défauts"})]
    )
    html = md.convert(block)
    assert ">Défauts</button>" in html and "Rechner" not in html and "Calculateur" in html
    wrong = CalculatorsExtension(package="circuits", strings={"calculator.rest": "X"}, strict=False)
    md = markdown.Markdown(extensions=[wrong])
    assert "unknown key &#x27;calculator.rest&#x27; (did you mean &#x27;calculator.reset&#x27;?)" in md.convert(block)
