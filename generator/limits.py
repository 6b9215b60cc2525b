"""Every limit that keeps a stranger's game folder from exhausting the machine, in one place
(docs/safety.md lists them): what a file of each kind may weigh before it
is read. The other limits live beside the code they bound and are listed with these."""

from __future__ import annotations

MB = 1_000_000

# the most a file of each kind may hold: larger ones are refused before they are read
FILE_BYTES = {
    "spec": 1 * MB,  # a component's or game.yaml's YAML
    "template": 1 * MB,  # a Jinja2 template, and each file it includes or imports
    "data": 5 * MB,  # a card list: CSV, JSON, YAML, Excel or LibreOffice
    "catalog": 5 * MB,  # a gettext PO or POT file
    "font": 30 * MB,  # a TrueType or OpenType file (a collection holds several faces)
    "image": 64 * MB,  # a raster picture, as a file (its pixels are bounded apart)
    "svg": 10 * MB,  # an SVG picture a template draws
    "profile": 1 * MB,  # pnp.toml, the user config
    "manifest": 50 * MB,  # a pack's manifest.json, read back to tell if it is up to date
    "package": 50 * MB,  # the engine's own data: sizes, words, vendors, fonts, the ICC profile
    "cache": 20 * MB,  # the hashes of files read, remembered in the user's cache (50,000 files)
}
MAX_PLURAL_FORMS = 6  # plural forms of one language: gettext's languages need at most 6
MAX_TEXT_LENGTH = 100_000  # characters of one text printed: about thirty pages, a sheet's most

# data files: a table, and a spreadsheet (a zip of XML) before openpyxl or lxml reads it
MAX_ROWS = 5_000  # rows of a table
MAX_COLUMNS = 100  # columns of a table
MAX_UNZIPPED = 50_000_000  # bytes a spreadsheet may unpack to, declared and as inflated
MAX_ZIP_ENTRIES = 1_000  # files in a spreadsheet's zip (a workbook has a few dozen)
MAX_SHARED_STRINGS = MAX_ROWS * MAX_COLUMNS  # texts an Excel file's shared-string table lists

# fonts: what generator/model/fontguard.py bounds in a font file before any font library
# (fontTools, reportlab, brotli, zlib) reads it
MAX_FONT_TABLES = 128  # tables in one font's directory (a font has 10 to 40)
MAX_FACES = 64  # fonts in one collection (.ttc, .otc): the largest families ship a few dozen
MAX_INFLATED_FONT = 64 * MB  # bytes a WOFF or WOFF2 font may decompress to (a CJK font: 20 MB)
MAX_CMAP_SUBTABLES = 32  # character maps (cmap subtables) of one font (a font has 2 to 6)
MAX_CMAP_CODES = 300_000  # code points one character map may map (Unicode has 155,000)
MAX_VARIATION_SELECTORS = 300  # selectors of a variation map (cmap format 14): Unicode has 260
MAX_NAME_BYTES = 1_000_000  # bytes of a font's names, its name records summed (a font: 1-50 KB)
MAX_SUBR_DEPTH = 10  # subroutine calls nested in a CFF glyph program (the Type 2 limit)
MAX_GLYPH_OPERATIONS = 100_000  # tokens one CFF glyph program may run, subroutines included
MAX_CFF_OPERATIONS = 10_000_000  # tokens all glyph programs of one CFF font may run (CJK: 3-5 M)
