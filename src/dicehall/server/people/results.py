"""Finished games, who played them, and the ratings they move.

When a table's game ends the server keeps its result (`game_results`) and
one row per seat (`result_seats`): the seat's account, its name then, its
part of the win and net gain, and, at a rated table, its rating before and
after. Players' histories, a game's page and the rating charts read these
rows; the transcript stays where it was (tables/store.py's steps).

Ratings are OpenSkill's, through `dicehall.ratings.RatingBook`, the very code
`dicehall ladder` rates with: nothing of the maths is written here. Only
rated tables (a table setting, off by default) count, and only when every
seat has an account. So that nobody can farm a rating (docs/reference/ratings.md):

- a guest plays unrated: a rated table with a guest at it gives no rating,
  since anyone can make guests without end;
- a table where a person sits with a bot the host chose gives no rating: the
  host picks the bot and wins against it. Only the bots' ladder, where every seat
  is a server's bot (one account per bot name; a second copy of a bot at one table
  is its own player, "heuristic 2"), rates the server's bots; bots from outside,
  which take their seats themselves, are rated like people;
- repeated games between the same two accounts weigh less and less
  (`dicehall.ratings.repeat_weights`).

Results are rated in
the order the games finished, one at a time in the database's thread, so
`replayed_ratings` (every stored result again, in that order) gives exactly
the stored ratings.

A game is recorded right after its last step is stored. Should the server
stop in between, `Results.catch_up` records it on the next start; tables that
finished before results were kept have a row without a result (the migration
adds it), so they are never rated afresh.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from sqlalchemy import (
    JSON,
    Boolean,
    Column,
    Float,
    ForeignKey,
    Index,
    Integer,
    String,
    Table,
    insert,
    select,
    update,
)
from sqlalchemy.engine import Connection, Engine

from dicehall.core.game import Result
from dicehall.ratings import REPEAT_WINDOW_SECONDS, RatingBook, Standing, repeat_weights, win_share
from dicehall.server.people.accounts import BOT, DELETED_NAME, GUEST, AccountStore, accounts
from dicehall.server.tables.chat import chat_messages
from dicehall.server.tables.store import Store, metadata, tables

log = logging.getLogger("dicehall.server")

game_results = Table(
    "game_results",
    metadata,
    Column("table_id", String(32), ForeignKey("tables.id"), primary_key=True),
    Column("game", String(32), nullable=False),
    Column("finished", Float, nullable=False),
    Column("rated", Boolean, nullable=False),
    Column("result", JSON, nullable=True),  # null: finished before results were kept
    Index("game_results_by_game", "game", "finished"),
)

result_seats = Table(
    "result_seats",
    metadata,
    Column("table_id", String(32), ForeignKey("tables.id"), primary_key=True),
    Column("seat", Integer, primary_key=True),
    Column("account_id", String(32), ForeignKey("accounts.id"), nullable=True, index=True),
    Column("name", String(64), nullable=False),
    Column("won", Float, nullable=False),  # part of the win: 1, 1/2, ... or 0
    Column("net", Float, nullable=False),
    # OpenSkill's mu and sigma around this game, at rated tables only
    Column("mu_before", Float, nullable=True),
    Column("sigma_before", Float, nullable=True),
    Column("mu_after", Float, nullable=True),
    Column("sigma_after", Float, nullable=True),
)

ratings = Table(
    "ratings",
    metadata,
    Column("account_id", String(32), ForeignKey("accounts.id"), primary_key=True),
    Column("game", String(32), primary_key=True),
    Column("mu", Float, nullable=False),
    Column("sigma", Float, nullable=False),
    Column("ordinal", Float, nullable=False),  # mu - 3 sigma: the leaderboard's order
    Column("games", Integer, nullable=False),
    Column("wins", Float, nullable=False),
    Index("ratings_by_game", "game", "ordinal"),
)


@dataclass(frozen=True)
class Finished:
    """What a finished table gives to be recorded: plain values, read on the event loop."""

    table_id: str
    game: str
    rated: bool
    accounts: list[str | None]  # by seat
    names: list[str]
    result: Result


ACCOUNT, BOT_NAME = "account", "bot"
Rated = tuple[str, str]
"""Who a seat is rated as: (ACCOUNT, account id) or (BOT_NAME, the bot account's name)."""


def rated_as(players: Sequence[dict[str, Any]]) -> list[Rated | None]:
    """Who each seat of a table is rated as: its player's account; else a server's bot by
    its name, then "name 2", "name 3" ... for further copies at the same table (the
    ladder's numbering); else a seated bot from outside by its name; None for a seat
    with none of these (a person from before accounts). The lobby asks this of every
    seat it lists at every poll, so it is kept to one pass."""
    out: list[Rated | None] = []
    copies: dict[str, int] = {}
    for p in players:
        account, bot = p.get("account"), p["bot"]
        if account:
            out.append((ACCOUNT, account))
        elif bot is not None:
            n = copies[bot] = copies.get(bot, 0) + 1
            out.append((BOT_NAME, bot if n == 1 else f"{bot} {n}"))
        elif p.get("outside") and p["token_hash"] is not None:
            out.append((BOT_NAME, p["name"]))
        else:
            out.append(None)
    return out


def host_chose_bots(players: Sequence[dict[str, Any]]) -> bool:
    """Whether a person sits with a server's bot, which the table's host chose: no rating
    from such a table. (Every seat a server's bot: the ladder, rated.)"""
    bots = any(p["bot"] is not None for p in players)
    return bots and any(p["bot"] is None and not p.get("outside") for p in players)


def result_of(data: dict[str, Any]) -> Result:
    """A stored result back as the core's Result (enough of it to rate)."""
    return Result(tuple(data["winners"]), tuple(data["net"]), str(data.get("unit", "")))


class ResultStore:
    """The three tables; blocking methods, run in the database's thread."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine

    def recorded(self, table_id: str) -> bool:
        with self.engine.connect() as db:
            query = select(game_results.c.table_id).where(game_results.c.table_id == table_id)
            return db.execute(query).first() is not None

    def unrecorded(self) -> list[str]:
        """Finished tables without a result row: stopped between their last step and it."""
        query = (
            select(tables.c.id)
            .outerjoin(game_results, game_results.c.table_id == tables.c.id)
            .where(tables.c.status == "over")
            .where(game_results.c.table_id.is_(None))
        )
        with self.engine.connect() as db:
            return list(db.execute(query).scalars())

    def record(self, game: Finished, at: float | None = None) -> bool:
        """Keep a finished game and, at a rated table, rate it; False if it was kept already."""
        with self.engine.begin() as db:
            if db.execute(
                select(game_results.c.table_id).where(game_results.c.table_id == game.table_id)
            ).first():
                return False
            ids = game.accounts
            rated = game.rated and None not in ids and len(set(ids)) == len(ids)
            players = [a for a in ids if a is not None]
            before: list[tuple[float, float]] = []
            after: list[tuple[float, float]] = []
            at = time.time() if at is None else at
            if rated:
                book = _book(db, game.game, players)
                before = [(s.rating.mu, s.rating.sigma) for s in map(book.standing, players)]
                weights = repeat_weights(players, _met(db, game.game, players, at), at)
                book.record(players, game.result, weights)
                for a in players:
                    standing = book.standing(a)
                    after.append((standing.rating.mu, standing.rating.sigma))
                    _save_rating(db, game.game, standing)
            db.execute(
                insert(game_results).values(
                    table_id=game.table_id,
                    game=game.game,
                    finished=at,
                    rated=rated,
                    result=game.result.to_json(),
                )
            )
            db.execute(
                insert(result_seats),
                [
                    {
                        "table_id": game.table_id,
                        "seat": seat,
                        "account_id": ids[seat],
                        "name": game.names[seat],
                        "won": win_share(game.result, seat),
                        "net": game.result.net[seat],
                        "mu_before": before[seat][0] if rated else None,
                        "sigma_before": before[seat][1] if rated else None,
                        "mu_after": after[seat][0] if rated else None,
                        "sigma_after": after[seat][1] if rated else None,
                    }
                    for seat in range(len(ids))
                ],
            )
        return True

    def rating(self, account_id: str, game: str) -> dict[str, Any] | None:
        with self.engine.connect() as db:
            row = db.execute(
                select(ratings)
                .where(ratings.c.account_id == account_id)
                .where(ratings.c.game == game)
            ).first()
        return None if row is None else dict(row._asdict())

    def replayed_ratings(self) -> dict[tuple[str, str], tuple[float, float, int, float]]:
        """Every rated result again, in the order they finished, through a fresh book per
        game: (account, game) -> (mu, sigma, games, wins). Equal to the stored ratings."""
        books: dict[str, RatingBook] = {}
        earlier: dict[str, list[tuple[float, list[str]]]] = {}
        with self.engine.connect() as db:
            games = db.execute(
                select(game_results)
                .where(game_results.c.rated.is_(True))
                .order_by(game_results.c.finished, game_results.c.table_id)
            ).all()
            for row in games:
                seats = db.execute(
                    select(result_seats.c.account_id, accounts.c.kind)
                    .join(accounts, accounts.c.id == result_seats.c.account_id)
                    .where(result_seats.c.table_id == row.table_id)
                    .order_by(result_seats.c.seat)
                ).all()
                book = books.setdefault(row.game, RatingBook())
                players = [str(s.account_id) for s in seats]
                before = earlier.setdefault(row.game, [])
                weights = repeat_weights(players, before, row.finished)
                book.record(players, result_of(row.result), weights)
                people = [str(s.account_id) for s in seats if s.kind != BOT]
                before.append((row.finished, people))
        return {
            (name, game): (s.rating.mu, s.rating.sigma, s.games, s.wins)
            for game, book in books.items()
            for name, s in book.standings.items()
        }

    def forget(self, account_id: str) -> list[str]:
        """A deleted account's seats are renamed "deleted player" wherever a finished game
        stored its name: the results, the table's players, its chat. The tables' ids."""
        with self.engine.begin() as db:
            ids = list(
                db.execute(
                    select(result_seats.c.table_id).where(result_seats.c.account_id == account_id)
                ).scalars()
            )
            db.execute(
                update(result_seats)
                .where(result_seats.c.account_id == account_id)
                .values(name=DELETED_NAME)
            )
            for table_id in dict.fromkeys(ids):
                players = db.execute(
                    select(tables.c.players).where(tables.c.id == table_id)
                ).scalar_one()
                seats = forget_seats(players, account_id)
                db.execute(update(tables).where(tables.c.id == table_id).values(players=players))
                db.execute(
                    update(chat_messages)
                    .where(chat_messages.c.table_id == table_id)
                    .where(chat_messages.c.seat.in_(seats))
                    .values(name=DELETED_NAME)
                )
        return list(dict.fromkeys(ids))

    def claim(
        self,
        table_id: str,
        seat: int,
        account_id: str,
        players: list[dict[str, Any]],
        result: Result | None,
    ) -> None:
        """A seat from before accounts becomes an account's (http/claims.py): the table's players
        as given, and the seat's stored result if it has one. A game finished before
        results were kept gets its result now, every seat's, unrated, so that it shows in
        the claimer's history; no rating moves after the fact."""
        with self.engine.begin() as db:
            db.execute(update(tables).where(tables.c.id == table_id).values(players=players))
            if result is None:
                return
            kept = db.execute(
                select(game_results.c.result).where(game_results.c.table_id == table_id)
            ).first()
            if kept is not None and kept.result is None:
                db.execute(
                    update(game_results)
                    .where(game_results.c.table_id == table_id)
                    .values(result=result.to_json())
                )
                db.execute(insert(result_seats), _seat_rows(table_id, players, result))
            db.execute(
                update(result_seats)
                .where(result_seats.c.table_id == table_id)
                .where(result_seats.c.seat == seat)
                .where(result_seats.c.account_id.is_(None))
                .values(account_id=account_id)
            )

    def stored_ratings(self) -> dict[tuple[str, str], tuple[float, float, int, float]]:
        with self.engine.connect() as db:
            rows = db.execute(select(ratings)).all()
        return {(r.account_id, r.game): (r.mu, r.sigma, r.games, r.wins) for r in rows}


def _seat_rows(
    table_id: str, players: list[dict[str, Any]], result: Result
) -> list[dict[str, Any]]:
    """An unrated game's result_seats rows, from its players as stored."""
    return [
        {
            "table_id": table_id,
            "seat": seat,
            "account_id": p.get("account"),
            "name": p["name"],
            "won": win_share(result, seat),
            "net": result.net[seat],
        }
        for seat, p in enumerate(players)
    ]


def forget_seats(players: list[dict[str, Any]], account_id: str) -> list[int]:
    """Rename the account's seats in a table's players (in place); their seat numbers."""
    seats = [s for s, p in enumerate(players) if p.get("account") == account_id]
    for s in seats:
        players[s]["name"] = DELETED_NAME
    return seats


def _met(
    db: Connection, game: str, account_ids: list[str], at: float
) -> list[tuple[float, list[str]]]:
    """The game's rated results within the repeat window before `at` that two or more of
    these players sat at: (finished, those of them who sat) each (`repeat_weights`). Bots
    do not count: the ladder plays the same bots against each other on purpose."""
    rows = db.execute(
        select(game_results.c.table_id, game_results.c.finished, result_seats.c.account_id)
        .join(result_seats, result_seats.c.table_id == game_results.c.table_id)
        .join(accounts, accounts.c.id == result_seats.c.account_id)
        .where(accounts.c.kind != BOT)
        .where(game_results.c.game == game)
        .where(game_results.c.rated.is_(True))
        .where(game_results.c.finished >= at - REPEAT_WINDOW_SECONDS)
        .where(result_seats.c.account_id.in_(account_ids))
    ).all()
    met: dict[str, tuple[float, list[str]]] = {}
    for r in rows:
        met.setdefault(r.table_id, (r.finished, []))[1].append(str(r.account_id))
    return [m for m in met.values() if len(m[1]) > 1]


def _book(db: Connection, game: str, account_ids: list[str]) -> RatingBook:
    """A rating book holding these players' current ratings in `game`."""
    book = RatingBook()
    # held until the game's record commits: two processes of one site rating the same
    # player at once wait for each other instead of losing one update (PostgreSQL)
    rows = db.execute(
        select(ratings)
        .where(ratings.c.game == game)
        .where(ratings.c.account_id.in_(account_ids))
        .with_for_update()
    ).all()
    for r in rows:
        rating = book.model.rating(mu=r.mu, sigma=r.sigma, name=r.account_id)
        book.standings[r.account_id] = Standing(r.account_id, rating, r.games, r.wins)
    return book


def _save_rating(db: Connection, game: str, s: Standing) -> None:
    values = {
        "mu": s.rating.mu,
        "sigma": s.rating.sigma,
        "ordinal": s.ordinal,
        "games": s.games,
        "wins": s.wins,
    }
    done = db.execute(
        update(ratings)
        .where(ratings.c.account_id == s.name)
        .where(ratings.c.game == game)
        .values(**values)
    )
    if done.rowcount == 0:
        db.execute(insert(ratings).values(account_id=s.name, game=game, **values))


class Results:
    """Records each table's game as it ends (Hall's finish hook), off the event loop."""

    def __init__(self, store: Store, accounts: AccountStore) -> None:
        self.store = store
        self.accounts = accounts
        self.results = ResultStore(store.engine)
        self.pending: dict[str, asyncio.Task[None]] = {}
        # called on the event loop with the game once a result is stored (lobby_ratings.py)
        self.on_recorded: list[Callable[[str], None]] = []

    def finished(self, table: Any) -> None:
        """A table's game is over (called on the event loop): record it soon."""
        if table.id in self.pending:
            return
        task = asyncio.get_running_loop().create_task(self._record(table))
        self.pending[table.id] = task
        task.add_done_callback(lambda _t: self.pending.pop(table.id, None))

    async def settled(self, table_id: str) -> None:
        """Wait for a table's result to be recorded, if it is on its way."""
        task = self.pending.get(table_id)
        if task is not None:
            await asyncio.shield(task)

    async def drain(self, seconds: float = 10.0) -> None:
        """On stopping: let the records on their way commit (those left are caught up on
        the next start), so none is cut off mid-transaction."""
        if self.pending:
            await asyncio.wait(list(self.pending.values()), timeout=seconds)

    async def _record(self, table: Any) -> None:
        players = table.record.players
        names = [p["name"] for p in players]
        game = table.record.game
        result = table.state.result()
        rated = bool(table.settings.rated) and not host_chose_bots(players)
        try:
            await self.store.run(
                self._record_now, table.id, game, rated, rated_as(players), names, result
            )
        except Exception:  # the next start's catch_up records it
            log.exception("table %s: its result could not be recorded", table.id)
            return
        for hook in self.on_recorded:
            hook(game)

    def _record_now(
        self,
        table_id: str,
        game: str,
        rated: bool,
        who: list[Rated | None],
        names: list[str],
        result: Result,
    ) -> None:
        ids: list[str | None] = []
        for seat in who:
            if seat is None or seat[0] == ACCOUNT:
                ids.append(None if seat is None else seat[1])
                continue
            account = self.accounts.bot(seat[1])
            ids.append(None if account is None else account.id)
        if rated and any(seat is not None and seat[0] == ACCOUNT for seat in who):
            kinds = [self.accounts.get(s[1]) for s in who if s is not None and s[0] == ACCOUNT]
            rated = all(a is not None and a.kind != GUEST for a in kinds)  # guests: unrated
        self.results.record(Finished(table_id, game, rated, ids, names, result))

    async def forget(self, hall: Any, account_id: str) -> None:
        """After an account is deleted: its name leaves every game, stored or in play."""
        finished = await self.store.run(self.results.forget, account_id)
        for table_id in finished:
            hall.finished.pop(table_id, None)  # rebuilt with the new names when asked for
        for table in list(hall.live.values()):
            if forget_seats(table.record.players, account_id):
                table.save_players()
                table.notify_seats()

    async def catch_up(self, hall: Any) -> int:
        """Record the finished tables a stop left unrecorded."""
        missing = await self.store.run(self.results.unrecorded)
        for table_id in missing:
            try:
                self.finished(hall.get(table_id))
            except Exception as e:  # its game is gone: nothing to record
                log.error("table %s: its result cannot be recorded: %s", table_id, e)
        for table_id in missing:
            await self.settled(table_id)
        return len(missing)
