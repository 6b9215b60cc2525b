"""Arabic and Hebrew printed shaped and right to left: drawn text compared with HarfBuzz's own
shaping through Pillow's raqm layout (pixels), small games in each language built with the
stock card template and their glyphs read back from the PDF against HarfBuzz's, their text
read back by pypdfium2 in reading order, and right-to-left text boxes aligned from the right."""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pymupdf
import pypdfium2 as pdfium
import pytest
import uharfbuzz as hb
from lxml import etree
from PIL import Image, ImageDraw, ImageFont, features
from pixels import pdf_of, render
from reportlab.pdfbase.pdfmetrics import stringWidth

from generator.art import richtext
from generator.svg.compiler import compile_svg
from generator.svg.fonts import FONT_DIR, REGULAR, register_fonts
from generator.svg.pdf import TEXT
from generator.svg.safexml import SAFE_PARSER

SCALE = 4  # pixels per point of the renders compared
A4_WIDTH = 595.28  # points
SIZE = 24  # points: the text drawn
SHAPED_IOU = 0.8  # ink of our page and of raqm's: the same shapes, anti-aliased apart
UNSHAPED_IOU = 0.6  # letters drawn apart and left to right are far from it (measured 0.1-0.3)
LINES = {
    "arabic": "مرحبا بالعالم",
    "arabic with digits": "لدي 3 بطاقات و 25 نقطة",
    "lam-alef": "لا إله إلا الله",
    "hebrew": "שלום עולם 42",
    "hebrew with niqqud": "שָׁלוֹם עוֹלָם",
}


def ink(pixels: np.ndarray) -> np.ndarray:
    return pixels.min(axis=2) < 128


def iou(a: np.ndarray, b: np.ndarray) -> float:
    return float((a & b).sum() / max(1, (a | b).sum()))


def ours(text: str) -> np.ndarray:
    """``text`` drawn by pnp's renderer at (10, 40) pt, rendered by pdfium."""
    svg = (
        '<svg xmlns="http://www.w3.org/2000/svg" width="400pt" height="60pt" '
        f'viewBox="0 0 400 60"><text x="10" y="40" font-size="{SIZE}" '
        f'font-family="sans-serif">{text}</text></svg>'
    )
    drawing = compile_svg(etree.fromstring(svg.encode(), SAFE_PARSER))
    pdf = pdf_of([(drawing.width, drawing.height, drawing.draw)])
    return render(pdf, [(400 * SCALE, 60 * SCALE)])[0]


def unshaped(text: str) -> np.ndarray:
    """``text`` with its letters drawn apart, left to right: each character on its own, as
    reportlab alone draws text (a second font of DejaVu's face cannot be registered beside
    pnp's: reportlab keys fonts by their face)."""
    register_fonts()

    def draw(canvas):
        x = 10.0
        canvas.setFont(REGULAR, SIZE)
        for char in text:
            canvas.drawString(x, 20, char)
            x += stringWidth(char, REGULAR, SIZE)

    return render(pdf_of([(400, 60, draw)]), [(400 * SCALE, 60 * SCALE)])[0]


def raqm(text: str) -> np.ndarray:
    """``text`` laid out by HarfBuzz through Pillow's raqm, right to left, at the same place."""
    font = ImageFont.truetype(
        str(FONT_DIR / "DejaVuSans.ttf"), SIZE * SCALE, layout_engine=ImageFont.Layout.RAQM
    )
    image = Image.new("RGB", (400 * SCALE, 60 * SCALE), "white")
    ImageDraw.Draw(image).text(
        (10 * SCALE, 40 * SCALE), text, font=font, fill="black", anchor="ls", direction="rtl"
    )
    return np.asarray(image).astype(np.int16)


def test_pillow_has_raqm():
    """The reference below is HarfBuzz's own layout, through raqm."""
    assert features.check("raqm")


