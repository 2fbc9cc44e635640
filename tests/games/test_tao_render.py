"""Tao Dice in the terminal: one's own tube only, the table's public facts."""

from __future__ import annotations

from rich.console import Console

from dicehall.core import ScriptedDice, Table
from dicehall.games.tao import TaoDice


def text_of(game: TaoDice, view: dict[str, object]) -> str:
    console = Console(width=120, record=True, color_system=None)
    console.print(game.render(view, ["Ann", "Bo", "Cy"]))
    return console.export_text()


def test_render_shows_own_tube_stones_pot_and_token() -> None:
    game = TaoDice(3, {"opener": "0"})
    t = Table(game, ScriptedDice([[2, 5], [4, 4], [1, 3]]))
    for seat in range(3):
        t.act(seat, {"type": "ante", "white": seat % 2})
    t.settle()
    state = t.state
    state.token_holder = 1  # type: ignore[attr-defined]
    text = text_of(game, state.view(0))
    assert "2 5" in text and "4 4" not in text and "1 3" not in text
    assert "Pot: ●●○" in text
    assert "Bo [silver]" in text
    assert "bid unit 1" in text and "match 1" in text
    spectator = text_of(game, state.view(None))
    assert "2 5" not in spectator
