"""``pnp serve``'s page in a real browser (Debian's chromium, driven by Selenium through
chromedriver): it shows every piece of a bundled game, drawn as ``pnp build`` prints it
(screenshots compared with the built PDF), follows a spreadsheet saved on disk, shows a spec
error at its line and the pieces again once it is fixed, speaks German when asked and keeps
what it shows in its address. One server and one browser serve the whole module.

``make test`` installs chromium and chromium-driver where apt-get can; set PNP_SCREENSHOTS
to a folder to keep the screenshots the tests take."""

from __future__ import annotations

import io
import json
import os
import shutil
import tempfile
from pathlib import Path

import numpy as np
import pypdfium2 as pdfium
import pytest
from click.testing import CliRunner
from PIL import Image, ImageFilter
from serving import CSV_CARDS, card_row, make_games, serving, write_rows
from waiting import PATIENCE

from generator.cli import cli
from generator.plan.games import load_games, plan_games

CHROMIUM = Path("/usr/bin/chromium")
DRIVER = Path("/usr/bin/chromedriver")
ZOOM = 2.5  # the page's default size: CSS pixels per mm
WAIT = PATIENCE  # a safety cap: each step waits on what the page shows, not on time
TOLERANCE = 6  # mean difference (0-255) of a screenshot from the printed piece


def _browser_or_reason() -> str | None:
    if CHROMIUM.exists() and DRIVER.exists():
        return None
    if shutil.which("apt-get"):
        pytest.fail(
            "chromium or chromedriver is missing: `make test` installs them "
            "(apt-get install chromium chromium-driver)"
        )
    return "no chromium here and no apt-get to install it (Debian's chromium is needed)"


