"""Every table the server holds: creating, joining, finding, rematching, resuming.

Unfinished tables live in memory for as long as they are played (and are
rebuilt from the database when the server starts); finished ones are
rebuilt on demand and kept in a small cache.
"""

from __future__ import annotations

import base64
import hmac
import logging
import random
import re
import secrets
import time
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Mapping
from typing import Any

from dicehall.core.errors import DicehallError, OptionError
from dicehall.core.words import seat_name, unique_name
from dicehall.server.ops.settings import ServerConfig
from dicehall.server.ops.workers import Pool
from dicehall.server.tables.catalog import Catalog
from dicehall.server.tables.chat import ChatStore, TableChat
from dicehall.server.tables.expiry import expiry_text, stale
from dicehall.server.tables.fairness import (
    MODES,
    SEALED,
    SEED,
    check_commit,
    commitment_for,
    new_seed,
)
from dicehall.server.tables.house_rules import (
    SettingsStore,
    TableSettings,
    default_turn_seconds,
    time_bank,
)
from dicehall.server.tables.live import CLOSED, OVER, WAITING, LiveTable, SaveError, token_hash
from dicehall.server.tables.outside_bots import OUTSIDE, kept_seat
from dicehall.server.tables.quickmatch import SeatRatings, lobby_facts
from dicehall.server.tables.store import Store, TableRecord
from dicehall.server.tables.timebank import TimeBanks
from dicehall.server.tables.tracking import Tracker
from dicehall.server.tables.waiting import FULL_TEXT, check_caps, to_make_room

log = logging.getLogger("dicehall.server")

ROOM_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"  # no 0/O, 1/I
ROOM_LENGTH = 6
# what an id or room code the server made can look like; anything else is not looked up,
# which keeps strings no database column may hold (PostgreSQL refuses NUL) out of queries
TABLE_ID_SHAPE = re.compile(r"[A-Za-z0-9_-]{1,32}")
ROOM_SHAPE = re.compile(r"[A-Z0-9]{1,16}")
FINISHED_CACHE = 256


class NotFound(LookupError):
    """No such table or room (404)."""


class Conflict(Exception):
    """The request does not fit the table's situation: full, not over, ... (409)."""


class Forbidden(Exception):
    """A token that holds no seat here (403)."""


def new_token() -> str:
    return secrets.token_urlsafe(24)


def rematch_token(old_token: str, new_table_id: str) -> str:
    """A player's token at the rematch, derived from their old one: same for every ask."""
    digest = hmac.new(old_token.encode(), f"rematch:{new_table_id}".encode(), "sha256").digest()
    return base64.urlsafe_b64encode(digest).rstrip(b"=").decode()


