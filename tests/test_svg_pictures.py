"""SVG pictures (``<image href="x.svg">``) drawn by the renderer: each compiled once however
often it is drawn, drawn exactly as if compiled afresh, and every element it draws counted,
as often as it is drawn, against one budget for the whole drawing."""

from __future__ import annotations

import base64
from pathlib import Path

import pytest
from lxml import etree

from generator.svg import compiler
from generator.svg import images as svg_images
from generator.svg.compiler import SvgError, compile_svg
from generator.svg.safexml import SAFE_PARSER

OPEN = '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10">'
LEAF = OPEN + '<rect width="5" height="5" fill="red"/><circle r="2" fill="blue"/></svg>'


def images(names: list[str]) -> str:
    return "".join(f'<image href="{n}" x="{i}" width="3" height="3"/>' for i, n in enumerate(names))


def compiled(body: str, base: Path, **options: object) -> compiler.Drawer:
    root = etree.fromstring((OPEN + body + "</svg>").encode(), SAFE_PARSER)
    return compile_svg(root, base, **options)


@pytest.fixture
def compiles(monkeypatch) -> list[etree._Element]:
    """The roots of the pictures compiled, in order."""
    seen: list[etree._Element] = []
    original = svg_images.compile_picture

    def counting(compiler, root, *rest):  # noqa: ANN001, ANN002, ANN202 - as the original
        seen.append(root)
        return original(compiler, root, *rest)

    monkeypatch.setattr(svg_images, "compile_picture", counting)
    return seen


def test_a_picture_drawn_often_is_compiled_once_and_drawn_as_if_compiled_afresh(tmp_path, compiles):
    """Three levels, each drawing the next four times: three compiles, not 4 + 16 + 64. The
    same nest made of distinct files (nothing to share) draws the very same operations."""
    (tmp_path / "p2.svg").write_text(LEAF)
    (tmp_path / "p1.svg").write_text(OPEN + images(["p2.svg"] * 4) + "</svg>")
    (tmp_path / "p0.svg").write_text(OPEN + images(["p1.svg"] * 4) + "</svg>")
    shared = compiled(images(["p0.svg"] * 4), tmp_path)
    assert len(compiles) == 3
    for n in range(4):
        (tmp_path / f"q2-{n}.svg").write_text(LEAF)
        (tmp_path / f"q1-{n}.svg").write_text(
            OPEN + images([f"q2-{n}.svg"] + ["p2.svg"] * 3) + "</svg>"
        )
    (tmp_path / "q0.svg").write_text(OPEN + images([f"q1-{n}.svg" for n in range(4)]) + "</svg>")
    compiles.clear()
    distinct = compiled(images(["q0.svg"] + ["p0.svg"] * 3), tmp_path)
    assert len(compiles) == 1 + 4 + 4 + 3  # q0, the four q1, the four q2, p2, p1, p0
    assert distinct.ops == shared.ops
    assert len(shared.ops) > 64


def test_pictures_are_compiled_once_per_build_by_path_and_content(tmp_path, compiles):
    (tmp_path / "leaf.svg").write_text(LEAF)
    pictures: dict = {}
    data = "data:image/svg+xml;base64," + base64.b64encode(LEAF.encode()).decode()
    compiled(images(["leaf.svg", data, data]), tmp_path, pictures=pictures)
    compiled(images(["leaf.svg", data]), tmp_path, pictures=pictures)
    assert len(compiles) == 2  # the file and the data, once each for both drawings
    (tmp_path / "leaf.svg").write_text(LEAF.replace("red", "green"))
    compiled(images(["leaf.svg"]), tmp_path, pictures=pictures)
    assert len(compiles) == 3  # the file changed: compiled again


def test_every_element_a_picture_draws_counts_against_one_budget(tmp_path, monkeypatch):
    """A picture of 20 elements may be drawn twice within a budget of 50, not three times
    (each drawing of it is its <image> and its 20 elements); before, each picture had a budget
    of its own."""
    monkeypatch.setattr(compiler, "MAX_ELEMENTS", 50)
    (tmp_path / "twenty.svg").write_text(OPEN + '<rect width="1" height="1"/>' * 20 + "</svg>")
    assert compiled(images(["twenty.svg"] * 2), tmp_path).ops
    with pytest.raises(SvgError) as raised:
        compiled(images(["twenty.svg"] * 3), tmp_path)
    message = str(raised.value)
    assert message.startswith("<image> (line 1 of the SVG) draws the SVG picture 'twenty.svg'")
    assert "more than 50 elements in all" in message and raised.value.needle == "<image"


def test_a_picture_drawn_again_deeper_still_meets_the_depth_limit(tmp_path):
    """Compiled at the top, then drawn 20 groups down: the nesting it adds still counts."""
    (tmp_path / "deep.svg").write_text(OPEN + "<g>" * 50 + "<rect/>" + "</g>" * 50 + "</svg>")
    shallow = images(["deep.svg"])
    assert compiled(shallow, tmp_path).ops
    with pytest.raises(SvgError, match="levels deep"):
        compiled(shallow + "<g>" * 20 + shallow + "</g>" * 20, tmp_path)


def test_what_a_picture_reports_is_heard_by_every_drawing_of_it(tmp_path):
    (tmp_path / "odd.svg").write_text(OPEN + "<foreignObject/></svg>")
    pictures: dict = {}
    for _ in range(2):
        heard: list[tuple[str, str]] = []
        compiled(
            images(["odd.svg"]),
            tmp_path,
            warn=lambda n, m, h=heard: h.append((n, m)),
            pictures=pictures,
        )
        # at the template's <image>, naming the picture and what it does not draw
        assert heard and heard[0][0] == "<image", heard
        assert heard[0][1].startswith("'odd.svg': <foreignObject>"), heard


SHADOW = """<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10">
  <defs><filter id="shadow"><feGaussianBlur stdDeviation="1"/><feOffset dx="1"/></filter></defs>
  <g style="filter:url(#shadow)"><circle cx="5" cy="5" r="3" fill="red"/></g>
</svg>"""


def test_what_a_picture_does_not_draw_is_in_the_drawings_warnings_naming_it(tmp_path):
    """An Inkscape drop shadow in a logo drawn with <image>: the drawing's own warnings (what
    the art stage reports, with no listener) name the picture and what is not drawn, each
    time the picture is drawn, compiled or not."""
    (tmp_path / "logo.svg").write_text(SHADOW)
    pictures: dict = {}
    for _ in range(2):  # compiled, then taken from ``pictures``
        drawing = compiled(images(["logo.svg"]), tmp_path, pictures=pictures)
        said = [message for needle, message in drawing.warnings if needle == "<image"]
        assert any(
            m.startswith("'logo.svg': filter on <g> (line 3 of the SVG) is not drawn") for m in said
        ), drawing.warnings
