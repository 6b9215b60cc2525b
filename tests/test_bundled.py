"""The five bundled games are the samples: each is checked, built and read back.

Expected texts and counts come from the specs and the rulebook numbers in ``expect:``, never
from the engine; what is printed is read from the PDF.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pdfplumber
import pytest
import yaml
from pypdf import PdfReader

REPO = Path(__file__).resolve().parent.parent
BUNDLED = REPO / "components"
GAMES = sorted(p.name for p in BUNDLED.iterdir() if (p / "game.yaml").is_file())
EDGE = 5.0
MM = 25.4 / 72


def squash(text: str) -> str:
    """Text without icon codes, bold marks or white space, to compare wrapped text."""
    text = re.sub(r":[a-z0-9-]+:|\*\*", "", str(text))
    return re.sub(r"\s+", "", text)


def spec(game: str, name: str) -> dict:
    return yaml.safe_load((BUNDLED / game / name).read_text(encoding="utf-8"))


@pytest.fixture(scope="module")
def built(bundled_build) -> Path:
    return bundled_build("a4")


def manifest(built: Path, game: str) -> dict:
    return json.loads((built / game / "manifest.json").read_text(encoding="utf-8"))


def test_all_five_games_are_bundled():
    assert GAMES == [
        "candiescollectors",
        "chaos-cove",
        "chocolate-coin",
        "chocolate-market",
        "schokoly",
    ]


def test_every_bundled_game_passes_the_check_in_every_language(pnp):
    """Counts, text fit, printing and legibility at the 6 pt floor, in each language."""
    result = pnp("check", "--components", BUNDLED, "--lang", "all")
    assert result.exit_code == 0, result.output
    assert "MISMATCH" not in result.output
    assert "does not fit" not in result.stderr and "under 6 pt" not in result.stderr
    assert result.output.count("no text under 6 pt") == sum(
        len(spec(game, "game.yaml").get("languages", ["en"])) for game in GAMES
    )
    assert "lowered" not in result.output


# every print mode the check simulates: paper, duplex edge, back offset, fold, ink saver
CHECK_MODES = {
    "a4-long": ("--paper", "a4"),
    "a4-short": ("--paper", "a4", "--duplex", "short"),
    "a4-offset": ("--paper", "a4", "--back-offset", "1.5,-0.5"),
    "a4-short-offset": ("--paper", "a4", "--duplex", "short", "--back-offset", "-1,1.5"),
    "a4-fold": ("--paper", "a4", "--layout", "fold"),
    "a4-ink-saver": ("--paper", "a4", "--ink-saver"),
    "letter-short": ("--paper", "letter", "--duplex", "short"),
    "letter-fold": ("--paper", "letter", "--layout", "fold"),
    "a4-letter-short": ("--paper", "a4-letter", "--duplex", "short"),
    "a3-short": ("--paper", "a3", "--duplex", "short"),
    "a3-fold": ("--paper", "a3", "--layout", "fold"),
}
FINDINGS = (
    "prints wrong",  # a back off its front, a mark on a piece it is not part of, the margin
    "low contrast",
    "does not fit",
    "cover each other",
    "text under 6 pt:",
    "not translated",
    "MISMATCH",
)


@pytest.mark.parametrize("mode", CHECK_MODES)
def test_every_bundled_game_passes_every_rule_in_every_mode_and_language(pnp, mode):
    """Counts, fit, printing (backs, marks behind pieces, the margin), legibility, contrast
    and translations, for every game in every language it declares, printed each way; no
    player colours alike without marks of their own."""
    result = pnp("check", "--components", BUNDLED, "--lang", "all", *CHECK_MODES[mode])
    assert result.exit_code == 0, result.output
    for finding in FINDINGS:
        assert finding not in result.stderr, (finding, result.stderr)
    assert "warning: player colours" not in result.stderr
    languages = sum(len(spec(game, "game.yaml").get("languages", ["en"])) for game in GAMES)
    assert result.output.count("every text in contrast with its ground") == languages


@pytest.mark.parametrize("game", GAMES)
def test_every_pack_says_what_the_edition_authored(built, game):
    """'About this edition' follows the contents and carries the game's and every
    component's authored note, as the specs give them."""
    reader = PdfReader(built / game / f"{game}.pdf")
    opening = " ".join(" ".join(page.extract_text().split()) for page in reader.pages[:4])
    assert "About this edition" in opening
    notes = [spec(game, "game.yaml").get("authored")]
    notes += [spec(game, p.name).get("authored") for p in sorted((BUNDLED / game).glob("*.yaml"))]
    notes = [n for n in notes if n]
    assert len(notes) >= 3, "each bundled game states what was authored"
    for note in notes:
        words = " ".join(note.split())
        assert words[:60] in opening, words[:60]


