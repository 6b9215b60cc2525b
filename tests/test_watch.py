"""``pnp build --watch``: a change to a game's file rebuilds that game, and only that one;
writing the packs does not wake it; a mistake is reported and the watch goes on."""

from __future__ import annotations

import threading
from pathlib import Path

from waiting import PATIENCE, until

from generator.cli.packs import Request
from generator.cli.watch import watch_games
from generator.options import PrintOptions


def _later(actions: list, stop: threading.Event, ready: threading.Event) -> threading.Thread:
    """Run ``actions`` (each a (do, done) pair: act, then wait until done() is true) in a
    thread once the watch is listening (``ready``), then stop the watch."""

    def run() -> None:
        try:
            assert ready.wait(PATIENCE), "the watch never said it was listening"
            for do, done in actions:
                do()
                until(done)
        finally:
            stop.set()

    thread = threading.Thread(target=run)
    thread.start()
    return thread


def test_a_change_rebuilds_its_game_alone_and_a_mistake_does_not_end_the_watch(
    make_deck_game, tmp_path, capsys
):
    components = make_deck_game(cards={"a": 1})
    make_deck_game(cards={"b": 1}, name="other")
    out = tmp_path / "out"
    game, other = components / "synth", components / "other"
    pdf, other_pdf = out / "synth" / "synth.pdf", out / "other" / "other.pdf"
    deck = game / "deck.yaml"
    stop = threading.Event()
    actions = [
        (
            lambda: deck.write_text(deck.read_text().replace("Test deck", "Changed deck")),
            pdf.exists,
        ),
        (lambda: deck.write_text("kind: deck\ntitle: [broken\n"), lambda: False),
    ]
    ready = threading.Event()
    thread = _later(actions[:1], stop, ready)
    request = Request(components, (), out, None, PrintOptions(), None, False)
    watch_games([game, other], request, stop, ready)
    thread.join()
    said = capsys.readouterr()
    assert pdf.exists() and not other_pdf.exists(), said.out + said.err
    assert said.out.count("rebuilt") == 1, said.out  # its own output did not wake it again
    stop.clear()
    errors: list[str] = []

    def reported() -> bool:
        errors.append(capsys.readouterr().err)
        return any("deck.yaml:3: YAML syntax error" in e for e in errors)

    ready.clear()
    thread = _later([(actions[1][0], reported)], stop, ready)
    watch_games([game], request, stop, ready)
    thread.join()
    assert any("deck.yaml:3: YAML syntax error" in e for e in errors), errors  # at its line
    assert "stopped watching" in capsys.readouterr().out
    assert Path(pdf).exists()  # the mistake left the last pack in place