@pytest.mark.parametrize("text", LINES.values(), ids=LINES.keys())
def test_drawn_text_matches_harfbuzz_through_raqm(text):
    reference = ink(raqm(text))
    drawn = ink(ours(text))
    assert iou(drawn, reference) >= SHAPED_IOU, iou(drawn, reference)
    columns = np.flatnonzero(drawn.any(axis=0)), np.flatnonzero(reference.any(axis=0))
    assert (
        abs(columns[0][0] - columns[1][0]) <= SCALE
        and abs(columns[0][-1] - columns[1][-1]) <= SCALE
    )
    # the negative control: the same text without shaping is far from the reference
    assert iou(ink(unshaped(text)), reference) < UNSHAPED_IOU


GAMES = {
    "arabic-game": (
        "لعبة صغيرة",
        [
            ("خبز طازج", "طعام", "اسحب بطاقتين ثم ضع بطاقة واحدة على الطاولة واحصل على 10 نقاط."),
            ("ملح البحر", "توابل", "تاجر بحرية مع الجميع (مرة واحدة في كل دور)."),
            ("شاي", "شراب", "اشرب الشاي ثم استرح قليلا."),
        ],
    ),
    "hebrew-game": (
        "משחק קטן",
        [
            ("לחם טרי", "מזון", "שלוף שני קלפים, הנח קלף אחד על השולחן וקבל 10 נקודות."),
            ("מלח ים", "תבלין", "סחר בחופשיות עם כולם (פעם אחת בכל תור)."),
            ("תה", "משקה", "שתה את התה ונוח מעט."),
        ],
    ),
}


def write_game(components: Path, name: str) -> Path:
    title, cards = GAMES[name]
    root = components / name
    root.mkdir(parents=True)
    (root / "game.yaml").write_text(
        f"title: {title}\nplayers: 2\nexpect: {{cards: {len(cards)}}}\n", encoding="utf-8"
    )
    lines = ["kind: deck", "title: Cards", "size: poker", "face: card.svg.j2", "cards:"]
    for n, (card, kind, text) in enumerate(cards):
        lines.append(
            f'  - {{name: c{n}, count: 1, title: "{card}", type: "{kind}", cost: {n + 1}, '
            f'text: "{text}"}}'
        )
    (root / "cards.yaml").write_text("\n".join(lines) + "\n", encoding="utf-8")
    return root


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    from conftest import _invoke

    base = tmp_path_factory.mktemp("shaped")
    out = {}
    for name in GAMES:
        write_game(base / "components", name)
        check = _invoke("check", name, "--components", base / "components")
        assert check.exit_code == 0, check.stderr
        build = _invoke("build", name, "--components", base / "components", "--out", base / "out")
        assert build.exit_code == 0, build.stderr
        out[name] = base / "out" / name / f"{name}.pdf"
    return out


@pytest.mark.parametrize("name", GAMES)
def test_card_text_reads_back_in_reading_order(built, name):
    document = pdfium.PdfDocument(built[name])
    try:
        pages = [page.get_textpage().get_text_range() for page in document]
    finally:
        document.close()
    text = re.sub(r"\s+", " ", " ".join(pages))
    for card, kind, rule in GAMES[name][1]:
        assert card in text and kind in text and rule in text, (rule, text)
    assert GAMES[name][0] in pages[0]  # the title on the contents page too


def harfbuzz_extents(
    text: str, bold: bool = False, path: Path | None = None
) -> list[tuple[int, int, int, int]]:
    """The glyphs HarfBuzz gives ``text`` in DejaVu Sans (or the font file ``path``), in
    display order, as their extents (glyph ids differ in an embedded subset; outlines do
    not)."""
    path = path or FONT_DIR / ("DejaVuSans-Bold.ttf" if bold else "DejaVuSans.ttf")
    font = hb.Font(hb.Face(hb.Blob.from_file_path(str(path))))
    buffer = hb.Buffer()
    buffer.add_str(text)
    buffer.guess_segment_properties()
    hb.shape(font, buffer)
    return [tuple(font.get_glyph_extents(g.codepoint)) for g in buffer.glyph_infos]