@pytest.mark.parametrize("game", GAMES)
def test_every_rulebook_count_that_is_printed_matches(pnp, game):
    """Every expect: key whose component exists is 'ok' in the check table."""
    expect = spec(game, "game.yaml").get("expect", {})
    result = pnp("check", game, "--components", BUNDLED)
    rows = {line.split()[0]: line for line in result.output.splitlines() if line.startswith("  ")}
    for key, count in expect.items():
        assert key in rows, (key, result.output)
        row = rows[key]
        if "not yet specified" in row:
            continue
        assert re.search(rf"\b{count}\s+{count}\s+ok$", row), row


@pytest.mark.parametrize("game", GAMES)
def test_every_page_of_every_pack_keeps_the_margin(built, game):
    """Every manifest item lies inside the printable area of its page, and the manifest's
    page count is the PDF's."""
    data = manifest(built, game)
    reader = PdfReader(built / game / f"{game}.pdf")
    assert data["pages"] == len(reader.pages)
    width, height = data["paper_mm"]
    for item in data["items"]:
        assert item["x_mm"] >= EDGE - 0.01 and item["y_mm"] >= EDGE - 0.01, item
        assert item["x_mm"] + item["w_mm"] <= width - EDGE + 0.01, item
        assert item["y_mm"] + item["h_mm"] <= height - EDGE + 0.01, item


def _sheet_text(built: Path, game: str, component: str, columns: int = 1) -> str:
    """The text of a component's pages, each page read column by column (a line of one
    column never joined to the line beside it in the next)."""
    pages = sorted(
        {i["page"] for i in manifest(built, game)["items"] if i["component"] == component}
    )
    assert pages, component
    text = []
    with pdfplumber.open(built / game / f"{game}.pdf") as pdf:
        for number in pages:
            page = pdf.pages[number - 1]
            step = page.width / columns
            for column in range(columns):
                box = (column * step, 0, (column + 1) * step, page.height)
                text.append(page.crop(box).extract_text())
    return "".join(text)


def test_chocolate_coin_sheet_states_each_faction_win_condition(built):
    sheet = spec("chocolate-coin", "reference-sheet.yaml")
    printed = squash(_sheet_text(built, "chocolate-coin", "reference-sheet", sheet["columns"]))
    wins = {}
    for section in sheet["sections"]:
        for block in section["blocks"]:
            if "Wins at" in str(block.get("text", "")):
                wins[section["heading"]] = block["text"]
    assert len(wins) == 4, wins  # one per faction
    for points in ("15", "10", "8", "6"):  # the rulebook's win numbers
        assert any(f"Wins at {points} points" in text for text in wins.values()), points
    for heading, text in wins.items():
        assert squash(heading) in printed, heading
        assert squash(text) in printed, text


def card_text(chars: list[dict], rotation: int) -> str:
    """The text of a card's characters in the card's own reading order, when the card is
    turned on the page: lines are columns of characters, read along the card's up."""
    if rotation == 0:
        chars = sorted(chars, key=lambda c: (round(c["top"]), c["x0"]))
        return "".join(c["text"] for c in chars)
    direction = 1 if rotation == 90 else -1
    lines: list[list[dict]] = []
    for char in sorted(chars, key=lambda c: direction * c["x0"]):
        if lines and abs(lines[-1][0]["x0"] - char["x0"]) < 1.5:
            lines[-1].append(char)
        else:
            lines.append([char])
    return " ".join(
        "".join(c["text"] for c in sorted(line, key=lambda c: -direction * c["top"]))
        for line in lines
    )


