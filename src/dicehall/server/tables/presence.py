"""Who is at a table: each seat's connection, and the table's bot standing in for the absent.

A person's seat is *connected* while one of their pages is open on it. When the last one
closes, the seat is *reconnecting* (a dropped network comes back by itself) and, after
RECONNECT_SECONDS or at once when the page was closed on purpose (a closed tab, a left
table), *gone*. A seat gone for the table's grace period (settings.grace_seconds) is played
by the table's bot until its player comes back: reconnecting with the seat's token takes it
back at once. The host may hand a gone seat to the bot without waiting. A player may leave
(the bot plays their seat for the rest of the game) or concede (the table makes the seat's
safe default move, a timeout, at each of its turns). Everyone is told of each change in a
"notice" message and in the seats of the "table" message.

When no person is left in the game (every seat a bot, a stand-in, gone, left, conceded or
skipping to the result), the bots finish it at once, or the table is closed if the host
chose that (settings.when_empty).

Everything here is public: who sits where and whether they are connected. Nothing in it
depends on the dice or any seat's view.
"""

from __future__ import annotations

import asyncio
import logging
import random
import secrets
import time
from typing import TYPE_CHECKING, Any

from dicehall.core.errors import DicehallError
from dicehall.server.tables.house_rules import CLOSE

if TYPE_CHECKING:
    from dicehall.server.tables.live import LiveTable

log = logging.getLogger("dicehall.server")

CONNECTED, RECONNECTING, GONE = "connected", "reconnecting", "gone"
RECONNECT_SECONDS = 10.0
"""How long a dropped seat shows as reconnecting before it shows as gone."""

ON_PURPOSE = frozenset({1000, 1001})
"""WebSocket close codes of a page that closed itself (left the table, or the tab closed)."""

LEFT, CONCEDED = "left", "conceded"


class PresenceError(DicehallError):
    """A leave, concede, replace or skip that does not fit the table now."""