def pdf_extents(pdf: Path) -> list[tuple[int, int, int, int]]:
    """Every glyph drawn on the PDF's pages, in the order drawn, as its extents in the
    subset font embedded (PyMuPDF's trace of the text: MuPDF is another reader)."""
    document = pymupdf.open(pdf)
    fonts: dict[str, dict[str, hb.Font]] = {}  # font name -> subset name -> HarfBuzz's font
    for page in document:
        for xref, _, _, basefont, *_ in page.get_fonts():
            data = document.extract_font(xref)[3]
            name = basefont.split("+")[-1]
            fonts.setdefault(name, {})[basefont] = hb.Font(hb.Face(hb.Blob(data)))
    out = []
    for page in document:
        for span in page.get_texttrace():
            # one subset of it: the trace names no subset (and cuts long names short)
            (font,) = next(v for k, v in fonts.items() if k.startswith(span["font"])).values()
            out += [tuple(font.get_glyph_extents(c[1])) for c in span["chars"] if c[1] >= 0]
    return out


def contains(haystack: list, needle: list) -> bool:
    return any(haystack[k : k + len(needle)] == needle for k in range(len(haystack)))


@pytest.mark.parametrize("name", GAMES)
def test_glyphs_in_the_pdf_are_harfbuzzs(built, name):
    """Each word of each card (the title in bold), shaped by HarfBuzz on its own, is in the
    PDF as the same glyphs in the same order; the letters drawn apart would not be."""
    drawn = pdf_extents(built[name])
    for card, _, rule in GAMES[name][1]:
        for word in card.split():
            assert contains(drawn, harfbuzz_extents(word, bold=True)), word
        for word in rule.split():
            assert contains(drawn, harfbuzz_extents(word, bold=False)), word
    if name == "arabic-game":  # (Hebrew letters do not join: apart, they look the same)
        first = GAMES[name][1][0][2].split()[0]
        apart = [harfbuzz_extents(c, bold=False)[0] for c in first]
        assert not contains(drawn, apart[::-1]) and not contains(drawn, apart)


def test_a_right_to_left_box_starts_at_the_right():
    """``align="start"`` puts a right-to-left paragraph against the box's right edge, its
    first word rightmost; ``end`` against the left; Latin text as before."""
    look = richtext.Look()
    laid = richtext.fitted("שלום עולם", 60, 10, 4, 2, look)
    starts = {}
    for align in ("start", "end"):
        svg = str(richtext.svg(laid, (10, 0, 60, 10), look, align))
        xs = {t: float(x) for x, t in re.findall(r'x="([\d.]+)"[^>]*>([^<]+)<', svg)}
        assert 'direction="rtl"' in svg
        starts[align] = xs
    width = laid.lines[0].width
    assert starts["start"]["שלום"] == pytest.approx(70, abs=1e-3)  # right end of the box
    assert starts["start"]["עולם"] < starts["start"]["שלום"]
    assert min(starts["end"].values()) >= 10 and starts["end"]["שלום"] == pytest.approx(
        10 + width, abs=1e-3
    )
    latin = str(
        richtext.svg(richtext.fitted("Hello world", 60, 10, 4, 2, look), (10, 0, 60, 10), look)
    )
    assert 'x="10.000"' in latin and "direction" not in latin


@pytest.mark.parametrize(("file", "fails"), [("DejaVuSerif.ttf", True), ("DejaVuSans.ttf", False)])
def test_a_game_font_without_the_scripts_letters_is_an_error_at_its_line(
    pnp, tmp_path, file, fails
):
    root = write_game(tmp_path / "components", "arabic-game")
    (root / "fonts").mkdir()
    (root / "fonts" / "mine.ttf").write_bytes((FONT_DIR / file).read_bytes())
    game = root / "game.yaml"
    game.write_text(
        game.read_text(encoding="utf-8") + "fonts:\n  - {family: Mine, file: fonts/mine.ttf}\n",
        encoding="utf-8",
    )
    check = pnp("check", "arabic-game", "--components", tmp_path / "components")
    said = "game.yaml:5: font 'fonts/mine.ttf' has no Arabic letters"
    assert (said in check.stderr) is fails and (check.exit_code != 0) is fails, check.stderr


