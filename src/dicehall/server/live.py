"""One table held by the server: its state, players, listeners, bots and timers.

Everything here runs on the server's event loop; only the database write and
a bot's thinking are awaited in worker threads. A table's steps are taken one
at a time (`self.lock`), in a fixed order: work out the new steps on a copy of
the state (illegal input raises and changes nothing), throw the dice that fall
due, write the new steps to the database, and only then bring the table's
state along and tell every listener, each with its own seat's view and events.
So `self.state` is always the stored position: a client connecting while a
write is on its way sees the position before it, then the update.

A write the database refuses is retried with backoff while the table's
listeners are told it is paused; if it never succeeds the step is dropped
whole and the mover told to try again. Either way bots and timers are planned
afresh, so a bot whose move could not be saved moves again.

Every move names the step it answers (`act(seat, action, step)`): a move for
a turn that has passed is refused as stale, so a frame sent twice (a double
click, a resend after a reconnect) is never applied twice.
"""

from __future__ import annotations

import asyncio
import contextlib
import copy
import hashlib
import hmac
import json
import logging
import random
import time
from collections.abc import Callable, Coroutine, Sequence
from typing import Any, Protocol

from dicehall.core.bots import Bot
from dicehall.core.chance import CommittedDice
from dicehall.core.errors import DicehallError, IllegalActionError
from dicehall.core.game import Action, Game, State
from dicehall.core.transcript import apply_step, make_transcript
from dicehall.server.config import ServerConfig
from dicehall.server.store import Store, TableRecord
from dicehall.server.workers import Busy, Pool

log = logging.getLogger("dicehall.server")

WAITING, PLAYING, OVER = "waiting", "playing", "over"


class Listener(Protocol):
    """A connection watching a table: None is a spectator's seat."""

    seat: int | None

    def push(self, text: str) -> None: ...