def test_chocolate_coin_event_texts_on_cards_and_in_the_table(built):
    """Every event card prints its rank and both texts, and the reference sheet's table has a
    row with the same texts (read with pdfplumber's table extraction)."""
    deck = spec("chocolate-coin", "event-deck.yaml")
    cards = deck["cards"]
    assert len(cards) == 38
    data = manifest(built, "chocolate-coin")
    fronts = {
        i["name"]: i
        for i in data["items"]
        if i["component"] == "event-deck" and i["side"] == "front"
    }
    rows = []
    with pdfplumber.open(built / "chocolate-coin" / "chocolate-coin.pdf") as pdf:
        for card in cards:
            item = fronts[card["name"]]
            page = pdf.pages[item["page"] - 1]
            top = page.height - (item["y_mm"] + item["h_mm"]) / MM
            box = (
                item["x_mm"] / MM,
                top,
                (item["x_mm"] + item["w_mm"]) / MM,
                top + item["h_mm"] / MM,
            )
            text = squash(card_text(page.crop(box).chars, item["rotation"]))
            for field in ("faction", "other"):
                assert squash(card[field]) in text, (card["name"], field, text)
        pages = sorted({i["page"] for i in data["items"] if i["component"] == "reference-sheet"})
        for p in pages:
            for table in pdf.pages[p - 1].extract_tables():
                rows += [[squash(cell or "") for cell in row] for row in table]
    for card in cards:
        assert [squash(card["faction"]), squash(card["other"])] in [r[-2:] for r in rows], card


def test_chocolate_coin_event_deck_follows_the_recipe(pnp):
    result = pnp("check", "chocolate-coin", "--components", BUNDLED)
    assert result.exit_code == 0, result.output
    assert "recipes ok: event-deck" in result.output


def test_a_deliberately_long_text_fails_the_check(pnp, bundled_copy):
    """Lengthen one event text far beyond its card: the check names the card and fails."""
    path = bundled_copy / "chocolate-coin" / "event-deck.yaml"
    deck = path.read_text(encoding="utf-8")
    first = yaml.safe_load(deck)["cards"][0]
    long = " ".join([first["faction"]] * 12)
    path.write_text(deck.replace(first["faction"], long, 1), encoding="utf-8")
    result = pnp("check", "chocolate-coin", "--components", bundled_copy)
    assert result.exit_code == 1, result.output
    assert "does not fit" in result.stderr and first["name"] in result.stderr, result.stderr


def test_the_same_input_builds_the_same_bytes(pnp, tmp_path):
    """Output is byte-for-byte deterministic, so caches and diffs work: two builds of the same
    game in fresh folders give identical PDFs and manifests."""
    outputs = []
    for run in ("one", "two"):
        out = tmp_path / run
        result = pnp("build", "schokoly", "chocolate-market", "--components", BUNDLED, "--out", out)
        assert result.exit_code == 0, result.output
        outputs.append(out)
    for game in ("schokoly", "chocolate-market"):
        for name in (f"{game}.pdf", "manifest.json"):
            first = (outputs[0] / game / name).read_bytes()
            assert first == (outputs[1] / game / name).read_bytes(), (game, name)


def test_a_game_in_a_web_font_builds_the_same_bytes(tmp_path):
    """The Lanterns example prints in a WOFF2 font of its own, converted at every build:
    two builds a day apart (each a process of its own, its clock set) give identical PDFs;
    fontTools once stamped the converted font with the time, so each build embedded
    another font."""
    packs = []
    for run, now in (("one", 3_000_000_000), ("two", 3_000_086_400)):
        code = (
            "import sys\nfrom fontTools.ttLib.tables import _h_e_a_d\n"
            f"_h_e_a_d.timestampNow = lambda: {now}\n"
            "from generator.cli import main\n"
            f"sys.argv = ['pnp', '-q', 'build', 'lanterns', '--components', "
            f"{str(REPO / 'docs' / 'examples')!r}, '--out', {str(tmp_path / run)!r}]\n"
            "main()\n"
        )
        done = subprocess.run([sys.executable, "-c", code], cwd=REPO, capture_output=True)
        assert done.returncode == 0, done.stderr
        packs.append((tmp_path / run / "lanterns" / "lanterns.pdf").read_bytes())
    assert packs[0] == packs[1]


@pytest.mark.parametrize("game", GAMES)
def test_every_font_of_every_pack_is_embedded(built, game):
    """What print shops' preflight checks: no font left for the printer to substitute."""
    import pymupdf

    with pymupdf.open(built / game / f"{game}.pdf") as pdf:
        fonts = {font[3]: font[1] for page in pdf for font in page.get_fonts(full=True)}
    assert fonts and all(ext != "n/a" for ext in fonts.values()), fonts
    assert not any("Helvetica" in name or "Times" in name for name in fonts), fonts
