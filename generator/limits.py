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
}
MAX_PLURAL_FORMS = 6  # plural forms of one language: gettext's languages need at most 6
MAX_TEXT_LENGTH = 100_000  # characters of one text printed: about thirty pages, a sheet's most

# data files: a table, and a spreadsheet (a zip of XML) before openpyxl or lxml reads it
MAX_ROWS = 5_000  # rows of a table
MAX_COLUMNS = 100  # columns of a table
MAX_UNZIPPED = 50_000_000  # bytes a spreadsheet may unpack to, declared and as inflated
MAX_ZIP_ENTRIES = 1_000  # files in a spreadsheet's zip (a workbook has a few dozen)
MAX_SHARED_STRINGS = MAX_ROWS * MAX_COLUMNS  # texts an Excel file's shared-string table lists