@pytest.fixture(scope="module")
def games(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return make_games(tmp_path_factory.mktemp("browser"))


@pytest.fixture(scope="module")
def server(games: Path, tmp_path_factory: pytest.TempPathFactory):
    cache = tmp_path_factory.mktemp("cache")
    with serving([games / "schokoly", games / "deck"], cache) as running:
        yield running


@pytest.fixture(scope="module")
def browser():
    reason = _browser_or_reason()
    if reason:
        pytest.skip(reason)
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    profile = tempfile.mkdtemp(prefix="pnp-chromium-")
    options = webdriver.ChromeOptions()
    options.binary_location = str(CHROMIUM)
    for argument in (
        "--headless=new",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--no-first-run",
        "--force-device-scale-factor=1",
        "--window-size=1366,900",
        f"--user-data-dir={profile}",
    ):
        options.add_argument(argument)
    driver = webdriver.Chrome(options=options, service=Service(str(DRIVER)))
    try:
        yield driver
    finally:
        driver.quit()
        shutil.rmtree(profile, ignore_errors=True)


@pytest.fixture(scope="module")
def screenshots(tmp_path_factory: pytest.TempPathFactory) -> Path:
    kept = os.environ.get("PNP_SCREENSHOTS")
    folder = Path(kept) if kept else tmp_path_factory.mktemp("screenshots")
    folder.mkdir(parents=True, exist_ok=True)
    return folder


LOADED = "return [...arguments[0].querySelectorAll('img')].every(i => i.complete && i.naturalWidth)"


def wait(driver, check, seconds: float = WAIT):  # noqa: ANN001, ANN201
    from selenium.webdriver.support.ui import WebDriverWait

    return WebDriverWait(driver, seconds, poll_frequency=0.05).until(lambda d: check(d))


def shown_pieces(driver) -> dict[tuple[str, str], dict]:  # noqa: ANN001
    """Every piece the page shows: its label, count and pictures, by (component, name)."""
    found = driver.execute_script(
        """return [...document.querySelectorAll('#pieces-view article.piece')].map(a => ({
            component: a.dataset.component, name: a.dataset.name,
            label: a.querySelector('.label').textContent,
            count: a.querySelector('.count').textContent,
            pictures: [...a.querySelectorAll('img')].map(i => i.getAttribute('src')),
            errors: [...a.querySelectorAll('.finding.error')].map(f => f.textContent)}))"""
    )
    return {(p["component"], p["name"]): p for p in found}


def all_pictures_loaded(driver) -> bool:  # noqa: ANN001
    return driver.execute_script(
        """const images = [...document.querySelectorAll('#main img')]
             .filter(i => i.closest('[hidden]') === null);
           return images.length > 0 && images.every(i => i.complete && i.naturalWidth > 0);"""
    )


def open_game(driver, server, query: str) -> None:  # noqa: ANN001
    driver.get(server.url + "?" + query)
    wait(driver, lambda d: shown_pieces(d) and all_pictures_loaded(d))


def screenshot(element) -> Image.Image:  # noqa: ANN001
    """The element as the page shows it: scrolled into view and its pictures loaded first
    (the page loads them lazily; a busy machine took a card down the page before its
    picture came, white)."""
    driver = element.parent
    driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", element)
    wait(driver, lambda d: d.execute_script(LOADED, element))
    return Image.open(io.BytesIO(element.screenshot_as_png)).convert("RGB")


def test_the_page_shows_every_piece_of_a_bundled_game(browser, server, games, screenshots):
    open_game(browser, server, "game=schokoly")
    (pack,) = plan_games(load_games(games, ("schokoly",)), None)
    designs = {(p.component.id, d.name): d for p in pack.components for d in p.designs}
    backs = {
        (p.piece.component, p.piece.name): bool(p.piece.back)
        for _, page in pack.numbered_pages()
        for p in page.placements
    }
    shown = shown_pieces(browser)
    assert set(shown) == set(designs)
    for key, design in designs.items():
        assert shown[key]["count"] == f"×{design.count}"
        if backs[key]:  # front and back side by side
            assert len(shown[key]["pictures"]) == 2, key
        else:  # a front (or a reference sheet's pages)
            assert len(shown[key]["pictures"]) >= 1, key
    assert browser.find_element("css selector", ".verdict").text == "✓ The check passes"
    browser.save_screenshot(str(screenshots / "schokoly-pieces.png"))


def _printed(build: Path, item: dict, size: tuple[int, int]) -> Image.Image:
    """A piece's side cut out of the built PDF's page at its trim box, turned upright and
    scaled to ``size``."""
    document = pdfium.PdfDocument(str(build / "schokoly.pdf"))
    scale = ZOOM * 25.4 / 72 * 4  # four times the page's pixels, then scaled down
    page = document[item["page"] - 1].render(scale=scale).to_pil().convert("RGB")
    document.close()
    px = ZOOM * 4
    left, right = item["x_mm"] * px, (item["x_mm"] + item["w_mm"]) * px
    top = page.height - (item["y_mm"] + item["h_mm"]) * px
    bottom = page.height - item["y_mm"] * px
    piece = page.crop((round(left), round(top), round(right), round(bottom)))
    if item["rotation"]:
        piece = piece.rotate(-item["rotation"], expand=True)
    return piece.resize(size, Image.Resampling.LANCZOS)


def _difference(shown: Image.Image, printed: Image.Image) -> float:
    """The mean difference (0-255) of two pictures of a piece, each softened by a pixel's
    blur and the best of the alignments a pixel apart (the browser scales the picture, the
    test cuts the page on whole pixels: an edge may fall a pixel over)."""
    a, b = (
        np.asarray(i.convert("RGB").filter(ImageFilter.GaussianBlur(1)), dtype=float)
        for i in (shown, printed.resize(shown.size))
    )
    shifts = [(dx, dy) for dx in (-1, 0, 1) for dy in (-1, 0, 1)]
    return min(
        float(np.abs(np.roll(a, (dy, dx), (0, 1))[2:-2, 2:-2] - b[2:-2, 2:-2]).mean())
        for dx, dy in shifts
    )


def test_what_the_page_shows_is_what_pnp_build_prints(
    browser, server, games, tmp_path, screenshots
):
    open_game(browser, server, "game=schokoly")
    built = CliRunner().invoke(cli, ["build", "schokoly", "--components", games, "--out", tmp_path])
    assert built.exit_code == 0, built.output
    manifest = json.loads((tmp_path / "schokoly" / "manifest.json").read_text(encoding="utf-8"))
    firsts = {}
    for item in manifest["items"]:
        firsts.setdefault((item["component"], item["name"], item["side"]), item)
    compared = []
    for name, side in (("card-01", "face"), ("card-01", "back"), ("card-17", "face")):
        art = browser.find_element(
            "css selector",
            f'article[data-name="{name}"] img[data-side="{side}"]',
        ).find_element("xpath", "..")
        shown = screenshot(art)
        shown.save(screenshots / f"schokoly-{name}-{side}.png")
        item = firsts[("miniature-cards", name, "front" if side == "face" else "back")]
        upright = item["h_mm"] if item["rotation"] % 180 else item["w_mm"]
        assert abs(shown.width - upright * ZOOM) <= 1  # true size: 2.5 px a mm
        printed = _printed(tmp_path / "schokoly", item, shown.size)
        printed.save(screenshots / f"schokoly-{name}-{side}-printed.png")
        compared.append((shown, printed))
    for shown, printed in compared:
        assert _difference(shown, printed) < TOLERANCE
    # the comparison tells pieces apart: card 1's front is not card 17's
    assert _difference(compared[0][0], compared[2][1]) > 5 * TOLERANCE


def test_sheets_are_shown_front_and_back_as_printed(browser, server, screenshots):
    browser.get(server.url + "?game=schokoly&view=sheets")
    sheets = wait(browser, lambda d: d.find_elements("css selector", "#sheets-view section.sheet"))
    for sheet in sheets:
        browser.execute_script("arguments[0].scrollIntoView()", sheet)
        wait(browser, lambda d, s=sheet: d.execute_script(LOADED, s))
    pages = [s.find_elements("css selector", "figure.page") for s in sheets]
    assert pages and all(len(p) == 2 for p in pages)  # double-sided: front beside back
    captions = [f.find_element("css selector", "figcaption").text for p in pages for f in p]
    assert captions[0].startswith("page 1") and captions[1].startswith("page 2 · back")
    browser.execute_script("window.scrollTo(0, 0)")
    browser.save_screenshot(str(screenshots / "schokoly-sheets.png"))


def test_a_saved_row_appears_on_its_card(browser, server, games, screenshots):
    from selenium.webdriver.support.ui import Select

    open_game(browser, server, "game=schokoly")
    Select(browser.find_element("id", "game")).select_by_value("deck")
    wait(browser, lambda d: ("cards", "card-1") in shown_pieces(d) and all_pictures_loaded(d))
    assert "game=deck" in browser.current_url
    before = shown_pieces(browser)
    assert len(before) == CSV_CARDS
    rows = [card_row(n) for n in range(1, CSV_CARDS + 1)]
    rows[1] = card_row(2, "Moonlit Harbour")
    write_rows(games / "deck", rows)
    try:
        after = wait(
            browser, lambda d: (s := shown_pieces(d)) and ("cards", "moonlit-harbour") in s and s
        )
        card = after[("cards", "moonlit-harbour")]
        assert card["label"] == "Moonlit Harbour"
        old = before[("cards", "card-2")]
        assert card["pictures"][0] != old["pictures"][0]  # a new front
        assert card["pictures"][1] == old["pictures"][1]  # the same back
        untouched = [k for k in before if k != ("cards", "card-2")]
        assert all(after[k]["pictures"] == before[k]["pictures"] for k in untouched)
        wait(browser, all_pictures_loaded)
        browser.save_screenshot(str(screenshots / "deck-after-save.png"))
    finally:
        write_rows(games / "deck", [card_row(n) for n in range(1, CSV_CARDS + 1)])
    wait(browser, lambda d: ("cards", "card-2") in shown_pieces(d))


def test_a_broken_spec_shows_its_line_and_the_fix_brings_the_pieces_back(
    browser, server, games, screenshots
):
    open_game(browser, server, "game=deck")
    spec = games / "deck" / "cards.yaml"
    good = spec.read_text(encoding="utf-8")
    line = next(n for n, text in enumerate(good.splitlines(), 1) if text.startswith("size:"))
    spec.write_text(good.replace("size: poker", "size: [poker"), encoding="utf-8")
    errors = browser.find_element("id", "errors")
    try:
        wait(browser, lambda d: errors.is_displayed() and "cards.yaml:" in errors.text)
        assert any(f"cards.yaml:{n}" in errors.text for n in (line, line + 1)), errors.text
        assert "last good render" in errors.text
        assert len(shown_pieces(browser)) == CSV_CARDS  # still shown beside the error
        verdict = browser.find_element("css selector", ".verdict").text
        assert verdict == "✗ The check fails", verdict  # the last good view passed: not now
        browser.save_screenshot(str(screenshots / "deck-spec-error.png"))
    finally:
        spec.write_text(good, encoding="utf-8")
    wait(browser, lambda d: not errors.is_displayed())
    assert len(shown_pieces(browser)) == CSV_CARDS
    rows = [card_row(n) for n in range(1, CSV_CARDS + 1)]
    rows[2][8] = "lots"  # card 3's count: not a number
    write_rows(games / "deck", rows)
    try:
        marked = wait(browser, lambda d: shown_pieces(d)[("cards", "card-3")]["errors"])
        assert "cards.csv:4" in marked[0] and "count" in marked[0]
    finally:
        write_rows(games / "deck", [card_row(n) for n in range(1, CSV_CARDS + 1)])
    wait(browser, lambda d: not errors.is_displayed())


def test_the_language_menu_switches_to_german_and_a_reload_keeps_it(browser, server, screenshots):
    from selenium.webdriver.support.ui import Select

    open_game(browser, server, "game=schokoly")
    labels = {p["label"] for p in shown_pieces(browser).values()}
    assert "Red" in labels and "Rot" not in labels
    Select(browser.find_element("id", "lang")).select_by_value("de")
    wait(browser, lambda d: "Rot" in {p["label"] for p in shown_pieces(d).values()})
    assert "lang=de" in browser.current_url
    browser.refresh()
    wait(browser, lambda d: shown_pieces(d) and all_pictures_loaded(d))
    labels = {p["label"] for p in shown_pieces(browser).values()}
    assert {"Rot", "Gelb", "Grün", "Blau"} <= labels and "Red" not in labels
    assert Select(browser.find_element("id", "lang")).first_selected_option.text == "de"
    browser.save_screenshot(str(screenshots / "schokoly-de.png"))
