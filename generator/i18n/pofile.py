"""PO files read as Babel reads them, their headers bounded before Babel acts on them, and
written back as GNU gettext writes them.

Reading: Babel's own parser fills a ``PoCatalog``, which checks each header entry the moment
Babel has parsed it (``msgid ""``: its fields read by the same functions Babel reads them with:
keys in any case, lines continued, the last of two winning) and before Babel makes a string
for each plural form of the next entry: a header asking for 10^8 forms is refused at its line
instead of taking gigabytes. The header's fields and comment are kept as they are, so that
``X-Generator``, ``Language-Team`` and the rest are written back.

Writing: the entries in the catalog's order (the order of the specs, as ``msgmerge`` keeps the
template's), each with its comments, references and flags, its strings wrapped at 79 columns
as gettext wraps them (``powrap``); obsolete entries last."""

from __future__ import annotations

import io
import re
from email import message_from_string
from typing import IO, Any

from babel.messages.catalog import Catalog, Message, parse_separated_header
from babel.messages.pofile import PoFileParser

from generator.i18n import plurals
from generator.i18n.powrap import po_lines, reference_lines

Header = list[tuple[str, str]]


class HeaderError(ValueError):
    """A header entry that cannot be used (a field Babel cannot read): what, and its line."""

    def __init__(self, message: str, line: int | None):
        super().__init__(message)
        self.line = line


class _Refused(Exception):  # noqa: N818 - not an error of its own: it carries one
    """A header refused while Babel parses (carrying the error out of Babel's parser)."""

    def __init__(self, error: plurals.PluralError | HeaderError):
        super().__init__(str(error))
        self.error = error


