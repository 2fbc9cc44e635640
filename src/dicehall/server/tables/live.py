"""One table held by the server: its state, players, listeners, bots and timers.

Everything here runs on the server's event loop; only the database write and
a bot's thinking are awaited in worker threads. A table takes its steps one
at a time (`self.lock`), in a fixed order: apply to the state (illegal input
raises and changes nothing), throw the dice that fall due, write the new steps
to the database, and only then tell every listener, each with its own seat's
view and events. A connection that opens while a step is being written gets
its welcome once the write is done (http/sockets.py waits for the lock).

A write the database refuses is retried with backoff while the table's
listeners are told it is paused; if it never succeeds the table goes back to
its last stored step and the mover is told to try again. Either way bots and
timers are planned afresh, so a bot whose move could not be saved moves again.
A step runs to its end even if the mover's connection closes meanwhile.

Every move names the step it answers (`act(seat, action, step)`): a move for
a turn that has passed is refused as stale, so a frame sent twice (a double
click, a resend after a reconnect) is never applied twice.

Where the rules have a player throw in their own turn (`State.thrower`, a
Toplshteyner roller), the table waits for a person's "throw" (`throw(seat,
step)`) before it throws their dice, and throws for them when their time is up
(the turn timer, or `ServerConfig.throw_wait_seconds` at an untimed table).
Bots and stand-ins throw at once, as before. The throw itself is drawn as any
other, so the rules and the transcript are the same either way.
"""

from __future__ import annotations

import asyncio
import contextlib
import copy
import hashlib
import hmac
import logging
import random
import time
from collections.abc import AsyncIterator, Callable, Coroutine, Sequence
from typing import Any, Protocol

from dicehall.core.bots import Bot
from dicehall.core.errors import DicehallError, IllegalActionError
from dicehall.core.game import Action, Game, State
from dicehall.core.transcript import apply_step, make_transcript
from dicehall.core.words import unique_name
from dicehall.server.ops.settings import ServerConfig
from dicehall.server.ops.wire import dumps
from dicehall.server.ops.workers import Busy, Pool
from dicehall.server.tables.chat import TableChat
from dicehall.server.tables.fairness import REVEAL_SECONDS, SealedTable, TableDice, table_dice
from dicehall.server.tables.house_rules import TableSettings
from dicehall.server.tables.presence import Presence
from dicehall.server.tables.store import Store, TableRecord
from dicehall.server.tables.timebank import TimeBanks
from dicehall.server.tables.tracking import Tracker

log = logging.getLogger("dicehall.server")

WAITING, PLAYING, OVER = "waiting", "playing", "over"
THROWS = -1  # the key in `_bot_turns` of the table's throws for a seat a bot took over
CLOSED = "closed"  # expired while waiting, or left by every person (settings.when_empty)
MAX_LABELS = 4096  # action labels a table keeps (_choices); a game's actions are far fewer
# Sealed dice: how long openings the tracker found wait for an update to ride with. An
# opening on its own was a second message to each seat it was for, about a third more
# messages a move at Kariki; a move comes sooner than this at a table in play, and an
# opening proves a throw the seat can already see, so waiting costs nothing but time.
OPENINGS_HOLD_SECONDS = 1.0
STORY_PACE_MAX_SECONDS = 0.6
"""The page tells an update's events one by one, at half the bots' pause and at most this
(table.js, STORY_MAX_MS); a person's turn timer starts once the story is told."""


class Listener(Protocol):
    """A connection watching a table: None is a spectator's seat."""

    seat: int | None

    def push(self, text: str) -> None: ...


class SaveError(Busy):
    """The database refused a step; the table went back to its last stored step."""

    def __init__(self, message: str, retry_after: int = 5) -> None:
        super().__init__(message, retry_after)


class StaleMove(IllegalActionError):
    """A move that answers a step the seat's turn has moved past; nothing changed."""


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


