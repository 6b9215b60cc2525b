"""A catalog's header read as Babel reads it: the ``Plural-Forms`` a translator's tool wraps
over two lines is read whole (French, Polish and Arabic catalogs re-saved by msgcat were called
broken), and every way of writing a header that Babel would act on with 10^8 plural forms (a
key in lower case, a value continued on the next line, a comment that looks like a header
before it, two headers) is refused at its line before Babel builds anything, in a child with
its memory held."""

from __future__ import annotations

import io
import json
import subprocess
import sys

import pytest
from waiting import PATIENCE

from generator.i18n import pofile
from generator.i18n.plurals import PluralError

ENTRY = b'\nmsgid "{n} page"\nmsgid_plural "{n} pages"\nmsgstr[0] "a"\nmsgstr[1] "b"\n'
HUGE = b"100000000"


def header(*lines: bytes, before: bytes = b"") -> bytes:
    """A catalog whose header has ``lines`` (each a PO string's contents), then an entry
    with plural forms (for which Babel makes a string per form)."""
    body = b"".join(b'"' + line + b'"\n' for line in lines)
    return before + b'msgid ""\nmsgstr ""\n' + body + ENTRY


HOSTILE = {
    "a key in lower case": header(b"plural-forms: nplurals=" + HUGE + b"; plural=0;\\n"),
    "a key in capitals": header(b"PLURAL-FORMS: NPLURALS=" + HUGE + b"; plural=0;\\n"),
    "the value continued on the next PO line": header(
        b"Plural-Forms: nplurals=1", b"00000000; plural=0;\\n"
    ),
    "the value folded onto a header line of its own": header(
        b"Plural-Forms: nplurals=2; plural=0;\\n", b" nplurals=" + HUGE + b";\\n"
    ),
    "a comment that looks like a header before it": header(
        b"Plural-Forms: nplurals=" + HUGE + b"; plural=0;\\n",
        before=b'# "Plural-Forms: nplurals=2; plural=(n != 1);\\n"\n',
    ),
    "two Plural-Forms fields, the last one huge": header(
        b"Plural-Forms: nplurals=2; plural=(n != 1);\\n",
        b"Plural-Forms: nplurals=" + HUGE + b"; plural=0;\\n",
    ),
    "a second header entry after the first": header(b"Plural-Forms: nplurals=2; plural=0;\\n")
    + b'\nmsgid ""\nmsgstr "Plural-Forms: nplurals='
    + HUGE
    + b'; plural=0;\\n"\n'
    + ENTRY.replace(b"page", b"sheet"),
}

CHILD = """
import json, resource, sys
resource.setrlimit(resource.RLIMIT_AS, (1_000_000_000, 1_000_000_000))
from generator.i18n import pofile
from generator.i18n.plurals import PluralError
out = {}
for name, raw in json.loads(sys.stdin.read()).items():
    try:
        pofile.read(raw.encode("latin-1"))
        out[name] = "read"
    except PluralError as exc:
        out[name] = f"refused at line {exc.line}: {exc}"
    except MemoryError:
        out[name] = "out of memory"
status = open("/proc/self/status").read().split("VmHWM:")[1]
out["peak MB"] = int(status.split()[0]) // 1024
print(json.dumps(out))
"""


def test_every_way_to_ask_babel_for_a_hundred_million_forms_is_refused_in_little_memory():
    """Each of these reached Babel past the old byte-pattern bound (1.7 GB of empty strings
    for one plural entry); read in a child limited to 1 GB, each is refused at a header line
    and the child's peak stays that of a small Python process."""
    cases = {name: raw.decode("latin-1") for name, raw in HOSTILE.items()}
    done = subprocess.run(
        [sys.executable, "-c", CHILD],
        input=json.dumps(cases),
        capture_output=True,
        text=True,
        timeout=PATIENCE,
        check=True,
    )
    found = json.loads(done.stdout)
    for name in HOSTILE:
        assert found[name].startswith("refused at line"), (name, found[name])
        assert "nplurals=" in found[name], (name, found[name])
    assert found["peak MB"] < 150, found


@pytest.mark.parametrize("name", list(HOSTILE))
def test_the_refusal_points_at_the_field_babel_would_use(name):
    raw = HOSTILE[name]
    with pytest.raises(PluralError) as caught:
        pofile.read(raw)
    line = raw.splitlines()[caught.value.line - 1]
    assert b"nplurals" in line.lower() and not line.startswith(b"#"), (caught.value.line, line)


def test_a_plural_rule_wrapped_by_msgcat_is_read_whole():
    """msgcat, msgmerge, Babel and polib wrap a long Plural-Forms over two PO strings; the
    rule read back is the whole rule, and the catalog is not called broken."""
    rule = "n==0 ? 0 : n==1 ? 1 : n==2 ? 2 : n%100>=3 && n%100<=10 ? 3 : n%100>=11 ? 4 : 5"
    raw = header(
        b"Language: ar\\n",
        b"Plural-Forms: nplurals=6; plural=n==0 ? 0 : n==1 ? 1 : n==2 ? 2 : n%100>=3 ",
        b"&& n%100<=10 ? 3 : n%100>=11 ? 4 : 5;\\n",
    )
    catalog = pofile.read(raw)
    assert (catalog.num_plurals, catalog.plural_expr) == (6, rule)


def test_the_header_is_kept_as_written():
    """Fields pnp does not know (X-Generator, a team's address) are written back, in their
    order and spelling."""
    raw = header(
        b"Project-Id-Version: game\\n",
        b"X-Generator: Poedit 3.4\\n",
        b"Language: fr\\n",
        b"Plural-Forms: nplurals=2; plural=(n > 1);\\n",
        b"X-Poedit-Bookmarks: -1,-1\\n",
    )
    catalog = pofile.read(raw)
    written = _written(catalog)
    assert '"X-Generator: Poedit 3.4\\n"' in written
    assert written.index("X-Generator") < written.index("Language") < written.index("X-Poedit")


def _written(catalog) -> str:
    handle = io.BytesIO()
    pofile.write(catalog, handle)
    return handle.getvalue().decode("utf-8")