class Hall:
    def __init__(
        self,
        store: Store,
        catalog: Catalog,
        max_waiting: int = 1000,
        waiting_seconds: float = 10 * 60,
        config: ServerConfig | None = None,
        waiting_per_address: int = 1_000_000,
        waiting_per_account: int = 1_000_000,
    ) -> None:
        self.store = store
        self.config = config or ServerConfig()
        self.bot_pool = Pool(
            "bots",
            self.config.bot_threads,
            self.config.bot_queue,
            retry_after=self.config.retry_after_seconds,
        )
        self.tracker = Tracker(processes=self.config.compute_in_processes)
        self.waiting_seconds = waiting_seconds
        self.settings = SettingsStore(store.engine)
        self.chats = ChatStore(store.engine)
        self.catalog = catalog
        self.max_waiting = max_waiting
        self.waiting_per_address = waiting_per_address
        self.waiting_per_account = waiting_per_account
        self.live: dict[str, LiveTable] = {}
        self.finished: OrderedDict[str, LiveTable] = OrderedDict()
        self.rooms: dict[str, str] = {}
        self.rng = random.Random(secrets.randbits(64))  # bots' own choices, not the dice
        # called on the event loop once a table's game is over (people/results.py records it)
        self.finish_hooks: list[Callable[[LiveTable], None]] = []
        # hooks of several processes on one site (server/cluster/) and of the metrics
        # (server/http/health.py); None for one process
        self.on_open: Callable[[str], Awaitable[None]] | None = None  # before it is stored
        self.on_end: Callable[[str], None] | None = None  # over or closed
        self.on_move: Callable[[float], None] | None = None  # a move took this many seconds

    # --- lookup --------------------------------------------------------------------

    def get(self, table_id: str) -> LiveTable:
        table = self.live.get(table_id) or self.finished.get(table_id)
        if table is not None:
            return table
        record = self.store.get(table_id) if TABLE_ID_SHAPE.fullmatch(table_id) else None
        if record is None:
            raise NotFound(f"no table {table_id!r}")
        try:
            table = self._rebuild(record, self.store.steps_of(table_id))
        except DicehallError as e:
            raise NotFound(f"table {table_id!r} cannot be shown here: {e}") from None
        self._keep_finished(table)
        return table

    def by_room(self, room: str) -> LiveTable:
        code = room.strip().upper()
        table_id = self.rooms.get(code)
        if table_id is None and ROOM_SHAPE.fullmatch(code):
            table_id = self.store.id_of_room(code)
        if table_id is None:
            raise NotFound(f"no room {room!r}")
        return self.get(table_id)

    def listed(self) -> list[LiveTable]:
        """The lobby's tables: listed, waiting or in play. A table that has just ended
        leaves `live` once its end is handled (`_on_change`); it is off the list at once."""
        return [
            t for t in self.live.values() if t.settings.listed and t.status not in (OVER, CLOSED)
        ]

    def open_tables(
        self, page: list[LiveTable] | None = None, ratings: SeatRatings | None = None
    ) -> list[dict[str, Any]]:
        """The lobby's list: listed tables waiting or in play (private ones only by room),
        or the `page` of them asked for, with each sitter's shown rating from `ratings`
        (people/lobby_ratings.py)."""
        out = []
        now = time.time()
        for table in self.listed() if page is None else page:
            taken = sum(1 for p in table.record.players if p["bot"] or p["token_hash"])
            out.append(
                {
                    "table_id": table.id,
                    "room": table.record.room,
                    "game": table.record.game,
                    "status": table.status,
                    "seats": table.record.seats,
                    "seats_taken": taken,
                    "free_seats": table.free_seats(),
                    "names": table.names,
                    **lobby_facts(table, now, ratings),
                }
            )
        return out

    # --- creating and joining ------------------------------------------------------

    async def create(
        self,
        game_id: str,
        seats: int | None,
        options: Mapping[str, object],
        bots: Mapping[int, str],
        names: list[str] | None,
        turn_seconds: float | None,
        bot_delay_ms: int,
        settings: TableSettings | None = None,
        fairness: str = SEALED,
        entropy: str | None = None,
        account: str | None = None,
        host_name: str | None = None,
        address: str | None = None,
    ) -> tuple[LiveTable, int, str]:
        """A new table; the host takes the first seat not given to a bot.

        `entropy` is the host's commitment to its entropy for the dice (sealed tables),
        `account` the id of the host's account (people/accounts.py), `host_name` its name there
        (a named account's own, over any in `names`), `address` the client's: the caps on
        waiting tables count by both (waiting.py)."""
        game = self.catalog.make(game_id, seats, options)
        if fairness not in MODES:
            raise OptionError(f"fairness must be one of {', '.join(MODES)}; got {fairness!r}")
        known = game.bots()
        for seat, bot in bots.items():
            if not 0 <= seat < game.seats:
                raise OptionError(f"there is no seat {seat}; seats are 0 to {game.seats - 1}")
            if bot not in known and bot != OUTSIDE:
                raise OptionError(
                    f"unknown bot {bot!r} for {game.id}; its bots are: {', '.join(known)}"
                    f" (or {OUTSIDE!r}: a seat kept for a bot from outside)"
                )
        humans = [s for s in range(game.seats) if s not in bots]
        if not humans:
            raise OptionError("every seat has a bot: leave at least one seat for a player")
        if names is not None and len(names) > game.seats:
            raise OptionError(f"{len(names)} names for {game.seats} seats")
        players: list[dict[str, Any]] = []
        for seat in range(game.seats):
            seat_bot = bots.get(seat)
            if seat_bot == OUTSIDE:
                players.append(kept_seat())
                continue
            name = names[seat] if names is not None and seat < len(names) else ""
            players.append(
                {
                    "name": name.strip() or seat_name(seat, seat_bot),
                    "bot": seat_bot,
                    "token_hash": None,
                }
            )
        token = new_token()
        host = humans[0]
        players[host]["token_hash"] = token_hash(token)
        if account is not None:
            players[host]["account"] = account
        if host_name is not None:
            players[host]["name"] = host_name
        if entropy is not None:
            players[host]["entropy"] = check_commit(entropy)
        if any(p["bot"] is None and p["token_hash"] is None for p in players):  # it will wait
            check_caps(
                self.live.values(),
                address,
                account,
                self.waiting_per_address,
                self.waiting_per_account,
            )
        for seat, player in enumerate(players):
            if not player.get("outside"):
                player["name"] = unique_name(player["name"], [p["name"] for p in players[:seat]])
        settings = settings or TableSettings()
        turns = default_turn_seconds(settings.listed, turn_seconds)
        table = await self._open(
            game_id,
            game.seats,
            dict(game.options),
            players,
            turns,
            bot_delay_ms,
            settings,
            fairness=fairness,
            origin=(address, account),
        )
        return table, host, token

    async def join(
        self,
        table: LiveTable,
        name: str,
        seat: int | None,
        entropy: str | None = None,
        account: str | None = None,
    ) -> tuple[int, str]:
        if table.status != WAITING:
            raise Conflict(f"table {table.id} is {table.status}: no seat is free")
        if table.settings.rated and account is not None:
            held = [s for s, p in enumerate(table.record.players) if p.get("account") == account]
            if held:
                raise Conflict(f"you hold seat {held[0]} of this rated table already")
        free = table.free_seats()
        if seat is None:
            if not free:
                raise Conflict(f"table {table.id} is full")
            seat = free[0]
        elif not 0 <= seat < table.record.seats:
            raise OptionError(f"there is no seat {seat}; seats are 0 to {table.record.seats - 1}")
        elif seat not in free:
            raise Conflict(f"seat {seat} of table {table.id} is taken")
        commit = None if entropy is None else check_commit(entropy)
        token = new_token()
        await table.claim(seat, token, name.strip() or None, commit, account)
        return seat, token

    async def open_bot_table(
        self, game_id: str, lineup: list[str], bot_delay_ms: int, settings: TableSettings
    ) -> LiveTable:
        """A table whose every seat a server's bot plays, by seat (the ladder, ladder.py): it
        has no seat for a person, so nobody waits for it or is kept from one. Seed dice:
        no person's hidden throws to keep secret, and no tracker to run for them."""
        game = self.catalog.make(game_id, len(lineup), {})
        players = [
            {"name": seat_name(seat, bot), "bot": bot, "token_hash": None}
            for seat, bot in enumerate(lineup)
        ]
        return await self._open(
            game_id, game.seats, dict(game.options), players, None, bot_delay_ms, settings,
            fairness=SEED,
        )  # fmt: skip

    async def rematch(
        self, old: LiveTable, token: str, entropy: str | None = None
    ) -> tuple[LiveTable, int, str]:
        """The rematch of a finished table: the same one for every player who asks."""
        seat = old.seat_of(token)
        if seat is None:
            raise Forbidden("this token holds no seat at that table")
        if old.status != OVER:
            raise Conflict("the game is not over yet")
        async with old.lock:  # every player who asks at once gets the same new table
            if old.record.rematch_id is None:
                players = [
                    {
                        "name": p["name"],
                        "bot": p["bot"],
                        "token_hash": None,
                        "reserved": not p["bot"],
                        **({"account": p["account"]} if p.get("account") else {}),
                        # a bot from outside comes back with its own rematch token
                        **({"outside": True} if p.get("outside") else {}),
                    }
                    for p in old.record.players
                ]
                r = old.record
                await self._open(
                    r.game,
                    r.seats,
                    r.options,
                    players,
                    r.turn_seconds,
                    r.bot_delay_ms,
                    old.settings,
                    old,
                    r.fairness,
                )
        assert old.record.rematch_id is not None
        new = self.get(old.record.rematch_id)
        new_token_ = rematch_token(token, new.id)
        if new.record.players[seat]["token_hash"] is None:
            commit = None if entropy is None else check_commit(entropy)
            await new.claim(seat, new_token_, None, commit)
        return new, seat, new_token_

    async def _open(
        self,
        game_id: str,
        seats: int,
        options: dict[str, Any],
        players: list[dict[str, Any]],
        turn_seconds: float | None,
        bot_delay_ms: int,
        settings: TableSettings,
        rematch_of: LiveTable | None = None,
        fairness: str = SEALED,
        origin: tuple[str | None, str | None] = (None, None),
    ) -> LiveTable:
        """Stored before it is held: a database that refuses (StorageError, a 503) leaves
        no table behind. At the server's cap of waiting tables, one makes room (waiting.py)."""
        evicted = to_make_room(self.live.values(), self.max_waiting)
        if evicted is not None:
            evicted.shut(FULL_TEXT)
        seed = new_seed()
        record = TableRecord(
            id=secrets.token_urlsafe(9),
            room=self._new_room(),
            game=game_id,
            seats=seats,
            options=options,
            players=players,
            status=WAITING,
            seed=seed.hex(),
            commitment=commitment_for(fairness, seed),
            turn_seconds=turn_seconds,
            bot_delay_ms=bot_delay_ms,
            fairness=fairness,
        )
        old_id = None if rematch_of is None else rematch_of.id
        if self.on_open is not None:
            await self.on_open(record.id)
        await self.store.write(self._insert, record, old_id, settings)
        if rematch_of is not None:
            rematch_of.record.rematch_id = record.id
        table = self._rebuild(record, [])
        table.origin = origin
        self._hold(table)
        if not any(p["bot"] is None and p["token_hash"] is None for p in players):
            await table.begin()
        return table

    def _insert(self, record: TableRecord, rematch_of: str | None, settings: TableSettings) -> None:
        """In the database's writer thread: the table's row, then its settings."""
        self.store.insert(record, rematch_of)
        self.settings.insert(record.id, settings)

    def _new_room(self) -> str:
        while True:
            room = "".join(secrets.choice(ROOM_ALPHABET) for _ in range(ROOM_LENGTH))
            if room not in self.rooms and not self.store.room_taken(room):
                return room

    # --- life cycle ----------------------------------------------------------------

    def _rebuild(self, record: TableRecord, steps: list[Any]) -> LiveTable:
        game = self.catalog.make(record.game, record.seats, record.options)
        table = LiveTable(record, game, self.store, self.config, self.bot_pool, self.tracker)
        table.on_move = self.on_move
        table.settings = self.settings.get(record.id)
        table.chat = TableChat(
            self.chats, record.id, table.settings, self.settings, self.store.write, record.game
        )
        table.banks = TimeBanks(time_bank(table.settings, record.turn_seconds))
        table.replay(steps)
        return table

    def _hold(self, table: LiveTable) -> None:
        """Keep an unfinished table in play: bots seated, finished ones moved to the cache."""
        table.seat_bots(self.rng)
        table.on_change = self._on_change
        self.live[table.id] = table
        self.rooms[table.record.room] = table.id

    def _on_change(self, table: LiveTable) -> None:
        if table.status in (OVER, CLOSED) and table.id in self.live:
            del self.live[table.id]
            self.rooms.pop(table.record.room, None)
            self._keep_finished(table)
            if table.status == OVER:
                for hook in self.finish_hooks:
                    hook(table)
            if self.on_end is not None:
                self.on_end(table.id)

    def _keep_finished(self, table: LiveTable) -> None:
        self.finished[table.id] = table
        self.finished.move_to_end(table.id)
        while len(self.finished) > FINISHED_CACHE:
            self.finished.popitem(last=False)

    def expire(self, now: float) -> list[str]:
        """Close every table still waiting for players after waiting_seconds (expiry.py)."""
        closed = []
        for table in stale(list(self.live.values()), now, self.waiting_seconds):
            table.shut(expiry_text(self.waiting_seconds))
            closed.append(table.id)
        return closed

    async def resume_all(self) -> int:
        """Rebuild every unfinished table from its stored steps and go on playing."""
        count = 0
        for record, steps in self.store.unfinished():
            count += await self.adopt(record, steps)
        return count

    async def adopt(self, record: TableRecord, steps: list[Any]) -> bool:
        """Rebuild an unfinished table from its stored steps and go on playing it here
        (at start, or taken over from another process of the site)."""
        try:
            table = self._rebuild(record, steps)
        except DicehallError as e:  # its game is gone, or the rules changed under it
            log.error("table %s cannot be resumed: %s", record.id, e)
            return False
        self._hold(table)
        try:
            await table.resume()
        except SaveError as e:
            log.error("table %s: could not resume yet: %s", record.id, e)
        return True

    def release(self, table_id: str) -> LiveTable | None:
        """Stop holding a table (another process of the site plays it now): its timers
        and bots stop; its stored steps are the table."""
        table = self.live.pop(table_id, None) or self.finished.pop(table_id, None)
        if table is not None:
            self.rooms.pop(table.record.room, None)
            table.close()
        return table

    def close(self) -> None:
        for table in self.live.values():
            table.close()
        self.bot_pool.close()
        self.tracker.close()
        self.store.close()
