"""YAML loading that remembers where every key and item stands, so errors can name the line.

PyYAML's composer gives nodes with positions; we build plain Python data from them and keep a
map from each data path (``("cards", 2, "count")``) to its 1-based line. Duplicate keys, tabs
and other syntax mistakes become ``SpecError``s; size and alias-expansion limits keep a hostile
file from eating memory. A number written with a leading zero (``0101``, a map's cell) is read
as the text written, not as YAML 1.1's octal number.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from generator.errors import SpecError
from generator.limits import FILE_BYTES
from generator.paths import PathRefused, TooLarge, read_text

MAX_FILE_BYTES = FILE_BYTES["spec"]
MAX_NODES = 200_000
MAX_DEPTH = 100
MAX_TEXT = 20_000_000  # characters of text a document may expand to

Path_ = tuple[str | int, ...]
FAST_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
NESTING_MARKS = "[{-:?"  # every level of YAML nesting opens with one of these
FAST_MAX_NESTING = 10_000  # libyaml's composer overflows the C stack somewhere past 20,000

INT_TAG = "tag:yaml.org,2002:int"
LEADING_ZERO = re.compile(r"[-+]?0[0-7_]+")  # what YAML 1.1 reads as an octal number
BOOL_TAG = "tag:yaml.org,2002:bool"
FLOAT_TAG = "tag:yaml.org,2002:float"
BOOL_WORDS = {"true", "false"}  # the booleans YAML 1.2 keeps; yes, no, on, off stay words

LONE_SURROGATE = (
    "the text holds an escape that is no character (a lone surrogate); write the character itself"
)


@dataclass
class YamlDoc:
    """A parsed YAML file: its data and the line of every path inside it. Data read into it
    from another file (a table of cards) keeps that file's lines in ``sources``, under the
    path it was put at."""

    path: Path
    data: Any
    lines: dict[Path_, int]
    sources: dict[Path_, tuple[Path, dict[Path_, int]]] = field(default_factory=dict)
    text: str = field(default="", repr=False)  # the source, for the comments above a line

    def line_of(self, loc: Path_) -> int:
        """The line of the deepest known prefix of ``loc`` (a pydantic error location)."""
        return _deepest(self.lines, tuple(loc), self.lines.get((), 1))

    def where(self, loc: Path_) -> tuple[Path, int]:
        """The file and line of ``loc``: this file's, or the data file's it was read from."""
        loc = tuple(loc)
        for prefix, (path, lines) in self.sources.items():
            if loc[: len(prefix)] == prefix and len(loc) > len(prefix):
                return path, _deepest(lines, loc[len(prefix) :], 1)
        return self.path, self.line_of(loc)


def _deepest(lines: dict[Path_, int], loc: Path_, default: int) -> int:
    while loc:
        if loc in lines:
            return lines[loc]
        loc = loc[:-1]
    return default


def _kept_as_written(node: yaml.Node) -> bool:
    """Whether a plain value stays the text it is, where YAML 1.1 would read something else
    from it: 0101 (octal 65: a map's cell, a code), 1:2 (the base-60 number 62: a ratio, a
    time), no, yes, on, off (false and true: an answer, a word on a card). A field that wants
    a number or a yes/no still reads these as before; true and false stay booleans."""
    if not isinstance(node, yaml.ScalarNode) or node.style:  # quoted: a string already
        return False
    if node.tag == INT_TAG and LEADING_ZERO.fullmatch(node.value):
        return True
    if node.tag in (INT_TAG, FLOAT_TAG) and ":" in node.value:
        return True
    return node.tag == BOOL_TAG and node.value.lower() not in BOOL_WORDS


class _Builder:
    """Turns a composed node tree into Python data, recording lines and refusing duplicates."""

    def __init__(self, path: Path):
        self.path = path
        self.lines: dict[Path_, int] = {}
        self.loader = yaml.SafeLoader("")
        self.nodes = 0
        self.text = 0  # characters of text, every alias counted again

    def build(self, node: yaml.Node, loc: Path_) -> Any:
        self.nodes += 1
        if self.nodes > MAX_NODES:
            raise SpecError(
                self.path,
                node.start_mark.line + 1,
                f"the document expands to more than {MAX_NODES:,} values (aliases?); "
                "split it or remove repeated aliases",
            )
        if len(loc) > MAX_DEPTH:
            raise SpecError(
                self.path,
                node.start_mark.line + 1,
                f"nested deeper than {MAX_DEPTH} levels; flatten the spec",
            )
        self.lines.setdefault(loc, node.start_mark.line + 1)
        if isinstance(node, yaml.MappingNode):
            return self._mapping(node, loc)
        if isinstance(node, yaml.SequenceNode):
            return [self.build(item, (*loc, i)) for i, item in enumerate(node.value)]
        if _kept_as_written(node):
            return node.value
        try:
            value = self.loader.construct_object(node)
        except ValueError:  # Python's own limit on the digits of an integer
            raise SpecError(
                self.path,
                node.start_mark.line + 1,
                f"a number of {len(str(node.value)):,} digits; write a smaller number",
            ) from None
        if isinstance(value, str):
            self.text += len(value)
            if self.text > MAX_TEXT:
                raise SpecError(
                    self.path,
                    node.start_mark.line + 1,
                    f"the document expands to more than {MAX_TEXT:,} characters of text "
                    "(aliases of a long text?); write each text once",
                )
            try:
                value.encode("utf-8")
            except UnicodeEncodeError:
                raise SpecError(
                    self.path,
                    node.start_mark.line + 1,
                    LONE_SURROGATE,
                ) from None
        return value

    def _mapping(self, node: yaml.MappingNode, loc: Path_) -> dict[Any, Any]:
        self.loader.flatten_mapping(node)
        out: dict[Any, Any] = {}
        for key_node, value_node in node.value:
            key = self.loader.construct_object(key_node)
            if isinstance(key, (list, dict)):
                raise SpecError(self.path, key_node.start_mark.line + 1, "keys must be plain text")
            if key in out:
                raise SpecError(
                    self.path,
                    key_node.start_mark.line + 1,
                    f"duplicate key '{key}' (first given on line {self.lines[(*loc, key)]}); "
                    "keep one of them",
                )
            self.lines[(*loc, key)] = key_node.start_mark.line + 1
            out[key] = self.build(value_node, (*loc, key))
        return out


def load_yaml(path: Path, root: Path | None = None) -> YamlDoc:
    """Read one YAML spec through the gate (inside ``root``, by default its own folder) and
    parse it; raises ``SpecError`` with the line of any mistake."""
    try:
        text = read_text(path.parent if root is None else root, path, "spec")
    except UnicodeDecodeError as exc:
        raise SpecError(path, None, f"not UTF-8 text ({exc.reason}); save it as UTF-8") from None
    except TooLarge as exc:
        raise SpecError(
            path, None, f"file is {exc.size:,} bytes; specs are limited to {exc.limit:,}"
        ) from None
    except PathRefused as exc:
        message = f"{exc}; a spec is a YAML file inside the game folder"
        raise SpecError(path, None, message) from None
    return parse_yaml(path, text)


def _syntax_error(path: Path, exc: yaml.MarkedYAMLError) -> SpecError:
    """A YAML syntax error at the line a person would look at, with a hint where we have one."""
    problem = exc.problem or "invalid YAML"
    mark = exc.problem_mark or exc.context_mark
    if "end of stream" in problem and exc.context_mark:
        mark = exc.context_mark  # an unclosed quote or bracket: point at where it opened
    context = f" ({exc.context})" if exc.context else ""
    hint = ""
    if "'\\t'" in problem:
        hint = "; indent with spaces, not tabs"
    elif "end of stream" in problem and "quoted" in (exc.context or ""):
        hint = "; close the quote"
    line = mark.line + 1 if mark else None
    return SpecError(path, line, f"YAML syntax error: {problem}{context}{hint}")


def _compose(text: str) -> yaml.Node | None:
    """The node tree of ``text``: libyaml's fast parser, or the Python one on any error (its
    messages name tabs and control characters more exactly) and for text that could nest
    deeper than libyaml's recursion can safely go (it crashes the process, not raises)."""
    if sum(text.count(c) for c in NESTING_MARKS) < FAST_MAX_NESTING:
        try:
            return yaml.compose(text, Loader=FAST_LOADER)
        except yaml.YAMLError:
            pass
    return yaml.compose(text, Loader=yaml.SafeLoader)