SHEETS = {
    "arabic-game": {
        "title": "القواعد",
        "heading": "البداية",
        "text": "اسحب **بطاقة** واحدة ثم ضعها على الطاولة. كل لاعب يأخذ بطاقة عند بداية "
        "الدور، ثم يلعب بطاقة من يده أو يسحب بطاقتين جديدتين من الكومة. الفائز هو من يجمع "
        "10 نقاط قبل غيره.",
        "bullet": "العب بطاقة واحدة (أو اثنتين)",
        "cell": "خبز",
        "authored": "كل شيء في هذه البطاقات من تأليفنا",
    },
    "hebrew-game": {
        "title": "כללים",
        "heading": "התחלה",
        "text": "שלוף **קלף** אחד והנח אותו על השולחן. כל שחקן לוקח קלף בתחילת התור, ואז "
        "משחק קלף מידו או שולף שני קלפים חדשים מהערימה. המנצח הוא מי שאוסף 10 נקודות "
        "לפני כולם.",
        "bullet": "שחק קלף אחד (או שניים)",
        "cell": "לחם",
        "authored": "כל מה שבקלפים האלה נכתב על ידינו",
    },
}


def write_sheet(root: Path, name: str) -> None:
    """A reference sheet of two columns in the game's language (a heading, a paragraph that
    wraps, bullets with a Latin one among them, a table) and an ``authored`` note on its
    deck."""
    words = SHEETS[name]
    (root / "rules.yaml").write_text(
        f'kind: sheet\ntitle: "{words["title"]}"\npages: 1\ncolumns: 2\nsections:\n'
        f'  - heading: "{words["heading"]}"\n    blocks:\n      - text: "{words["text"]}"\n'
        f'      - bullets: ["{words["bullet"]}", "Pass the turn to the left player"]\n'
        f'      - table:\n          header: ["{words["cell"]}", "Salt"]\n'
        f'          rows: [["{words["cell"]}", "3"]]\n',
        encoding="utf-8",
    )
    cards = root / "cards.yaml"
    cards.write_text(
        cards.read_text(encoding="utf-8").replace(
            "title: Cards", f'title: Cards\nauthored: "{words["authored"]}"'
        ),
        encoding="utf-8",
    )


def char_boxes(page: pdfium.PdfPage) -> tuple[str, list[tuple[float, ...]]]:
    """A page's text as pypdfium2 reads it, and each character's box."""
    text = page.get_textpage()
    return text.get_text_range(), [text.get_charbox(k) for k in range(text.count_chars())]


@pytest.mark.parametrize("name", GAMES)
def test_a_sheet_and_the_about_page_print_right_to_left(pnp, tmp_path, name):
    """A sheet and 'About this edition' in Arabic or Hebrew check and build; their text reads
    back in reading order, their glyphs are HarfBuzz's, a right-to-left paragraph's lines
    start at the column's right edge while a Latin bullet starts at its left, and the sheet
    runs right to left: its first column, and a table's first column, are the rightmost."""
    root = write_game(tmp_path / "components", name)
    write_sheet(root, name)
    check = pnp("check", name, "--components", tmp_path / "components")
    assert check.exit_code == 0, check.stderr
    build = pnp("build", name, "--components", tmp_path / "components", "--out", tmp_path)
    assert build.exit_code == 0, build.stderr
    words, pdf = SHEETS[name], tmp_path / name / f"{name}.pdf"
    document = pdfium.PdfDocument(pdf)
    try:
        pages = [char_boxes(page) for page in document]
    finally:
        document.close()
    flat = [re.sub(r"\s+", " ", text) for text, _ in pages]
    assert words["authored"] in flat[0] and "Contents" in flat[0]
    (sheet,) = [k for k, text in enumerate(flat) if words["heading"] in text]
    text, boxes = pages[sheet]
    for key in ("title", "heading", "bullet", "cell"):
        assert words[key] in flat[sheet], (words[key], flat[sheet])
    assert words["text"].replace("**", "") in flat[sheet]
    paragraph = words["text"].replace("**", "")
    lines = [line for line in text.splitlines() if len(line) > 20 and line.strip() in paragraph]
    assert len(lines) >= 2  # the paragraph wraps
    first = [range(text.index(line), text.index(line) + len(line.split()[0])) for line in lines]
    right = [max(boxes[k][2] for k in word) for word in first]
    assert max(right) - min(right) < 0.5, right  # each line's first word ends at one edge
    assert min(right) > A4_WIDTH / 2  # in the first column, which is the right one
    header = text.index(words["cell"])  # a table's first column is its rightmost
    assert boxes[header][0] > boxes[text.index("Salt")][2]
    latin = text.index("Pass the turn")
    assert boxes[latin][0] < min(boxes[text.index(line)][0] for line in lines)
    drawn = pdf_extents(pdf)
    for word in words["text"].split():
        bold = word.startswith("**")
        assert contains(drawn, harfbuzz_extents(word.strip("*.،,"), bold)), word


