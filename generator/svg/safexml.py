"""The XML parsers for SVG from strangers (templates' output, a designer's pictures): no
entities expanded, no DTD loaded, nothing fetched from the network, no huge trees. Every SVG
the engine parses goes through one of them."""

from __future__ import annotations

from lxml import etree

SAFE_PARSER = etree.XMLParser(
    resolve_entities=False, no_network=True, load_dtd=False, remove_comments=True, huge_tree=False
)
# SVG held as text: its bytes are UTF-8 whatever its XML declaration says
TEXT_PARSER = etree.XMLParser(
    resolve_entities=False,
    no_network=True,
    load_dtd=False,
    remove_comments=True,
    huge_tree=False,
    encoding="utf-8",
)