def parse_yaml(path: Path, text: str) -> YamlDoc:
    """Parse YAML text that came from ``path``."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        raise SpecError(path, None, "the file holds characters that are not text") from None
    try:
        node = _compose(text)
    except yaml.MarkedYAMLError as exc:
        raise _syntax_error(path, exc) from None
    except yaml.reader.ReaderError as exc:
        line = text.count("\n", 0, exc.position) + 1
        raise SpecError(
            path, line, f"character {exc.character!r} is not allowed in YAML; remove it"
        ) from None
    except yaml.YAMLError as exc:
        raise SpecError(path, None, f"YAML error: {exc}") from None
    except RecursionError:
        raise SpecError(
            path, None, f"nested deeper than YAML can read ({MAX_DEPTH} levels at most)"
        ) from None
    if node is None:
        return YamlDoc(path, None, {(): 1}, text=text)
    builder = _Builder(path)
    try:
        data = builder.build(node, ())
    except yaml.constructor.ConstructorError as exc:
        mark = exc.problem_mark
        raise SpecError(
            path, mark.line + 1 if mark else None, f"YAML error: {exc.problem}"
        ) from None
    except RecursionError:
        raise SpecError(path, None, f"nested deeper than {MAX_DEPTH} levels") from None
    return YamlDoc(path, data, builder.lines, text=text)