def test_a_right_to_left_texts_start_is_its_right_end():
    """``direction="rtl"`` (what a text box writes for a right-to-left word) anchors Hebrew at
    its right end and shapes it right to left; without it, ``x`` is its left end."""
    head = '<svg xmlns="http://www.w3.org/2000/svg" width="100" height="20" viewBox="0 0 100 20">'
    ops = {}
    for direction in ("rtl", None):
        attr = f' direction="{direction}"' if direction else ""
        svg = f'{head}<text x="50" y="10" font-size="5"{attr}>שלום 42</text></svg>'
        drawing = compile_svg(etree.fromstring(svg.encode(), SAFE_PARSER))
        ops[direction] = next(op for op in drawing.ops if isinstance(op, tuple) and op[0] == TEXT)
    width = stringWidth("שלום 42", REGULAR, 5)
    assert ops["rtl"][3] == pytest.approx(50 - width) and ops["rtl"][-1] is True
    assert ops[None][3] == pytest.approx(50) and len(ops[None]) == 8


TRANSLATIONS = {
    "ar": {
        "Little game": "لعبة صغيرة",
        "Cards": "بطاقات",
        "Trade freely with everyone.": "تاجر بحرية مع الجميع.",
        "Bread": "خبز",
        "Tokens": "رموز",
        "Page [{n}]": "صفحة [{n}]",
    },
    "he": {
        "Little game": "משחק קטן",
        "Cards": "קלפים",
        "Trade freely with everyone.": "סחר בחופשיות עם כולם.",
        "Bread": "לחם",
        "Tokens": "אסימונים",
        "Page [{n}]": "עמוד [{n}]",
    },
}


@pytest.mark.parametrize("language", TRANSLATIONS)
def test_a_translation_into_arabic_or_hebrew_checks_builds_and_reads_back(pnp, tmp_path, language):
    """Through the game's catalog (and its own engine words, which pnp does not ship for
    these languages), into a template of the game's own that wraps its text with fit():
    check passes, build prints, and every translated string reads back in reading order."""
    from test_engine_words import init, own_engine_words
    from test_i18n import GAME, write_small_game

    game = write_small_game(tmp_path)
    table = TRANSLATIONS[language]
    init(pnp, game, language, table)
    assert pnp("i18n", "engine", language, GAME, "--components", game.parent).exit_code == 0
    engine = game / "locale" / f"engine-{language}.po"
    own_engine_words(engine)
    component = table["Cards"] + "!"  # the contents' first column, in the language
    engine.write_text(
        engine.read_text(encoding="utf-8").replace('"SV:Component"', f'"{component}"'),
        encoding="utf-8",
    )
    check = pnp("check", GAME, "--components", game.parent, "--lang", language)
    assert check.exit_code == 0, check.stderr
    out = tmp_path / "out"
    build = pnp("build", GAME, "--components", game.parent, "--out", out, "--lang", language)
    assert build.exit_code == 0, build.stderr
    document = pdfium.PdfDocument(out / GAME / language / f"{GAME}.pdf")
    try:
        pages = [char_boxes(page) for page in document]
    finally:
        document.close()
    text = re.sub(r"\s+", " ", " ".join(page for page, _ in pages))
    for english in ("Little game", "Cards", "Trade freely with everyone.", "Bread"):
        assert table[english] in text, (table[english], text)
    contents, boxes = pages[0]  # the contents read from the right: that column is rightmost
    # on one line with the other headers, an extractor may read it in display order ("!" left)
    at = contents.find(component)
    at = contents.index("!" + table["Cards"]) + 1 if at < 0 else at
    assert boxes[at][0] > boxes[contents.index("SV:Pages")][2]
    square = boxes[contents.index("SV:50 mm")]  # the calibration square's label: at the left
    assert square[2] < boxes[contents.index("SV:Print")][0]
    assert boxes[contents.index("SV:Contents")][0] > A4_WIDTH / 2  # the heading at the right