class PoCatalog(Catalog):  # type: ignore[misc]  # Babel's classes are untyped
    """Babel's catalog with its header entry checked as it is set and kept as written (its
    fields, in their order and spelling, and its comment lines)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.kept: Header = []  # the header's fields as read (none: a catalog pnp made)
        self.kept_comment: list[str] | None = None  # the header's comment lines as read
        self.lines: list[bytes] = []  # the file read, to point at a header's line

    def __setitem__(self, id: Any, message: Message) -> None:  # noqa: A002 - Babel's name
        if id == "" and self._key_for(id, message.context) not in self._messages:
            fields = _fields(message.string)
            line = self._header_line(message.lineno, fields)
            try:
                _check(fields, line)
                super().__setitem__(id, message)
            except plurals.PluralError as exc:
                raise _Refused(exc) from None  # past Babel's parser, which rewords ValueErrors
            except (ValueError, TypeError, LookupError) as exc:
                raise _Refused(HeaderError(f"the header cannot be read ({exc})", line)) from None
            self.kept = fields
            self.kept_comment = [_user_comment(c) for c in message.user_comments]
            return
        super().__setitem__(id, message)

    def _header_line(self, start: int | None, fields: Header) -> int | None:
        """The line of the header's ``Plural-Forms`` (its last, which Babel uses), else of
        its ``msgid ""``."""
        if start is None or not self.lines:
            return start
        named = [name for name, _ in fields if name.lower() == "plural-forms"]
        if not named:
            return start
        key = re.compile(rb"plural-forms\s*:|nplurals", re.IGNORECASE)
        found = None
        for number in range(start - 1, len(self.lines)):
            text = self.lines[number].strip()
            if number > start and (not text or text.startswith((b"msgid", b"msgctxt", b"#"))):
                break
            if key.search(text):
                found = number + 1
        return found or start


def _fields(text: object) -> Header:
    """A header's fields as Babel reads them (an email header: keys in any case, a line
    starting with a space continuing the one before)."""
    if not isinstance(text, str):
        return []
    return [(str(name), str(value)) for name, value in message_from_string(text).items()]


def _check(fields: Header, line: int | None) -> None:
    """``PluralError`` for a ``Plural-Forms`` field out of bounds (the last one counts)."""
    values = [value for name, value in fields if name.lower() == "plural-forms"]
    if values:
        params = parse_separated_header(f" ;{values[-1]}")
        plurals.check_forms(values[-1], params.get("nplurals"), params.get("plural"), line or 1)


def read(raw: bytes) -> PoCatalog:
    """The catalog in ``raw`` as Babel parses it (``PoFileError`` for a broken entry,
    ``PluralError`` or ``HeaderError`` for a header that cannot be used)."""
    catalog = PoCatalog()
    catalog.lines = raw.splitlines()
    try:
        PoFileParser(catalog, abort_invalid=True).parse(io.BytesIO(raw))
    except _Refused as refused:
        raise refused.error from None
    finally:
        catalog.lines = []
    return catalog


def fresh(**kwargs: Any) -> PoCatalog:
    """A new catalog (``Catalog``'s arguments), its plural forms gettext's for its
    language."""
    catalog = PoCatalog(**kwargs)
    if catalog.locale_identifier:
        catalog.mime_headers = [("Plural-Forms", plurals.forms_header(catalog.locale_identifier))]
    return catalog


def set_field(catalog: Catalog, name: str, value: str) -> None:
    """Set a header field of ``catalog`` (and Babel's reading of it), keeping the others
    where they are."""
    catalog.mime_headers = [(name, value)]
    if not isinstance(catalog, PoCatalog) or not catalog.kept:
        return
    names = [key.lower() for key, _ in catalog.kept]
    if name.lower() not in names:
        catalog.kept.append((name, value))
        return
    first = names.index(name.lower())
    kept = [f for i, f in enumerate(catalog.kept) if i == first or names[i] != name.lower()]
    kept[first] = (kept[first][0], value)
    catalog.kept = kept


def header(catalog: Catalog) -> Header:
    """The header fields to write: as read, or Babel's for a catalog pnp made (with a
    ``Plural-Forms`` field whenever the catalog has plural entries)."""
    kept = catalog.kept if isinstance(catalog, PoCatalog) else []
    fields = list(kept) if kept else list(catalog.mime_headers)
    plural = any(m.pluralizable for m in catalog if m.id)
    if plural and not any(name.lower() == "plural-forms" for name, _ in fields):
        fields.append(("Plural-Forms", catalog.plural_forms))
    return fields


def write(catalog: Catalog, handle: IO[bytes]) -> None:
    """Write ``catalog`` as GNU gettext writes a PO file (see the module)."""
    charset = catalog.charset or "utf-8"
    blocks = [_header_block(catalog)]
    blocks += [_entry(catalog, m) for m in catalog if m.id]
    kept = [m for m in catalog.obsolete.values() if _translated(m)]  # as msgmerge keeps them
    blocks += [_entry(catalog, m, "#~ ") for m in kept]
    handle.write("\n\n".join("\n".join(block) for block in blocks).encode(charset) + b"\n")


def _translated(message: Message) -> bool:
    """Whether an entry has a translation (an obsolete one without is dropped)."""
    string = message.string
    return any(string) if isinstance(string, (list, tuple)) else bool(string)


def _header_block(catalog: Catalog) -> list[str]:
    comment = catalog.kept_comment if isinstance(catalog, PoCatalog) else None
    lines = list(comment) if comment is not None else catalog.header_comment.splitlines()
    lines += ["#, fuzzy"] if catalog.fuzzy else []
    text = "".join(f"{name}: {value.rstrip()}\n" for name, value in header(catalog))
    return [*lines, 'msgid ""', *po_lines("msgstr", text)]


def _user_comment(comment: str) -> str:
    """A translator's comment line as read (Babel reads ``#| msgid`` lines as one too)."""
    return f"#{comment}" if comment.startswith("|") else f"# {comment}".rstrip()


def _comments(message: Message, obsolete: bool) -> list[str]:
    """An entry's comments as gettext writes them: the translator's, the extracted ones,
    the references (not for an obsolete entry) and the flags, fuzzy first."""
    lines = [_user_comment(c) for c in message.user_comments]
    if not obsolete:
        lines += [f"#. {c}".rstrip() for c in message.auto_comments]
        places = [f"{name}:{line}" if line else name for name, line in message.locations]
        lines += reference_lines(places)
    flags = sorted(flag for flag in message.flags if flag and flag != "fuzzy")
    flags = (["fuzzy"] if message.fuzzy else []) + flags
    return lines + ([f"#, {', '.join(flags)}"] if flags else [])


def _entry(catalog: Catalog, message: Message, prefix: str = "") -> list[str]:
    """One entry: its comments, then msgctxt, msgid (msgid_plural) and msgstr (msgstr[i],
    as many as the catalog's plural forms)."""
    lines = _comments(message, bool(prefix))
    if message.context is not None:
        lines += po_lines("msgctxt", message.context, prefix)
    ids = [message.id] if isinstance(message.id, str) else list(message.id)
    lines += po_lines("msgid", ids[0], prefix)
    if message.pluralizable:
        lines += po_lines("msgid_plural", ids[1], prefix)
        strings = message.string if isinstance(message.string, (list, tuple)) else ()
        for index in range(catalog.num_plurals):
            form = strings[index] if index < len(strings) else ""
            lines += po_lines(f"msgstr[{index}]", form or "", prefix)
    else:
        lines += po_lines("msgstr", str(message.string or ""), prefix)
    return lines
