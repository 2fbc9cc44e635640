"""Who played what: players' pages, leaderboards per game, and a finished game's record.

Read-only views of results.py's tables, for the page's profile, leaderboard
and game screens (server/web/profiles.js), answered by the routes of
http/profiles.py. A rating is shown on a 1500-centred scale (`shown`: OpenSkill's ordinal,
mu − 3 sigma, mapped by `dicehall.ratings.shown`), marked provisional for a player's first
games (docs/reference/ratings.md); each figure here comes with its mu, sigma and ordinal,
which the page keeps behind "details". Guests are
on no leaderboard (they have no name to show), and a deleted account is
nowhere but in its games, as "deleted player".
"""

from __future__ import annotations

from collections import defaultdict
from typing import Any

from sqlalchemy import select
from sqlalchemy.engine import Engine

from dicehall.ratings import ordinal, provisional, shown
from dicehall.server.people.accounts import GUEST, Account, AccountStore, accounts
from dicehall.server.people.results import game_results, ratings, result_seats

HISTORY = 200  # games listed on a player's page, newest first


def _rating(mu: float | None, sigma: float | None) -> dict[str, float] | None:
    if mu is None or sigma is None:
        return None
    return {"mu": mu, "sigma": sigma, "ordinal": ordinal(mu, sigma), "shown": shown(mu, sigma)}


def _standing(r: Any) -> dict[str, Any]:
    """A stored rating row as the page shows it."""
    return {
        "mu": r.mu,
        "sigma": r.sigma,
        "ordinal": r.ordinal,
        "shown": shown(r.mu, r.sigma),
        "provisional": provisional(r.games),
        "games": r.games,
        "wins": r.wins,
    }


class Profiles:
    """The queries; blocking, run in the database's thread."""

    def __init__(self, engine: Engine, account_store: AccountStore) -> None:
        self.engine = engine
        self.accounts = account_store

    def player(self, name: str) -> dict[str, Any] | None:
        account = self.accounts.by_name(name)
        if account is None or account.deleted is not None:
            return None
        with self.engine.connect() as db:
            rated = db.execute(
                select(ratings).where(ratings.c.account_id == account.id).order_by(ratings.c.game)
            ).all()
            games = db.execute(
                select(result_seats, game_results.c.game, game_results.c.finished)
                .join(game_results, game_results.c.table_id == result_seats.c.table_id)
                .add_columns(game_results.c.rated)
                .where(result_seats.c.account_id == account.id)
                .order_by(game_results.c.finished.desc(), game_results.c.table_id)
                .limit(HISTORY)
            ).all()
            chart = db.execute(
                select(
                    game_results.c.game,
                    game_results.c.finished,
                    game_results.c.table_id,
                    result_seats.c.mu_after,
                    result_seats.c.sigma_after,
                )
                .join(game_results, game_results.c.table_id == result_seats.c.table_id)
                .where(result_seats.c.account_id == account.id)
                .where(game_results.c.rated.is_(True))
                .order_by(game_results.c.finished, game_results.c.table_id)
            ).all()
            others = self._seat_names(db, [g.table_id for g in games])
        history: dict[str, list[dict[str, Any]]] = defaultdict(list)
        for row in chart:
            point = _rating(row.mu_after, row.sigma_after)
            assert point is not None
            history[row.game].append({"at": row.finished, "table_id": row.table_id, **point})
        return {
            "account": account.to_json(),
            "ratings": [{"game": r.game, **_standing(r)} for r in rated],
            "rating_history": dict(history),
            "games": [
                {
                    "table_id": g.table_id,
                    "game": g.game,
                    "finished": g.finished,
                    "rated": g.rated,
                    "seat": g.seat,
                    "won": g.won,
                    "net": g.net,
                    "before": _rating(g.mu_before, g.sigma_before),
                    "after": _rating(g.mu_after, g.sigma_after),
                    "players": others.get(g.table_id, []),
                }
                for g in games
            ],
        }

    def _seat_names(self, db: Any, table_ids: list[str]) -> dict[str, list[str]]:
        out: dict[str, list[str]] = defaultdict(list)
        if table_ids:
            rows = db.execute(
                select(result_seats.c.table_id, result_seats.c.name)
                .where(result_seats.c.table_id.in_(table_ids))
                .order_by(result_seats.c.table_id, result_seats.c.seat)
            ).all()
            for r in rows:
                out[r.table_id].append(r.name)
        return out

    def leaderboard(self, game: str, limit: int) -> list[dict[str, Any]]:
        with self.engine.connect() as db:
            rows = db.execute(
                select(ratings, accounts.c.name, accounts.c.kind)
                .join(accounts, accounts.c.id == ratings.c.account_id)
                .where(ratings.c.game == game)
                .where(accounts.c.deleted.is_(None))
                .where(accounts.c.kind != GUEST)
                .order_by(ratings.c.ordinal.desc(), accounts.c.name)
                .limit(limit)
            ).all()
        return [
            {"rank": rank, "name": r.name, "kind": r.kind, **_standing(r)}
            for rank, r in enumerate(rows, 1)
        ]

    def record(self, table_id: str) -> dict[str, Any] | None:
        """A finished game's players, result and rating changes."""
        with self.engine.connect() as db:
            game = db.execute(
                select(game_results).where(game_results.c.table_id == table_id)
            ).first()
            if game is None:
                return None
            seats = db.execute(
                select(
                    result_seats,
                    accounts.c.kind,
                    accounts.c.name.label("account_name"),
                    accounts.c.created,
                    accounts.c.deleted,
                )
                .outerjoin(accounts, accounts.c.id == result_seats.c.account_id)
                .where(result_seats.c.table_id == table_id)
                .order_by(result_seats.c.seat)
            ).all()
        out = []
        for s in seats:
            account = None
            if s.account_id is not None:
                shown = Account(s.account_id, s.kind, s.account_name, s.created, s.deleted)
                account = {"name": shown.shown, "kind": shown.kind}
            before = _rating(s.mu_before, s.sigma_before)
            after = _rating(s.mu_after, s.sigma_after)
            out.append(
                {
                    "seat": s.seat,
                    "name": s.name,
                    "account": account,
                    "won": s.won,
                    "net": s.net,
                    "before": before,
                    "after": after,
                    "change": None
                    if before is None or after is None
                    else after["ordinal"] - before["ordinal"],
                    "shown_change": None
                    if before is None or after is None
                    else after["shown"] - before["shown"],
                }
            )
        return {
            "table_id": table_id,
            "game": game.game,
            "finished": game.finished,
            "rated": game.rated,
            "result": game.result,
            "seats": out,
        }