def test_a_word_whose_letters_run_both_ways_is_ordered_by_its_parts():
    """A left-to-right paragraph "SV:משחק קטן", whose Hebrew run reads right to left: the
    Latin part first, then "קטן" left of "משחק" (bidi's order for the run), with no space
    between "SV:" and "משחק" and no line break between them however narrow the box."""
    look = richtext.Look()
    laid = richtext.fitted("SV:משחק קטן", 60, 10, 4, 2, look)
    placed = richtext.placed(laid, (0, 0, 60, 10), look)
    xs = {at.piece.text: at.x for at in placed}
    assert xs["SV:"] < xs["קטן"] < xs["משחק"]
    narrow = richtext.layout(richtext.paragraphs("SV:משחק קטן", False), 1, 99, 4, look)
    assert [len(line.words) for line in narrow.lines] == [2, 1]


def test_a_shaped_paragraph_wrapped_again_narrower_breaks_again():
    """reportlab may ask a paragraph its height at one width, then lay it out at another (a
    table measures its cells): the lines follow the width asked last."""
    from reportlab.lib.styles import ParagraphStyle

    from generator.layout.shapedflow import ShapedParagraph

    register_fonts()
    style = ParagraphStyle("body", fontName=REGULAR, fontSize=10, leading=12)
    paragraph = ShapedParagraph("שלוף קלף אחד והנח אותו על השולחן", style)
    assert paragraph.wrap(400, 1000)[1] == 12
    assert paragraph.wrap(60, 1000)[1] > 24


def test_digits_and_a_bracket_of_a_right_to_left_line_are_set_right_to_left(tmp_path):
    """A word with no Hebrew letter in a Hebrew line ("(8" of "נייר (8 עמודים)") is set as
    bidi sets it: the bracket, mirrored, right of the digit. reportlab set it as typed, so
    the Hebrew contents page printed "נייר 8) עמודים)"; in a left-to-right line it still is."""
    from reportlab.pdfgen.canvas import Canvas

    from generator.svg import canvas as rl

    register_fonts()
    pdf = tmp_path / "bracket.pdf"
    page = Canvas(str(pdf), pagesize=(200, 100))
    rl.draw_run(page, REGULAR, 20, 20, 30, "(8", rtl=True, down=False)
    rl.draw_run(page, REGULAR, 20, 20, 70, "(8", rtl=False, down=False)
    page.save()
    document = pdfium.PdfDocument(pdf)
    try:
        text, boxes = char_boxes(document[0])
    finally:
        document.close()
    digits = [k for k, c in enumerate(text) if c == "8"]
    brackets = [k for k, c in enumerate(text) if c in "()"]
    by_line = sorted(zip(digits, brackets, strict=True), key=lambda pair: boxes[pair[0]][1])
    (rtl_digit, rtl_bracket), (ltr_digit, ltr_bracket) = by_line
    assert boxes[rtl_bracket][0] > boxes[rtl_digit][2]  # right to left: "8)" as drawn
    assert boxes[ltr_bracket][2] < boxes[ltr_digit][0]  # left to right: "(8" as typed


def test_paragraph_markup_is_escaped_as_the_xml_library_escapes_it():
    """The contents page and the reference sheets escape their words as xml.sax.saxutils
    does (``&``, ``<``, ``>``; quotes kept), without importing what that module imports."""
    from xml.sax.saxutils import escape as xml_escape

    from generator.layout.shapedflow import escape

    for text in ["Fish & Chips", "<b>not bold</b>", "a > b < c", "\"quoted\" 'too'", "&amp;", ""]:
        assert escape(text) == xml_escape(text)
