"""Templates declare the fields they draw in one block the engine reads."""

from __future__ import annotations

import pytest

from generator.model.templatefields import FieldsError, declared_fields, parse_fields

BLOCK = """\
{#- fields
title: text   the name, in the band
cost: number  in a disc

suit: code    hearts, spades ...
-#}
<svg/>
"""


def test_a_fields_block_gives_each_field_its_kind_and_line():
    fields = parse_fields(BLOCK)
    assert fields is not None
    assert {n: f.kind for n, f in fields.items()} == {
        "title": "text",
        "cost": "number",
        "suit": "code",
    }
    assert fields["suit"].line == 5 and fields["cost"].about == "in a disc"


def test_a_template_without_a_block_declares_nothing():
    assert parse_fields("{# just a comment #}<svg/>") is None


@pytest.mark.parametrize(("line", "said"), [("title text", "is not"), ("title: prose", "prose")])
def test_a_wrong_line_is_an_error_at_its_line(line: str, said: str):
    with pytest.raises(FieldsError, match=said) as caught:
        parse_fields("{#- fields\ncost: number\n" + line + "\n-#}")
    assert caught.value.line == 3


def test_a_games_own_template_is_read_before_the_shared_one(tmp_path):
    (tmp_path / "templates").mkdir()
    (tmp_path / "templates" / "card.svg.j2").write_text("{#- fields\nmine: text\n-#}<svg/>")
    fields = declared_fields(tmp_path, "card.svg.j2")
    assert fields is not None and list(fields) == ["mine"]