class SaveError(Busy):
    """The database refused a step; the table is still at its last stored step."""

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
    ) -> None:
        self.record = record
        self.game = game
        self.store = store
        self.config = config or ServerConfig()
        self.bot_pool = bot_pool or Pool("bots", 0, 1)
        self.seed = bytes.fromhex(record.seed)
        self.steps: list[dict[str, Any]] = []
        self.state: State = game.new_state(record=True)
        self.dice = CommittedDice(self.seed)
        self.listeners: set[Listener] = set()
        self.bots: dict[int, Bot] = {}
        self.deadlines: dict[int, float] = {}
        self.lock = asyncio.Lock()  # one step (or seat change) at a time
        self.paused: str | None = None  # why, while a refused write is being retried
        # seat -> (the step its turn began at, its legal actions then): what a move must answer
        self._turns: dict[int, tuple[int, list[Action]]] = {}
        self._timers: dict[int, asyncio.TimerHandle] = {}
        self._bot_turns: dict[int, asyncio.Handle] = {}
        self._tasks: set[asyncio.Task[None]] = set()
        self.on_change: Callable[[LiveTable], None] | None = None

    # --- building ------------------------------------------------------------------

    def replay(self, steps: list[Any]) -> None:
        """Bring the state to the stored steps (a restart, or a finished table looked up)."""
        self.state = self.game.new_state(record=True)
        self.dice = CommittedDice(self.seed)
        for step in steps:
            apply_step(self.state, step)
            if "chance" in step:
                self.dice.count += 1
        self.steps = list(steps)
        self._turns = {}
        self._track_turns(None)

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
                    "taken": p["bot"] is not None or p["token_hash"] is not None,
                    "connected": p["bot"] is not None or self.connected(s),
                }
                for s, p in enumerate(r.players)
            ],
            "free_seats": self.free_seats(),
            "turn_seconds": r.turn_seconds,
            "bot_delay_ms": r.bot_delay_ms,
            "step": self.step,
            "paused": self.paused,
            "commitment": r.commitment,
            "rematch_id": r.rematch_id,
        }
        if r.status == OVER:
            data["seed"] = r.seed
            data["result"] = self.state.result().to_json()
        return data

    async def claim(self, seat: int, token: str, name: str | None = None) -> None:
        """Give a free seat to a token: stored first, so a refused write leaves it free.

        Raises StorageError (503) when the database refuses; the seat stays free.
        """
        await self._whole(self._claim(seat, token, name))
        if self.status == WAITING and not self._unclaimed():
            await self.begin()

    async def _claim(self, seat: int, token: str, name: str | None) -> None:
        async with self.lock:
            players = copy.deepcopy(self.record.players)
            players[seat].update(token_hash=token_hash(token), reserved=False)
            if name is not None:
                players[seat]["name"] = name
            await self.store.write(self.store.save_players, self.id, players, self.status)
            self.record.players = players
            self.notify_seats()

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
        async with self.lock:
            if self.status == WAITING:
                await self._advance(None, None, PLAYING)

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
        if self.status == PLAYING:
            await self._whole(self._resume())

    async def _resume(self) -> None:
        async with self.lock:
            await self._advance(None, None, PLAYING)

    async def act(self, seat: int, action: Action, step: int) -> None:
        """A seat's action answering `step`; a stale or illegal one raises and changes nothing."""
        await self._move(seat, action, step)

    async def timeout(self, seat: int, step: int) -> None:
        """The seat's timer ran out (or its bot failed): the game's default for it."""
        await self._move(seat, None, step)

    async def _whole(self, job: Coroutine[Any, Any, None]) -> None:
        """Run a step to its end even if the caller goes away (a closed connection cancels
        its handler): a write the database took must be taken by the table too."""
        task = asyncio.ensure_future(job)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
        task.add_done_callback(lambda t: t.cancelled() or t.exception())
        await asyncio.shield(task)

    async def _move(self, seat: int, action: Action | None, step: int) -> None:
        if self.paused is not None:
            raise SaveError(f"the table is paused: {self.paused}; wait until it resumes")
        await self._whole(self._locked_move(seat, action, step))

    async def _locked_move(self, seat: int, action: Action | None, step: int) -> None:
        async with self.lock:
            if self.status == WAITING:
                raise IllegalActionError("the game has not started: waiting for players")
            if self.status == OVER:
                raise IllegalActionError("the game is over")
            self._check_fresh(seat, step)
            await self._advance(seat, action, PLAYING)

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

    async def _advance(self, mover: int | None, action: Action | None, status: str) -> None:
        """Take the mover's step (none: just throw what is due), store, then tell everyone.

        With the lock held. The steps are worked out on a copy: `self.state`
        changes only once they are stored.
        """
        state = self.state.clone()
        first, logged = self.step, len(self.state.log or ())
        new: list[dict[str, Any]] = []
        if mover is not None:
            if action is None:
                state.timeout(mover)
                new.append({"seat": mover, "timeout": True})
            else:
                played = state.apply(mover, action)
                new.append({"seat": mover, "action": dict(played)})
        dice = CommittedDice(self.seed)
        dice.count = self.dice.count
        while state.is_chance():
            faces = dice.throw(state.chance_dice())
            state.apply_chance(faces)
            new.append({"chance": list(faces)})
        if state.is_over():
            status = OVER
        changed = status if status != self.status else None
        if not new and changed is None:
            self._plan(mover)
            return
        try:
            await self._store(first, new, changed)
        except SaveError:
            self._plan(None, retry=True)
            raise
        for step in new:
            apply_step(self.state, step)
        self.steps.extend(new)
        self.dice.count = dice.count
        self.record.status = status
        self._track_turns(mover)
        self._plan(mover)
        self._broadcast(first, logged)
        self._changed()

    async def _store(self, first: int, new: list[dict[str, Any]], status: str | None) -> None:
        """Write the steps, retrying with backoff (the table paused) until it works or
        `retry_give_up_seconds` pass; then SaveError and nothing was stored."""
        cfg = self.config
        delay, began, attempt = cfg.retry_first_seconds, time.monotonic(), 0
        try:
            while True:
                try:
                    await self.store.write(
                        self.store.append, self.id, first, new, status, attempt > 0
                    )
                    return
                except Busy as e:
                    attempt += 1
                    log.debug("table %s: write attempt %d failed", self.id, attempt, exc_info=e)
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
                        self._tell({"type": "paused", "message": f"the table is paused: {e}"})
                    await asyncio.sleep(delay)
                    delay = min(delay * 2, cfg.retry_max_seconds)
        finally:
            if self.paused is not None:
                self.paused = None
                log.warning("table %s: resumed after %d attempts", self.id, attempt + 1)
                self._tell({"type": "resumed"})

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

    # --- timers and bots -----------------------------------------------------------

    def _plan(self, mover: int | None, retry: bool = False) -> None:
        """Timers for human actors and turns for bot actors; after a failure (`retry`)
        bots try again after a pause rather than at once."""
        actors = self.state.actors() if self.status == PLAYING else ()
        for seat in list(self.deadlines):
            if seat == mover or seat not in actors:
                self._cancel_timer(seat)
        loop = asyncio.get_running_loop()
        for seat in actors:
            if seat in self.bots:
                if seat not in self._bot_turns:
                    delay = self.record.bot_delay_ms / 1000
                    if retry:
                        delay = max(delay, self.config.retry_max_seconds)
                    self._bot_turns[seat] = loop.call_later(
                        delay, self._spawn, self._bot_turn, seat
                    )
            elif self.record.turn_seconds is not None and seat not in self.deadlines:
                self.deadlines[seat] = time.time() + self.record.turn_seconds
                self._timers[seat] = loop.call_later(
                    self.record.turn_seconds, self._spawn, self._expire, seat
                )

    def _spawn(self, job: Callable[..., Coroutine[Any, Any, None]], *args: Any) -> None:
        """Run a coroutine of this table as a task, kept until done (close cancels it)."""
        task = asyncio.get_running_loop().create_task(job(*args))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    def _cancel_timer(self, seat: int) -> None:
        self.deadlines.pop(seat, None)
        timer = self._timers.pop(seat, None)
        if timer is not None:
            timer.cancel()

    async def _expire(self, seat: int) -> None:
        self._timers.pop(seat, None)
        self.deadlines.pop(seat, None)
        if self.status != PLAYING or seat not in self.state.actors():
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
        if self.status != PLAYING or seat not in self.state.actors():
            return
        step = self.step
        view = copy.deepcopy(self.state.view(seat))
        legal: Sequence[Action] = list(self.state.legal_actions(seat))
        try:
            try:
                action: Action | None = await self.bot_pool.run(self.bots[seat].choose, view, legal)
            except Busy:
                self._plan(None, retry=True)
                return
            except Exception:
                log.exception(
                    "table %s: the bot at seat %d failed; the table acts for it", self.id, seat
                )
                action = None
            try:
                await self._move(seat, action, step)
            except StaleMove:
                self._plan(None)
            except IllegalActionError:
                log.exception("table %s: the bot at seat %d chose an illegal move", self.id, seat)
                await self._move(seat, None, step)
        except SaveError:
            log.warning("table %s: bot move of seat %d not saved; it will try again", self.id, seat)
            self._plan(None, retry=True)
        except DicehallError:
            log.exception("table %s: the bot turn of seat %d failed", self.id, seat)
            self._plan(None, retry=True)

    def close(self) -> None:
        """Stop timers and bots (server shutdown): the stored steps are the table."""
        for seat in list(self._timers):
            self._cancel_timer(seat)
        for handle in self._bot_turns.values():
            handle.cancel()
        self._bot_turns.clear()
        for task in self._tasks:
            task.cancel()

    # --- what listeners see --------------------------------------------------------

    def deadline(self) -> float | None:
        return min(self.deadlines.values()) if self.deadlines else None

    def _position(self, seat: int | None) -> dict[str, Any]:
        state = self.state
        legal = state.legal_actions(seat) if seat is not None and self.status == PLAYING else ()
        return {
            "step": self.step,
            "status": self.status,
            "view": state.view(seat),
            "legal": [{"action": a, "label": self.game.action_label(a)} for a in legal],
            "actors": list(state.actors()),
            "deadline": self.deadline(),
            "deadlines": {str(s): t for s, t in self.deadlines.items()},
        }

    def welcome(self, seat: int | None) -> str:
        return json.dumps(
            {
                "type": "welcome",
                "table_id": self.id,
                "seat": seat,
                "names": self.names,
                "events": self.state.events_for(seat),
                "paused": self.paused,
                **self._position(seat),
            }
        )

    def over_message(self) -> str:
        return json.dumps(
            {
                "type": "over",
                "result": self.state.result().to_json(),
                "seed": self.record.seed,
                "commitment": self.record.commitment,
            }
        )

    def _broadcast(self, first: int, logged: int) -> None:
        """An update per listener, built once per seat, then "over" if the game ended."""
        texts: dict[int | None, str] = {}
        over = self.over_message() if self.status == OVER else None
        for listener in list(self.listeners):
            seat = listener.seat
            text = texts.get(seat)
            if text is None:
                update = {
                    "type": "update",
                    "from_step": first,
                    "events": self.state.events_for(seat, logged),
                    **self._position(seat),
                }
                text = texts[seat] = json.dumps(update)
            listener.push(text)
            if over is not None:
                listener.push(over)

    def _tell(self, message: dict[str, Any]) -> None:
        """The same public message to every listener."""
        text = json.dumps(message)
        for listener in list(self.listeners):
            listener.push(text)

    def notify_seats(self) -> None:
        """Tell every listener who sits where and who is connected (public facts)."""
        self._tell({"type": "table", "table": self.summary()})

    def _changed(self) -> None:
        if self.on_change is not None:
            self.on_change(self)

    def transcript(self) -> dict[str, Any]:
        """The whole game with the revealed seed: only for a finished table."""
        data = make_transcript(self.game, self.steps, self.names, self.state)
        data["table_id"] = self.id
        data["seed"] = self.record.seed
        data["commitment"] = self.record.commitment
        return data