class Presence:
    def __init__(self, table: LiveTable) -> None:
        self.table = table
        self.away_since: dict[int, float] = {}  # seat -> when it lost its last page
        self.gone: set[int] = set()
        self.stand_ins: set[int] = set()  # seats the table's bot plays for an absent player
        self.skipping: set[int] = set()  # seats whose player asked to skip to the result
        self._timers: dict[int, list[asyncio.TimerHandle]] = {}

    # --- facts everyone may see -----------------------------------------------------

    def humans(self) -> list[int]:
        return [s for s, p in enumerate(self.table.record.players) if p["bot"] is None]

    def quit(self, seat: int) -> str | None:
        """LEFT or CONCEDED if the seat's player gave it up for the rest of the game."""
        value = self.table.record.players[seat].get("quit")
        return value if isinstance(value, str) else None

    def state(self, seat: int) -> str:
        if self.table.connected(seat):
            return CONNECTED
        if seat in self.gone or self.quit(seat) is not None:
            return GONE
        return RECONNECTING if seat in self.away_since else GONE

    def seat_facts(self, seat: int) -> dict[str, Any]:
        """A seat's entry in the table's summary (public)."""
        if self.table.record.players[seat]["bot"] is not None:
            return {"state": CONNECTED}
        return {
            "state": self.state(seat),
            "stand_in": seat in self.stand_ins,
            "quit": self.quit(seat),
        }

    def in_play(self) -> list[int]:
        """Human seats whose players still play their own turns."""
        return [
            s
            for s in self.humans()
            if s not in self.stand_ins and s not in self.skipping and self.quit(s) is None
        ]

    def host(self) -> int | None:
        """The host: the first seat a person holds (the one that made the table); none at a
        table of bots alone (the ladder's)."""
        humans = self.humans()
        return humans[0] if humans else None

    # --- pages coming and going -----------------------------------------------------

    def arrive(self, seat: int) -> None:
        """A page opened on the seat: a seat played by the bot is taken back."""
        self._cancel(seat)
        self.away_since.pop(seat, None)
        self.gone.discard(seat)
        if seat in self.stand_ins and self.quit(seat) is None:
            self.stand_ins.discard(seat)
            self.skipping.discard(seat)
            self.table.remove_stand_in(seat)
            if self.in_play():  # a person plays again: the bots keep their pace
                self.table.hurried = False
            self.tell(f"{self.name(seat)} is back and plays their seat again", seat, "back")

    def depart(self, seat: int, code: int | None) -> None:
        """A page of the seat closed; if it was the last, the seat is away from now on."""
        if self.table.connected(seat) or self.table.status == "over":
            return
        self.away_since[seat] = time.monotonic()
        if code in ON_PURPOSE:
            self.gone.add(seat)
        if self.table.status == "playing":
            self._plan_absence(seat)

    def game_started(self) -> None:
        """Play begins (or resumes after a restart): seats nobody has open are away now."""
        now = time.monotonic()
        for seat in self.humans():
            if not self.table.connected(seat) and seat not in self.stand_ins:
                self.away_since.setdefault(seat, now)
                self._plan_absence(seat)
        self.check_empty()

    def _plan_absence(self, seat: int) -> None:
        if self.quit(seat) is not None or seat in self.stand_ins:
            return
        self._cancel(seat)
        loop = asyncio.get_running_loop()
        timers = [loop.call_later(self.table.settings.grace_seconds, self._grace_over, seat)]
        if seat not in self.gone:
            timers.append(loop.call_later(RECONNECT_SECONDS, self._gone, seat))
        self._timers[seat] = timers

    def _gone(self, seat: int) -> None:
        if seat in self.away_since and not self.table.connected(seat):
            self.gone.add(seat)
            self.table.notify_seats()

    def _grace_over(self, seat: int) -> None:
        self._cancel(seat)
        if self.table.status != "playing" or self.table.connected(seat):
            return
        self.gone.add(seat)
        self.stand_in(
            seat,
            f"{self.name(seat)} is gone: the table's bot plays their seat until they come back",
        )

    def _cancel(self, seat: int) -> None:
        for timer in self._timers.pop(seat, []):
            timer.cancel()

    def close(self) -> None:
        for seat in list(self._timers):
            self._cancel(seat)

    # --- the bot standing in --------------------------------------------------------

    def stand_in(self, seat: int, text: str, kind: str = "stand-in") -> None:
        self.stand_ins.add(seat)
        self.table.add_stand_in(seat, self.stand_in_bot(), timeouts=self.quit(seat) == CONCEDED)
        self.tell(text, seat, kind)
        self.check_empty()

    def stand_in_bot(self) -> str:
        """The table's bot: the one its bot seats play, else the game's strongest."""
        for player in self.table.record.players:
            if player["bot"] is not None:
                return str(player["bot"])
        return next(iter(self.table.game.bots()))

    def check_empty(self) -> None:
        """No person left in the game: the bots finish it at once, or the table closes."""
        if self.table.status != "playing" or self.in_play():
            return
        if self.table.settings.when_empty == CLOSE and not self.skipping:
            self.table.shut("every player has left: the table is closed")
        else:
            self.table.hurry()

    # --- what players ask -----------------------------------------------------------

    def leave(self, seat: int) -> None:
        self._give_up(seat, LEFT, f"{self.name(seat)} leaves: the table's bot plays their seat")

    def concede(self, seat: int) -> None:
        self._give_up(
            seat, CONCEDED, f"{self.name(seat)} concedes: the table makes their seat's safe moves"
        )

    def _give_up(self, seat: int, how: str, text: str) -> None:
        if self.table.status != "playing":
            raise PresenceError("the game is not in play: nothing to leave or concede")
        if self.quit(seat) is not None:
            raise PresenceError(f"you have already {self.quit(seat)} this game")
        self.table.record.players[seat]["quit"] = how
        self.table.save_players()
        self._cancel(seat)
        self.stand_ins.discard(seat)
        self.stand_in(seat, text, how)

    def replace(self, asker: int, seat: object) -> None:
        """The host hands a gone seat to the table's bot now instead of after the grace."""
        if asker != self.host():
            raise PresenceError("only the host may hand a seat to the bot")
        if not isinstance(seat, int) or seat not in self.humans():
            raise PresenceError(f"seat {seat!r} is not a person's seat at this table")
        if self.table.status != "playing":
            raise PresenceError("the game is not in play")
        if self.state(seat) == CONNECTED:
            raise PresenceError(f"{self.name(seat)} is still here: only a gone seat is replaced")
        if seat in self.stand_ins:
            raise PresenceError(f"the table's bot already plays {self.name(seat)}'s seat")
        self._cancel(seat)
        self.gone.add(seat)
        self.stand_in(
            seat,
            f"the host hands {self.name(seat)}'s seat to the table's bot until they come back",
            "replaced",
        )

    def skip(self, seat: int) -> None:
        """Skip to the result: the bot plays this seat too, and with nobody left, at once."""
        if self.table.status != "playing":
            raise PresenceError("the game is not in play")
        others = [s for s in self.in_play() if s != seat]
        if others:
            names = ", ".join(self.name(s) for s in others)
            raise PresenceError(f"{names} still play: the game cannot skip to its result")
        self.skipping.add(seat)
        if seat not in self.stand_ins:
            self.stand_ins.add(seat)
            self.table.add_stand_in(seat, self.stand_in_bot(), timeouts=False)
        self.tell(f"{self.name(seat)} skips to the result: the bots finish the game", seat, "skip")
        self.check_empty()

    # --- telling --------------------------------------------------------------------

    def name(self, seat: int) -> str:
        return str(self.table.record.players[seat]["name"])

    def tell(self, text: str, seat: int, kind: str) -> None:
        self.table.notice(text, seat, kind)
        self.table.notify_seats()


def bot_rng() -> random.Random:
    return random.Random(secrets.randbits(64))