class LiveTable:
    def __init__(
        self,
        record: TableRecord,
        game: Game,
        store: Store,
        config: ServerConfig | None = None,
        bot_pool: Pool | None = None,
        tracker: Tracker | None = None,
    ) -> None:
        self.record = record
        self.game = game
        self.store = store
        self.config = config or ServerConfig()
        self.bot_pool = bot_pool or Pool("bots", 0, 1)
        self.tracker = tracker or Tracker(processes=False)  # sealed dice (tracking.py)
        self.lock = asyncio.Lock()  # one step (or seat change) at a time
        # who made it, (client address, account id), for the caps on waiting tables
        # (waiting.py); in memory only
        self.origin: tuple[str | None, str | None] = (None, None)
        self.paused: str | None = None  # why, while a refused write is being retried
        # seat -> (the step its turn began at, its legal actions then): what a move must answer
        self._turns: dict[int, tuple[int, list[Action]]] = {}
        self._tasks: set[asyncio.Task[None]] = set()
        self._public: tuple[int, Any] | None = None  # (step, spectator view) while stepping
        # id(action) -> (action, its label), where labels name actions alone (_choices)
        own_labels = type(game).choice_label is not Game.choice_label
        self._labels: dict[int, tuple[Action, str]] | None = None if own_labels else {}
        self.steps: list[dict[str, Any]] = []
        self.stored_status = record.status
        self.state: State = game.new_state(record=True)
        self.dice: TableDice = table_dice(record, game)
        try:
            self._loop: asyncio.AbstractEventLoop | None = asyncio.get_running_loop()
        except RuntimeError:  # built outside the server (a test): sealed dice track in line
            self._loop = None
        self._round_timer: asyncio.TimerHandle | None = None
        # sealed dice: openings the tracker found, by seat, until an update carries them
        self._held: dict[int | None, list[dict[str, Any]]] = {}
        self._held_timer: asyncio.TimerHandle | None = None
        self.listeners: set[Listener] = set()
        self.bots: dict[int, Bot] = {}
        self._bot_warnings: dict[int, str] | None = None
        self.deadlines: dict[int, float] = {}
        self._timers: dict[int, asyncio.TimerHandle] = {}
        self._bot_turns: dict[int, asyncio.Handle] = {}
        self.on_change: Callable[[LiveTable], None] | None = None
        self.on_move: Callable[[float], None] | None = None  # seconds a move took (http/health.py)
        self.settings = TableSettings()
        self.presence = Presence(self)
        self.chat: TableChat | None = None  # set by the hall, which holds the chat's store
        self.timeout_seats: set[int] = set()  # stand-ins that make the safe move (conceded)
        self.hurried = False  # nobody left to watch: bots move without a pause
        self.banks = TimeBanks(0.0)  # set by the hall from the settings (timebank.py)
        self.clock: Callable[[], float] = time.time  # turn deadlines; tests set a fake one
        self.moved_at = time.time()  # the last seat's move (or since held): the lobby shows it

    # --- building ------------------------------------------------------------------

    def replay(self, steps: list[Any]) -> None:
        """Bring the state to the stored steps (a restart, or a finished table looked up)."""
        self.state = self.game.new_state(record=True)
        if isinstance(self.dice, SealedTable):
            self.dice.release()  # steps rolled back: what they showed is not told
        self._held = {}
        self.dice = table_dice(self.record, self.game)
        if isinstance(self.dice, SealedTable) and self._loop is not None:
            self.dice.track_live(self.tracker, self._openings_found)
        for step in steps:
            apply_step(self.state, step)
        self.dice.follow(steps, replayed=True)
        self.steps = list(steps)
        self._turns = {}
        self._track_turns(None)

    def bot_warnings(self) -> dict[int, str]:
        """Each seat's bot that cannot play at its measured strength here, in words
        (`Game.bot_warning`): shown with the seat, so that no bot falls back silently.
        Asked once per table and logged."""
        if self._bot_warnings is None:
            found: dict[int, str] = {}
            for seat, player in enumerate(self.record.players):
                bot = player["bot"]
                note = self.game.bot_warning(bot) if bot and not player.get("outside") else None
                if note:
                    found[seat] = note
                    log.warning("table %s seat %d (%s): %s", self.record.id, seat, bot, note)
            self._bot_warnings = found
        return self._bot_warnings

    def seat_bots(self, rng: random.Random) -> None:
        factories = self.game.bots()
        for seat, player in enumerate(self.record.players):
            if player["bot"] is not None:
                self.bots[seat] = factories[player["bot"]](
                    self.game, seat, random.Random(rng.random())
                )

    # --- who sits here -------------------------------------------------------------

    @property
    def id(self) -> str:
        return self.record.id

    @property
    def status(self) -> str:
        return self.record.status

    @property
    def step(self) -> int:
        return len(self.steps)

    @property
    def names(self) -> list[str]:
        return [p["name"] for p in self.record.players]

    def seat_of(self, token: str) -> int | None:
        """The seat a token holds, compared in constant time."""
        wanted = token_hash(token)
        found = None
        for seat, player in enumerate(self.record.players):
            held = player["token_hash"]
            if held is not None and hmac.compare_digest(held, wanted):
                found = seat
        return found

    def free_seats(self) -> list[int]:
        return [
            s
            for s, p in enumerate(self.record.players)
            if p["bot"] is None and p["token_hash"] is None and not p.get("reserved")
        ]

    def connected(self, seat: int) -> bool:
        return any(listener.seat == seat for listener in self.listeners)

    def summary(self) -> dict[str, Any]:
        """The public facts of the table (GET /api/tables/{id}, rooms, the open list)."""
        r = self.record
        data: dict[str, Any] = {
            "table_id": r.id,
            "room": r.room,
            "game": r.game,
            "options": dict(self.game.options),
            "status": r.status,
            "seats": [
                {
                    "seat": s,
                    "name": p["name"],
                    "bot": p["bot"],
                    "human": p["bot"] is None,
                    "outside_bot": bool(p.get("outside")),  # kept for a bot from outside
                    "bot_warning": self.bot_warnings().get(s),
                    "taken": p["bot"] is not None or p["token_hash"] is not None,
                    "connected": p["bot"] is not None or self.connected(s),
                    **self.presence.seat_facts(s),
                }
                for s, p in enumerate(r.players)
            ],
            "free_seats": self.free_seats(),
            "turn_seconds": r.turn_seconds,
            "bot_delay_ms": r.bot_delay_ms,
            "step": self._public[0] if self._public is not None else self.step,
            "paused": self.paused,
            **self.dice.public(r.status == OVER),
            "rematch_id": r.rematch_id,
            "settings": self.settings.to_json(),
            "time_bank": {"seconds": self.banks.seconds, "left": self.banks.to_json()},
            "host": self.presence.host(),
        }
        if r.status == OVER:
            data["result"] = self.state.result().to_json()
        return data

    async def claim(
        self,
        seat: int,
        token: str,
        name: str | None = None,
        entropy: str | None = None,
        account: str | None = None,
    ) -> None:
        """A player takes a seat; `entropy`: their commitment to their entropy (checked hex),
        `account`: the id of the player's account (people/accounts.py), kept with the seat.

        Stored first: when the database refuses (StorageError, a 503) the seat stays free.
        """
        await self._whole(self._claim(seat, token, name, entropy, account))
        if self.status == WAITING and not self._unclaimed():
            await self.begin()

    async def _claim(
        self, seat: int, token: str, name: str | None, entropy: str | None, account: str | None
    ) -> None:
        async with self.lock:
            players = copy.deepcopy(self.record.players)
            players[seat].update(token_hash=token_hash(token), reserved=False)
            if account is not None:
                players[seat]["account"] = account
            if name is not None:
                others = [p.get("name") or "" for s, p in enumerate(players) if s != seat]
                players[seat]["name"] = unique_name(name, others)
            if entropy is not None:
                players[seat]["entropy"] = entropy
            await self.store.write(self.store.save_players, self.id, players, self.stored_status)
            self.record.players = players
            if entropy is not None:
                self.dice.commit(seat, entropy)
            self.notify_seats()

    async def commit(self, seat: int, entropy: str) -> None:
        """A seated player's commitment to their entropy, while the table waits for players;
        stored first (in the writer thread): a refused write changes nothing."""
        async with self.lock:
            if self.record.status != WAITING:
                raise IllegalActionError(
                    "entropy commitments close when the game starts: send yours with your join"
                )
            players = copy.deepcopy(self.record.players)
            players[seat]["entropy"] = entropy
            await self.store.write(self.store.save_seats, self.id, players)
            self.record.players = players
            self.dice.commit(seat, entropy)

    def save_players(self) -> None:
        """Store the seats as they are now (a player left or conceded), in the writer thread;
        the table goes on meanwhile, and a refused write is logged."""
        self._spawn(self._save_players, copy.deepcopy(self.record.players))

    async def _save_players(self, players: list[dict[str, Any]]) -> None:
        try:
            await self.store.write(self.store.save_seats, self.id, players)
        except Busy as e:
            log.error("table %s: its seats could not be stored: %s", self.id, e)

    def _unclaimed(self) -> list[int]:
        return [
            s
            for s, p in enumerate(self.record.players)
            if p["bot"] is None and p["token_hash"] is None
        ]

    # --- play ----------------------------------------------------------------------

    async def start(self) -> None:
        """Every human seat is taken: throw what is due and let the first seat act."""
        await self._whole(self._start())

    async def _start(self) -> None:
        async with self._stepping():
            if self.record.status != WAITING:
                return
            self.record.status = PLAYING
            await self._commit(len(self.steps), len(self.state.log or ()), None)
            self.presence.game_started()

    async def begin(self) -> None:
        """Start now, or, if the database refuses, as soon as it takes the start: the
        seats are taken and stored already, so the request that filled them succeeded."""
        try:
            await self.start()
        except SaveError:
            self._spawn(self._start_later)

    async def _start_later(self) -> None:
        while self.status == WAITING:
            await asyncio.sleep(self.config.retry_max_seconds)
            with contextlib.suppress(SaveError):
                await self.start()

    async def resume(self) -> None:
        """After a restart: go on where the stored steps left off."""
        if self.record.status == PLAYING:
            await self._whole(self._resume())

    async def _resume(self) -> None:
        async with self._stepping():
            await self._commit(len(self.steps), len(self.state.log or ()), None)
            self.presence.game_started()

    async def act(self, seat: int, action: Action, step: int) -> None:
        """A seat's action answering `step`; a stale or illegal one raises, nothing changes."""
        await self._move(seat, action, step)

    async def timeout(self, seat: int, step: int) -> None:
        """The seat's timer ran out (or its bot failed): the game's default for it."""
        await self._move(seat, None, step)

    async def _move(self, seat: int, action: Action | None, step: int) -> None:
        self._check_unpaused()
        await self._whole(self._locked_move(seat, action, step))

    def _check_unpaused(self) -> None:
        if self.paused is not None:
            raise SaveError(f"the table is paused: {self.paused}; wait until it resumes")

    async def throw(self, seat: int, step: int) -> None:
        """A person makes their own throw (State.thrower), the one the table waits for at
        `step`; a throw sent twice answers a step that has passed and is refused."""
        self._check_unpaused()
        await self._whole(self._locked_throw(seat, step))

    async def _locked_throw(self, seat: int, step: int) -> None:
        async with self._stepping():
            self._check_playing()
            if self.throw_due() != seat:
                raise IllegalActionError(f"no throw of seat {seat} is due: it is not your throw")
            if step != self.step:
                raise StaleMove(
                    f"stale throw: it answers step {step}, but your throw is due at step"
                    f" {self.step}; nothing was thrown"
                )
            await self._commit(self.step, len(self.state.log or ()), seat, throw=seat)

    def throw_due(self) -> int | None:
        """The person whose own throw the table waits for; bots and stand-ins throw at once."""
        if self.record.status != PLAYING or not self.state.is_chance():
            return None
        seat = self.state.thrower()
        return seat if seat is not None and seat not in self.bots else None

    async def _table_throws(self) -> None:
        """A person's throw was due and a bot now plays the seat: it throws at the bot pace."""
        self._bot_turns.pop(THROWS, None)
        await self._whole(self._locked_table_throws())

    async def _locked_table_throws(self) -> None:
        async with self._stepping():
            if self.record.status != PLAYING or not self.state.is_chance():
                return
            if self.throw_due() is not None or self.dice.round is not None:
                return
            try:
                await self._commit(self.step, len(self.state.log or ()), None)
            except SaveError:
                log.warning("table %s: throws not saved; they will be tried again", self.id)

    async def _locked_move(self, seat: int, action: Action | None, step: int) -> None:
        began = time.perf_counter()
        async with self._stepping():
            self._check_playing()
            self._check_fresh(seat, step)
            first, logged = len(self.steps), len(self.state.log or ())
            if action is None:
                self.state.timeout(seat)
                self.steps.append({"seat": seat, "timeout": True})
            else:
                played = self.state.apply(seat, action)
                self.steps.append({"seat": seat, "action": dict(played)})
            await self._commit(first, logged, seat)
        if self.on_move is not None:
            self.on_move(time.perf_counter() - began)

    @contextlib.asynccontextmanager
    async def _stepping(self) -> AsyncIterator[None]:
        """Hold the lock for a step; until it is stored, the public facts stay those of the
        last stored step (GET /api/tables/{id} during a write or a pause)."""
        async with self.lock:
            self._public = (self.step, self.state.view(None))
            try:
                yield
            finally:
                self._public = None

    def public_view(self) -> Any:
        """The spectator's view of the last stored step."""
        return self._public[1] if self._public is not None else self.state.view(None)

    async def _whole(self, job: Coroutine[Any, Any, None]) -> None:
        """Run a step to its end even if the caller goes away (a closed connection cancels
        its handler): a write the database took must be taken by the table too."""
        task = asyncio.ensure_future(job)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
        task.add_done_callback(lambda t: t.cancelled() or t.exception())
        await asyncio.shield(task)

    def _spawn(self, job: Callable[..., Coroutine[Any, Any, None]], *args: Any) -> None:
        """Run a coroutine of this table as a task, kept until done (close cancels it)."""
        task = asyncio.get_running_loop().create_task(job(*args))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    def _check_fresh(self, seat: int, step: int) -> None:
        """Refuse a move that answers a step the seat's turn has moved past."""
        now = self.step
        if step > now:
            raise StaleMove(f"step {step} has not happened yet: the table is at step {now}")
        began = self._turns[seat][0] if seat in self._turns else now
        if step < began:
            raise StaleMove(
                f"stale move: it answers step {step}, but the table is at step {now}"
                f" and this turn began at step {began}; nothing was played"
            )

    def _track_turns(self, mover: int | None) -> None:
        """Note when each actor's turn began: a mover's own turn always begins anew, another
        seat's only when its legal actions changed (a simultaneous choice stays open)."""
        now = self.step
        actors = self.state.actors() if self.status == PLAYING else ()
        turns: dict[int, tuple[int, list[Action]]] = {}
        for seat in actors:
            legal = list(self.state.legal_actions(seat))
            held = self._turns.get(seat)
            keep = held is not None and seat != mover and held[1] == legal
            turns[seat] = held if keep and held is not None else (now, legal)
        self._turns = turns

    def _check_playing(self) -> None:
        if self.record.status == WAITING:
            raise IllegalActionError("the game has not started: waiting for players")
        if self.record.status == OVER:
            raise IllegalActionError("the game is over")
        if self.record.status == CLOSED:
            raise IllegalActionError("the table is closed")

    async def _commit(
        self, first: int, logged: int, mover: int | None, throw: int | None = None
    ) -> None:
        """Throw due dice (up to a person's own throw, unless it is the one they just made,
        `throw`), store the new steps, then plan timers and bots and tell everyone.

        With the lock held."""
        state = self.state
        while state.is_chance():
            due = self.throw_due()
            if due is not None:
                if due != throw:
                    break
                throw = None
            if not self.dice.ready():  # a sealed table: the seats' entropy comes first
                self.dice.open_round()
                if self.dice.waiting_now():
                    break
                self.steps.append(self.dice.close_round())
                continue
            faces = self.dice.throw(state.chance_dice())
            state.apply_chance(faces)
            self.steps.append({"chance": list(faces)})
        self.dice.follow(self.steps[first:])
        if state.is_over():
            self.record.status = OVER
        changed = self.record.status if self.record.status != self.stored_status else None
        if self.steps[first:] or changed is not None:
            try:
                await self._store(first, self.steps[first:], changed)
            except SaveError:
                self.record.status = self.stored_status
                self.replay(self.steps[:first])
                self._plan(None, retry=True)
                raise
            self.stored_status = self.record.status
            self._track_turns(mover)
            if mover is not None:
                self.moved_at = time.time()
        self._plan(mover, story=self.story_seconds(logged))
        self._broadcast(first, logged)
        if self.dice.round is not None and self._round_timer is None:
            self._announce_round()
        self._changed()

    async def _store(self, first: int, new: list[dict[str, Any]], status: str | None) -> None:
        """Write the steps, retrying with backoff (the table paused) until it works or
        `retry_give_up_seconds` pass; then SaveError and nothing was stored."""
        cfg = self.config
        delay, began, attempt = cfg.retry_first_seconds, time.monotonic(), 0
        try:
            while True:
                try:
                    await self.store.save_steps(self.id, first, new, status, attempt > 0)
                    return
                except Busy as e:
                    attempt += 1
                    if time.monotonic() - began + delay > cfg.retry_give_up_seconds:
                        log.error("table %s: gave up storing steps from %d: %s", self.id, first, e)
                        raise SaveError(
                            f"the server could not save that move ({e}); nothing was played"
                        ) from e
                    if self.paused is None:
                        log.warning(
                            "table %s: paused, steps from %d not stored: %s", self.id, first, e
                        )
                        self.paused = str(e)
                        self.tell_all({"type": "paused", "message": f"the table is paused: {e}"})
                    await asyncio.sleep(delay)
                    delay = min(delay * 2, cfg.retry_max_seconds)
        finally:
            if self.paused is not None:
                self.paused = None
                log.warning("table %s: resumed after %d attempts", self.id, attempt + 1)
                self.tell_all({"type": "resumed"})

    # --- the seats' entropy (sealed tables) ------------------------------------------
    # --- the seats' entropy and openings (sealed tables) ------------------------------

    def _openings_found(self, news: dict[int | None, list[dict[str, Any]]]) -> None:
        """From the tracker thread: openings the rules just showed, by audience."""
        assert self._loop is not None
        self._loop.call_soon_threadsafe(self._send_openings, news)

    def _send_openings(self, news: dict[int | None, list[dict[str, Any]]]) -> None:
        """Hold new openings for the seats that are listening: they ride with each seat's
        next update, or go on their own after OPENINGS_HOLD_SECONDS if none comes first,
        and at once when the game is over."""
        public = news.get(None, [])
        for seat in {listener.seat for listener in self.listeners}:
            openings = public if seat is None else public + news.get(seat, [])
            if openings:
                self._held.setdefault(seat, []).extend(openings)
        if self._held and self.status == OVER:  # no update will come to carry them
            if self._held_timer is not None:
                self._held_timer.cancel()
            self._send_held()
        elif self._held and self._held_timer is None:
            loop = asyncio.get_running_loop()
            self._held_timer = loop.call_later(OPENINGS_HOLD_SECONDS, self._send_held)

    def _send_held(self) -> None:
        """The held openings no update carried: each seat's in a message of its own."""
        self._held_timer = None
        held, self._held = self._held, {}
        texts = {seat: dumps({"type": "openings", "openings": o}) for seat, o in held.items()}
        for listener in list(self.listeners):
            text = texts.get(listener.seat)
            if text is not None:
                listener.push(text)

    def _announce_round(self) -> None:
        """Ask the seats for their values; throw without the missing ones when time is up."""
        text = dumps(self.dice.round)
        for listener in list(self.listeners):
            listener.push(text)
        loop = asyncio.get_running_loop()
        self._round_timer = loop.call_later(REVEAL_SECONDS, self._spawn, self._close_round)

    async def reveal(self, seat: int, batch: object, value: object) -> None:
        """A seat's entropy value for the open round; a wrong one raises, nothing changes."""
        self.dice.reveal(seat, batch, value)
        if not self.dice.waiting_now():
            await self._close_round()

    async def _close_round(self) -> None:
        await self._whole(self._locked_close_round())

    async def _locked_close_round(self) -> None:
        async with self._stepping():
            if self._round_timer is not None:
                self._round_timer.cancel()
                self._round_timer = None
            if self.dice.round is None or self.record.status != PLAYING:
                return
            first, logged = len(self.steps), len(self.state.log or ())
            self.steps.append(self.dice.close_round())
            try:
                await self._commit(first, logged, None)
            except SaveError:
                log.exception("table %s: the entropy round could not be stored", self.id)

    # --- timers and bots -----------------------------------------------------------

    def story_seconds(self, logged: int) -> float:
        """How long the page takes to tell the events logged from `logged` on: the first at
        once, each next one a pace later (story.js). A turn's clock starts after that, so
        a person never watches their time run while the buttons wait for the story."""
        told = len(self.state.log or ()) - logged
        if told <= 1:
            return 0.0
        pace = min(self.record.bot_delay_ms / 2000, STORY_PACE_MAX_SECONDS)
        return (told - 1) * pace

    def _plan(self, mover: int | None, retry: bool = False, story: float = 0.0) -> None:
        """Timers for human actors and turns for bot actors; after a failure (`retry`)
        bots try again after a pause rather than at once. A person's new timer also
        waits out `story`, the time the page takes to tell this step's events."""
        actors = self.state.actors() if self.record.status == PLAYING else ()
        due = self.throw_due()
        for seat in list(self.deadlines):
            if seat == mover or (seat not in actors and seat != due):
                self._cancel_timer(seat)
        loop = asyncio.get_running_loop()
        if due is not None and due not in self.deadlines:
            wait = (self.turn_limit(due) or self.config.throw_wait_seconds) + story
            self.deadlines[due] = self.clock() + wait
            self._timers[due] = loop.call_later(wait, self._spawn, self._expire, due)
        elif (
            due is None
            and self.record.status == PLAYING
            and self.state.is_chance()
            and self.dice.round is None
            and THROWS not in self._bot_turns
        ):
            delay = 0 if self.hurried else self.record.bot_delay_ms / 1000
            if retry:
                delay = max(delay, self.config.retry_max_seconds)
            self._bot_turns[THROWS] = loop.call_later(delay, self._spawn, self._table_throws)
        for seat in actors:
            if seat in self.bots:
                if seat not in self._bot_turns:
                    delay = 0 if self.hurried else self.record.bot_delay_ms / 1000
                    if retry:
                        delay = max(delay, self.config.retry_max_seconds)
                    self._bot_turns[seat] = loop.call_later(
                        delay, self._spawn, self._bot_turn, seat
                    )
            elif (limit := self.turn_limit(seat)) is not None and seat not in self.deadlines:
                if not self.record.players[seat].get("outside"):
                    limit += story  # a bot from outside reads no story
                self.deadlines[seat] = self.clock() + limit
                self._timers[seat] = loop.call_later(limit, self._spawn, self._expire, seat)

    def turn_limit(self, seat: int) -> float | None:
        """A seat's time for a turn: a bot from outside has its per-decision limit
        (outside_bots.py), a person the table's turn timer."""
        if self.record.players[seat].get("outside"):
            return self.config.outside_bot_ms / 1000
        return self.record.turn_seconds

    def _cancel_timer(self, seat: int) -> None:
        self.banks.stop(seat, self.clock())
        self.deadlines.pop(seat, None)
        timer = self._timers.pop(seat, None)
        if timer is not None:
            timer.cancel()

    async def _expire(self, seat: int) -> None:
        self._timers.pop(seat, None)
        if self.throw_due() == seat:  # the table throws for a person whose time ran out
            try:
                await self.throw(seat, self.step)
            except (DicehallError, SaveError):
                log.exception("table %s: the throw for seat %d failed", self.id, seat)
                self._plan(None, retry=True)
            return
        if self.record.status != PLAYING or seat not in self.state.actors():
            return
        outside = self.record.players[seat].get("outside")
        if seat not in self.banks.drawing and not outside:  # time up: on to the time bank
            extra = self.banks.draw(seat, self.clock())
            if extra > 0:
                self.deadlines[seat] = self.clock() + extra
                loop = asyncio.get_running_loop()
                self._timers[seat] = loop.call_later(extra, self._spawn, self._expire, seat)
                self.tell_all(self.clock_message())
                return
        try:
            await self.timeout(seat, self.step)
        except (DicehallError, SaveError):
            log.exception("table %s: timeout of seat %d failed", self.id, seat)
            self._plan(None, retry=True)

    async def _bot_turn(self, seat: int) -> None:
        """The bot thinks in a worker thread on its own copy of its view; if the position
        moved on meanwhile, its move is stale and the bot is asked again."""
        self._bot_turns.pop(seat, None)
        if self.record.status != PLAYING or seat not in self.state.actors():
            return
        if seat not in self.bots:  # its player came back after this turn was planned
            return
        step = self.step
        try:
            if seat in self.timeout_seats:
                await self._move(seat, None, step)
                return
            view = copy.deepcopy(self.state.view(seat))
            legal: Sequence[Action] = list(self.state.legal_actions(seat))
            action: Action | None
            bot = self.bots[seat]
            try:
                action = await self.bot_pool.run(bot.choose, view, legal)
            except Busy:
                self._plan(None, retry=True)
                return
            except Exception:
                log.exception(
                    "table %s: the bot at seat %d failed; the table acts for it", self.id, seat
                )
                action = None
            if self.bots.get(seat) is not bot:  # its player came back while it thought
                return
            try:
                await self._move(seat, action, step)
            except StaleMove:
                self._plan(None)
            except IllegalActionError:
                if self.record.status != PLAYING:  # another seat ended it while this one thought
                    return
                log.exception("table %s: the bot at seat %d chose an illegal move", self.id, seat)
                await self._move(seat, None, step)
        except SaveError:
            log.warning("table %s: bot move of seat %d not saved; it will try again", self.id, seat)
            self._plan(None, retry=True)
        except DicehallError:
            log.exception("table %s: the bot turn of seat %d failed", self.id, seat)
            self._plan(None, retry=True)

    # --- the table's bot standing in for an absent person (presence.py) -------------

    def add_stand_in(self, seat: int, bot: str, timeouts: bool) -> None:
        """The table plays the seat from now on: with the bot, or its safe move (timeouts)."""
        self._cancel_timer(seat)
        self.bots[seat] = self.game.bots()[bot](self.game, seat, random.Random())
        if timeouts:
            self.timeout_seats.add(seat)
        if self.record.status == PLAYING:
            self._plan(None)

    def remove_stand_in(self, seat: int) -> None:
        """The seat's player is back: their turn (and its timer) is theirs again."""
        self.bots.pop(seat, None)
        self.timeout_seats.discard(seat)
        handle = self._bot_turns.pop(seat, None)
        if handle is not None:
            handle.cancel()
        if self.record.status == PLAYING:
            self._plan(None)

    def hurry(self) -> None:
        """Nobody is left to follow the game: the bots play on without pausing."""
        if self.hurried:
            return
        self.hurried = True
        for seat, handle in list(self._bot_turns.items()):
            handle.cancel()
            del self._bot_turns[seat]
        self._plan(None)

    def shut(self, why: str) -> None:
        """Close the table unfinished: it expired waiting (expiry.py), or every person left
        and the host chose to close such a game. Its steps stay; it is never resumed."""
        self.record.status = CLOSED
        self.close()
        self._spawn(self._store_closed)
        self.notice(why, None, "closed")
        self.notify_seats()
        self._changed()

    async def _store_closed(self) -> None:
        try:
            await self._store(len(self.steps), [], CLOSED)
            self.stored_status = CLOSED
        except SaveError:
            log.error("table %s: its closing could not be stored; it stays closed here", self.id)

    def clock_message(self) -> dict[str, Any]:
        """New deadlines when a seat begins to spend its time bank (public, like all timers)."""
        return {
            "type": "clock",
            "deadline": self.deadline(),
            "deadlines": {str(s): t for s, t in self.deadlines.items()},
            "time_banks": self.banks.to_json(),
        }

    def notice(self, text: str, seat: int | None, kind: str) -> None:
        """Tell everyone at the table something about its people (never about the game)."""
        self.tell_all({"type": "notice", "kind": kind, "seat": seat, "text": text})

    def tell_all(self, message: dict[str, Any]) -> None:
        """One public message, the same for every listener: seats, notices, chat."""
        text = dumps(message)
        for listener in list(self.listeners):
            listener.push(text)

    def close(self) -> None:
        """Stop timers, bots and the dice's tracking (server shutdown, a table closed or
        handed to another process): the stored steps are the table."""
        self.presence.close()
        if isinstance(self.dice, SealedTable):
            self.dice.release()
        for seat in list(self._timers):
            self._cancel_timer(seat)
        for handle in self._bot_turns.values():
            handle.cancel()
        self._bot_turns.clear()
        if self._round_timer is not None:
            self._round_timer.cancel()
            self._round_timer = None
        if self._held_timer is not None:
            self._held_timer.cancel()
            self._held_timer = None
        for task in self._tasks:
            if task is not asyncio.current_task():
                task.cancel()

    # --- what listeners see --------------------------------------------------------

    def deadline(self) -> float | None:
        return min(self.deadlines.values()) if self.deadlines else None

    def _turn(self) -> dict[str, Any]:
        """What every seat's position shares: the step, whose turn and throw, the clocks."""
        return {
            "step": len(self.steps),
            "status": self.status,
            "actors": list(self.state.actors()),
            "throw_due": self.throw_due(),
            "deadline": self.deadline(),
            "deadlines": {str(s): t for s, t in self.deadlines.items()},
        }

    def _position(self, seat: int | None, turn: dict[str, Any] | None = None) -> dict[str, Any]:
        """The position as `seat` sees it; `turn`, the shared part, when it is made once
        for every seat (an update)."""
        state = self.state
        legal = state.legal_actions(seat) if seat is not None and self.status == PLAYING else ()
        view = state.view(seat)
        offered = self.game.offered_choices(view, legal)
        return {"view": view, "legal": self._choices(view, offered), **(turn or self._turn())}

    def _choices(self, view: Any, legal: Sequence[Action]) -> list[dict[str, Any]]:
        """The legal actions with their labels. A game that names an action by the action
        alone (no `choice_label` of its own) has each label made once per table: the games
        hand out the same constant action dicts every turn, and a label cost more than the
        seat's whole view (Kariki's claims, a dozen a turn)."""
        if self._labels is None:
            return [{"action": a, "label": self.game.choice_label(view, a)} for a in legal]
        labels = self._labels
        out = []
        for action in legal:
            held = labels.get(id(action))
            if held is None or held[0] is not action:  # held: the dict, so its id stays its
                if len(labels) >= MAX_LABELS:
                    labels.clear()
                held = labels[id(action)] = (action, self.game.action_label(action))
            out.append({"action": action, "label": held[1]})
        return out

    def welcome(self, seat: int | None) -> str:
        return dumps(
            {
                "type": "welcome",
                "table_id": self.id,
                "seat": seat,
                "names": self.names,
                "events": self.state.events_for(seat),
                "chat": self.chat.latest() if self.chat is not None else [],
                "quick": self.chat.quick if self.chat is not None else {},
                "paused": self.paused,
                **self._position(seat),
                "openings": self.dice.openings(seat),
                "entropy": self.dice.round,
            }
        )

    def over_message(self) -> str:
        return dumps(
            {
                "type": "over",
                "result": self.state.result().to_json(),
                **self.dice.public(True),
            }
        )

    def _broadcast(self, first: int, logged: int) -> None:
        """An update per listener, built once per seat, then "over" if the game ended."""
        texts: dict[int | None, str] = {}
        over = self.over_message() if self.status == OVER else None
        turn = self._turn()
        for listener in list(self.listeners):
            seat = listener.seat
            text = texts.get(seat)
            if text is None:
                update = {
                    "type": "update",
                    "from_step": first,
                    "events": self.state.events_for(seat, logged),
                    **self._position(seat, turn),
                }
                held = self._held.pop(seat, None)
                if held is not None:
                    update["openings"] = held
                text = texts[seat] = dumps(update)
            listener.push(text)
            if over is not None:
                listener.push(over)

    def notify_seats(self) -> None:
        """Tell every listener who sits where and who is connected (public facts)."""
        self.tell_all({"type": "table", "table": self.summary()})

    def _changed(self) -> None:
        if self.on_change is not None:
            self.on_change(self)

    def transcript(self) -> dict[str, Any]:
        """The whole game for everyone, only for a finished table: with the revealed seed,
        or (sealed) the public throws' openings and stand-ins for the others. It may
        take a while for a long game: call it off the event loop."""
        data = make_transcript(self.game, self.steps, self.names, self.state)
        data["table_id"] = self.id
        data.update(self.dice.transcript(self.steps))
        return data
