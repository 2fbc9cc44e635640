"""Provably fair dice: a table's side of the protocol, and the verify report.

A table is one of two modes (docs/reference/fair-dice.md):

- **sealed** (the default): the server commits before the game to the root
  of a Merkle tree over per-throw secrets (`core.commitments`); the seats add
  their entropy by commit and reveal; each throw's opening goes to whom the
  rules show the throw (`core.shown`): everyone for a pull or a showdown,
  its thrower alone for dice under the mug. After the game the transcript
  holds the openings of the public throws and a stand-in for each throw the
  rules never showed to everyone; nobody can recompute a sealed throw.
- **seed**: the table's seed is committed by its SHA-256 and revealed at the
  end, so everyone can recompute every throw, hidden ones included.

`verify_transcript` checks either kind, and version 1 transcripts, through
the core's replay (`transcript.replay` with a step check), so verifying and
replaying cannot drift apart.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
import threading
import time
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import CancelledError, Future
from concurrent.futures.process import BrokenProcessPool
from typing import TYPE_CHECKING, Any

from dicehall.core.chance import CommittedDice, Faces, Throw, commitment_of
from dicehall.core.commitments import (
    BATCH,
    CHAIN,
    Opening,
    SealedDice,
    batch_entropy,
    chain_checks,
    chain_commit,
    chain_value,
    hex_bytes,
)
from dicehall.core.errors import ChanceError, DicehallError, TranscriptError
from dicehall.core.game import Game, State
from dicehall.core.shown import Audience, ShownThrows, stand_ins
from dicehall.core.transcript import DiceCheck, GameMaker, replay
from dicehall.core.words import and_list, default_names
from dicehall.server.tables.tracking import Forgotten, Shown, Tracker

if TYPE_CHECKING:  # the store needs the server extra; verify does not
    from dicehall.server.tables.store import TableRecord

SEED_BYTES = 32
SEALED, SEED = "sealed", "seed"
MODES = (SEALED, SEED)
"""What each shows is said where players choose: the lobby (server/web/fair.js) and
docs/reference/fair-dice.md."""
SETTLE_SECONDS = 60.0
"""How long a transcript waits for the tracker to follow a table's last steps."""
News = Callable[[dict[Audience, list[dict[str, Any]]]], None]
REVEAL_SECONDS = 10.0
"""How long a table waits for the seats' entropy before it throws without the missing ones."""


def new_seed() -> bytes:
    return secrets.token_bytes(SEED_BYTES)


def commitment_for(mode: str, seed: bytes) -> str:
    """What a table publishes at creation: its first batch's root, or its seed's hash."""
    return SealedDice(seed).root(0).hex() if mode == SEALED else commitment_of(seed)


def bot_secret(seed: bytes, seat: int) -> bytes:
    """A bot seat's hash-chain secret: the server's own, so derived from the table's seed."""
    return hmac.new(seed, f"seat-entropy:{seat}".encode(), hashlib.sha256).digest()


def _bytes(text: str | None) -> bytes | None:
    return None if text is None else bytes.fromhex(text)


def check_commit(text: object) -> str:
    """A seat's entropy commitment as sent (64 hex digits), or ChanceError."""
    return hex_bytes(text, "an entropy commitment").hex()


# --- the live side --------------------------------------------------------------------


class SeedTable:
    """The old mode: one seed, revealed at the end."""

    mode = SEED

    def __init__(self, game: Game, seed: bytes, commitment: str) -> None:
        self.seed = seed
        self.commitment = commitment
        self.dice = CommittedDice(seed)
        self.round: dict[str, Any] | None = None

    def ready(self) -> bool:
        return True

    def open_round(self) -> dict[str, Any]:
        raise ChanceError("this table's dice are not sealed: it has no entropy rounds")

    close_round = open_round

    def waiting_now(self) -> bool:
        return False

    def commit(self, seat: int, entropy: str) -> None:
        """A seed table takes no entropy from the seats: a commitment changes nothing."""

    def reveal(self, seat: int, batch: object, value: object) -> None:
        self.open_round()

    def throw(self, dice: Throw) -> Faces:
        return self.dice.throw(dice)

    def follow(self, steps: Sequence[Mapping[str, Any]], replayed: bool = False) -> None:
        if replayed:
            self.dice.count += sum("chance" in step for step in steps)

    def take_news(self) -> dict[Audience, list[dict[str, Any]]]:
        return {}

    def openings(self, seat: int | None) -> list[dict[str, Any]]:
        return []

    on_news = None

    def public(self, over: bool) -> dict[str, Any]:
        fields: dict[str, Any] = {"fairness": SEED, "commitment": self.commitment}
        if over:
            fields["seed"] = self.seed.hex()
        return fields

    def transcript(self, steps: list[dict[str, Any]]) -> dict[str, Any]:
        return {"steps": steps, **self.public(True)}


class SealedTable:
    """A sealed table: its dice, its entropy rounds, and who has been shown which throw."""

    mode = SEALED

    def __init__(self, game: Game, seed: bytes, commits: Sequence[str | None], bots: set[int]):
        self.game = game
        self.seed = seed
        self.dice = SealedDice(seed)
        self.commitment = self.dice.root(0).hex()
        self.bots = bots
        self.commits = [
            chain_commit(bot_secret(seed, s)) if s in bots else _bytes(c)
            for s, c in enumerate(commits)
        ]
        self.key = secrets.token_hex(8)  # the tracker's name for these dice
        self.inline = ShownThrows(game)  # where steps are followed when not tracking live
        self.tracker: Tracker | None = None
        self.on_news: News | None = None
        # re-entrant: a job done before its callback is added runs the callback at once
        self._lock = threading.RLock()
        self._idle = threading.Condition(self._lock)
        self._steps: list[Mapping[str, Any]] = []  # every step followed, for a lost worker
        self._sent = 0  # how many of them the tracker has been sent
        self._jobs = 0  # the tracker's jobs not yet answered
        self._shown: list[set[Audience]] = []  # throw k -> to whom it has been shown
        self.round: dict[str, Any] | None = None
        self._values: dict[int, bytes] = {}
        self._news: dict[Audience, list[dict[str, Any]]] = {}
        self._transcript: dict[str, Any] | None = None
        self._making = threading.Lock()

    # entropy rounds: one per batch, before its first throw

    def ready(self) -> bool:
        return self.dice.ready()

    def open_round(self) -> dict[str, Any]:
        """Open the round of the batch now due; bots give their values at once."""
        b = self.dice.next_batch
        self._values = {}
        if b < CHAIN:
            for s in self.bots:
                self._values[s] = chain_value(bot_secret(self.seed, s), b)
        self.round = {
            "type": "entropy",
            "batch": b,
            "root": self.dice.root(b).hex(),
            "waiting": self.waiting(b),
            "deadline": time.time() + REVEAL_SECONDS,
        }
        return self.round

    def commit(self, seat: int, entropy: str) -> None:
        """A seat's commitment (checked hex), before the first round opens."""
        self.commits[seat] = bytes.fromhex(entropy)

    def waiting_now(self) -> bool:
        """Whether the open round still waits for a seat's value."""
        return self.round is not None and bool(self.waiting(self.round["batch"]))

    def waiting(self, batch: int) -> list[int]:
        """Seats that committed and have not yet given their value for `batch`."""
        if batch >= CHAIN:
            return []
        return [s for s, c in enumerate(self.commits) if c is not None and s not in self._values]

    def reveal(self, seat: int, batch: object, value: object) -> None:
        """A seat's value for the open round; a wrong one raises ChanceError, nothing changes."""
        if self.round is None or batch != self.round["batch"]:
            raise ChanceError("no entropy round of that batch is open")
        commit = self.commits[seat]
        if commit is None:
            raise ChanceError(f"seat {seat} made no entropy commitment before the game")
        data = hex_bytes(value, "an entropy value")
        if not chain_checks(commit, self.round["batch"], data):
            raise ChanceError(f"that value does not match seat {seat}'s entropy commitment")
        self._values[seat] = data

    def close_round(self) -> dict[str, Any]:
        """The round's record, a step of the table; the batch's entropy is set."""
        assert self.round is not None
        b = self.round["batch"]
        values = [self._values.get(s) for s in range(self.game.seats)]
        self.dice.entropy[b] = batch_entropy(self.dice.root(b), values)
        self.round = None
        return {"entropy": self.record(b, values)}

    def record(self, b: int, values: Sequence[bytes | None]) -> dict[str, Any]:
        return {
            "batch": b,
            "root": self.dice.root(b).hex(),
            "commits": [None if c is None else c.hex() for c in self.commits],
            "values": [None if v is None else v.hex() for v in values],
        }

    # throws and openings

    def throw(self, dice: Throw) -> Faces:
        return self.dice.throw(dice)

    def track_live(self, tracker: Tracker, on_news: News) -> None:
        """From now on follow steps through `tracker`, off the event loop, and hand
        new openings to `on_news` from the tracker's thread (a live table's)."""
        self.tracker = tracker
        self.on_news = on_news

    def follow(self, steps: Sequence[Mapping[str, Any]], replayed: bool = False) -> None:
        """Track steps the table took, in order; `replayed`: rebuilt from the database.
        A live table hands them to the tracker as one job: a move and the throws that
        follow it at once cost one hand-over to the worker process, not one each."""
        with self._lock:
            for step in steps:
                if replayed:
                    self._replayed(step)
                self._steps.append(step)
                if "chance" in step:
                    self._shown.append(set())
                if self.tracker is None:
                    self._found(self.inline.step(step))
            if self.tracker is not None and steps:
                self._send()

    def _replayed(self, step: Mapping[str, Any]) -> None:
        """The dice's own count and entropy, brought up to a stored step."""
        if "chance" in step:
            self.dice.count += 1
        elif "entropy" in step:
            record = step["entropy"]
            values = [_bytes(v) for v in record["values"]]
            self.dice.entropy[record["batch"]] = batch_entropy(
                self.dice.root(record["batch"]), values
            )

    def _send(self) -> None:
        """Hand the steps not yet sent to the tracker (all of them after a lost worker)."""
        assert self.tracker is not None
        fresh = self._sent == 0
        steps = self._steps[self._sent :]
        try:
            job = self.tracker.submit(self.key, self.game if fresh else None, steps)
        except CancelledError:
            return  # the server stops
        self._sent = len(self._steps)
        self._jobs += 1
        self.tracker.answered(job, self._tracked)

    def _tracked(self, job: Future[Shown]) -> None:
        """In the tracker's answers thread: a job's answer, or a lost worker (send all again)."""
        with self._lock:
            self._jobs -= 1
            news = {}
            try:
                news = self._found(job.result())
            except CancelledError:
                pass  # the server stops
            except (BrokenProcessPool, Forgotten):
                self._sent = 0
                if self._jobs == 0 and self.on_news is not None:
                    self._send()
            if self._jobs == 0:
                self._idle.notify_all()
        if news and self.on_news is not None:
            self.on_news(news)

    def _found(self, shown: Shown) -> dict[Audience, list[dict[str, Any]]]:
        """Record newly shown throws (known ones are ignored); their openings by audience."""
        news: dict[Audience, list[dict[str, Any]]] = {}
        for k, audience in shown:
            if audience not in self._shown[k]:
                self._shown[k].add(audience)
                news.setdefault(audience, []).append(self.dice.opening(k).to_json())
        if self.tracker is None:
            for audience, openings in news.items():
                self._news.setdefault(audience, []).extend(openings)
        return news

    def take_news(self) -> dict[Audience, list[dict[str, Any]]]:
        """Openings newly due, by audience (None: everyone), since the last call
        (when not tracking live, where `on_news` is told of them)."""
        news, self._news = self._news, {}
        return news

    def openings(self, seat: int | None) -> list[dict[str, Any]]:
        """Every opening `seat` (None: a spectator) has been given so far."""
        with self._lock:
            given = [k for k, s in enumerate(self._shown) if None in s or seat in s]
        return [self.dice.opening(k).to_json() for k in given]

    def settled(self) -> None:
        """Wait until every step has been followed (never on the event loop), sending them
        again if a lost worker left some unfollowed."""
        deadline = time.monotonic() + SETTLE_SECONDS
        with self._lock:
            while self.tracker is not None and not self.tracker.closed:
                if self._jobs == 0:
                    if self._sent == len(self._steps):
                        return
                    self._send()
                    continue
                if not self._idle.wait(timeout=max(0.0, deadline - time.monotonic())):
                    raise DicehallError("the sealed dice were not followed in time; try again")

    def release(self) -> None:
        """The table is done with these dice (rebuilt, or gone): the tracker forgets them."""
        if self.tracker is not None:
            self.tracker.forget(self.key)
        self.on_news = None

    def public(self, over: bool) -> dict[str, Any]:
        return {"fairness": SEALED, "commitment": self.commitment}

    def transcript(self, steps: list[dict[str, Any]]) -> dict[str, Any]:
        """The public steps (stand-ins for throws not shown to everyone) and public openings."""
        self.settled()
        with self._making:  # several requests at the end: one makes it, the others wait
            return self._make_transcript(steps)

    def _make_transcript(self, steps: list[dict[str, Any]]) -> dict[str, Any]:
        if self._transcript is None or len(self._transcript["steps"]) != len(steps):
            with self._lock:
                public = [None in shown for shown in self._shown]
            sealed = {k for k, shown in enumerate(public) if not shown}
            self._transcript = {
                "steps": stand_ins(self.game, steps, sealed),
                **self.public(True),
                "openings": [self.dice.opening(k).to_json() for k, p in enumerate(public) if p],
            }
        return self._transcript


TableDice = SeedTable | SealedTable


def table_dice(record: TableRecord, game: Game) -> TableDice:
    """A stored table's dice, in its mode."""
    seed = bytes.fromhex(record.seed)
    if record.fairness == SEALED:
        commits = [p.get("entropy") for p in record.players]
        bots = {s for s, p in enumerate(record.players) if p["bot"] is not None}
        return SealedTable(game, seed, commits, bots)
    return SeedTable(game, seed, record.commitment)


# --- verify ---------------------------------------------------------------------------


def verify_transcript(
    data: Mapping[str, Any], make: GameMaker | None = None, mine: object = None
) -> dict[str, Any]:
    """Check a finished table's transcript; `mine` is a player's openings file (or list).

    The report says `ok`, what was checked in numbers and in `words`, and
    otherwise `error` and, where one step is to blame, its index in `step`.
    """
    mode = data.get("fairness", SEED)
    report: dict[str, Any] = {
        "ok": False,
        "game": data.get("game"),
        "fairness": mode,
        "commitment": data.get("commitment"),
        "steps": 0,
        "throws": 0,
        "error": None,
        "step": None,
    }
    steps = data.get("steps")
    report["steps"] = len(steps) if isinstance(steps, list) else 0
    try:
        if mode == SEED:
            _verify_seed(data, make, report)
        elif mode == SEALED:
            _verify_sealed(data, make, report, mine)
        else:
            raise TranscriptError(f"fairness must be {SEALED!r} or {SEED!r}; got {mode!r}")
    except DicehallError as e:
        report["error"] = str(e)
        report["step"] = getattr(e, "step", None)
        report["words"] = f"the check failed: {e}"
    else:
        report["ok"] = True
    return report


def _verify_seed(data: Mapping[str, Any], make: GameMaker | None, report: dict[str, Any]) -> None:
    seed = _seed(data)
    commitment = data.get("commitment")
    if commitment_of(seed) != commitment:
        raise TranscriptError(f"the seed does not hash to the commitment {commitment!r}")
    dice = CommittedDice(seed)
    if not replay(data, record=False, make=make, check=DiceCheck(dice)).is_over():
        raise TranscriptError("the game does not end: the transcript is incomplete")
    report["throws"] = dice.count
    explain(report, data, False)


def _seed(data: Mapping[str, Any]) -> bytes:
    text = data.get("seed")
    if not isinstance(text, str):
        raise TranscriptError("missing field 'seed' (hex): only a finished table reveals it")
    try:
        seed = bytes.fromhex(text)
    except ValueError:
        raise TranscriptError(f"the seed must be hex; got {text!r}") from None
    if len(seed) != SEED_BYTES:
        raise TranscriptError(f"the seed must be {SEED_BYTES} bytes; got {len(seed)}")
    return seed


def _openings(items: object, what: str) -> dict[int, Opening]:
    if isinstance(items, dict):  # a player's file: {"table_id", "seat", "openings": [...]}
        items = items.get("openings")
    if not isinstance(items, list):
        raise TranscriptError(f"{what} must be a list of openings")
    found: dict[int, Opening] = {}
    for item in items:
        opening = Opening.from_json(item)
        found[opening.throw] = opening
    return found


class SealedCheck:
    """The step check of a sealed transcript: rounds, openings, and what the rules showed."""

    def __init__(
        self, game: Game, commitment: object, public: dict[int, Opening], mine: dict[int, Opening]
    ) -> None:
        self.commitment = commitment
        self.public = public
        self.mine = mine
        self.roots: dict[int, bytes] = {}
        self.entropy: dict[int, bytes] = {}
        self.withheld: set[int] = set()
        self.given: set[int] = set()
        self.count = 0
        self.public_checked = 0
        self.mine_checked = 0
        self.sealed = 0
        self.marked: list[bool] = []
        self.shown = ShownThrows(game)

    def check(self, state: State, step: Mapping[str, Any]) -> Mapping[str, Any] | None:
        if "entropy" in step:
            self._round(step["entropy"], state.game.seats)
            self.shown.step(step)
            return None
        if "chance" not in step:
            self.shown.step(step)
            return None
        k = self.count
        self.count += 1
        b = k // BATCH
        if b not in self.entropy:
            raise ChanceError(f"throw {k} comes before the entropy round of its batch {b}")
        sealed = step.get("sealed") is True
        self.marked.append(sealed)
        opening = (self.mine if sealed else self.public).get(k)
        if opening is None and not sealed:
            raise ChanceError(f"throw {k} is public but the transcript holds no opening for it")
        if opening is not None:
            if opening.root() != self.roots[b]:
                raise ChanceError(f"the opening of throw {k} does not hash to its batch's root")
            faces = list(opening.faces(self.entropy[b], state.chance_dice()))
            if not sealed:
                if faces != step["chance"]:
                    raise ChanceError(
                        f"throw {step['chance']!r} is not what its opening gives: {faces}"
                    )
                self.public_checked += 1
            else:
                self.mine_checked += 1
                step = {"chance": faces}
        else:
            self.sealed += 1
        self.shown.step(step)
        return step

    def _round(self, record: object, seats: int) -> None:
        if not isinstance(record, dict):
            raise TranscriptError("an entropy record is a JSON object")
        b = record.get("batch")
        if b != len(self.roots):
            raise TranscriptError(
                f"entropy round {b!r} out of order: batch {len(self.roots)} is due"
            )
        root = hex_bytes(record.get("root"), f"batch {b}'s root")
        if b == 0 and root.hex() != self.commitment:
            raise TranscriptError("the first batch's root is not the table's commitment")
        commits, values = record.get("commits"), record.get("values")
        if not (isinstance(commits, list) and isinstance(values, list)):
            raise TranscriptError("an entropy record lists commits and values by seat")
        if len(commits) != seats or len(values) != seats:
            raise TranscriptError(f"an entropy record lists {seats} commits and values")
        contributions: list[bytes | None] = []
        for s in range(seats):
            if values[s] is None:
                if commits[s] is not None:
                    self.withheld.add(s)
                contributions.append(None)
                continue
            if commits[s] is None:
                raise TranscriptError(f"seat {s} gave entropy without a commitment")
            commit = hex_bytes(commits[s], f"seat {s}'s commitment")
            value = hex_bytes(values[s], f"seat {s}'s entropy value")
            if not chain_checks(commit, b, value):
                raise TranscriptError(f"seat {s}'s entropy value does not match its commitment")
            self.given.add(s)
            contributions.append(value)
        self.roots[b] = root
        self.entropy[b] = batch_entropy(root, contributions)

    def finish(self) -> None:
        """Every throw the rules showed to everyone must be public, with its opening."""
        for k, sealed in enumerate(self.marked):
            if sealed and self.shown.public(k):
                raise ChanceError(f"throw {k} was shown to everyone by the rules but kept sealed")


def _verify_sealed(
    data: Mapping[str, Any], make: GameMaker | None, report: dict[str, Any], mine: object
) -> None:
    from dicehall.core.transcript import game_of

    game = game_of(data, make)
    public = _openings(data.get("openings"), "the transcript's openings")
    own = _openings(mine, "your openings") if mine is not None else {}
    own = {k: o for k, o in own.items() if k not in public}
    check = SealedCheck(game, data.get("commitment"), public, own)
    if not replay(data, record=False, make=make, check=check).is_over():
        raise TranscriptError("the game does not end: the transcript is incomplete")
    check.finish()
    report.update(
        throws=check.count,
        public_throws=check.public_checked,
        your_throws=check.mine_checked,
        sealed_throws=check.sealed,
        entropy_from=sorted(check.given),
        withheld=sorted(check.withheld),
    )
    explain(report, data, mine is not None)


def explain(report: dict[str, Any], data: Mapping[str, Any], with_mine: bool) -> None:
    """Put a checked report in plain words, with the seats by their names: `words`, the one
    sentence a player reads first, and `explained`, what "how it works" says (what was
    promised before the game, what anyone can check now, what stays secret and why). The
    page's fair-dice panel and `dicehall verify` print these same words."""
    names = data.get("names")
    if not (isinstance(names, list) and all(isinstance(n, str) for n in names)):
        names = []
    names = names if len(names) == report_seats(data) else default_names(report_seats(data))
    if report["fairness"] == SEED:
        n = report["throws"]
        report["words"] = (
            f"the dice were fair: all {n} throws follow from the seed the server promised "
            "before the game"
        )
        report["explained"] = {
            "promised": "Before the game the server published a fingerprint (a SHA-256 hash) "
            "of the secret seed every throw comes from. Changing the seed afterwards would "
            "change the fingerprint.",
            "checked": f"The seed is revealed now: it matches the fingerprint, and all {n} "
            "throws, hidden ones included, are what it gives.",
            "secret": "Nothing: at a revealed-seed table anyone can recompute every throw once "
            "the game is over.",
        }
        return
    public, mine, sealed = report["public_throws"], report["your_throws"], report["sealed_throws"]
    with_mine = with_mine and mine > 0  # openings of throws the game showed add nothing
    yours = (
        ""
        if not with_mine
        else ", and so is your own hidden throw"
        if mine == 1
        else f", and so are your own {mine} hidden throws"
    )
    seen = (
        "the one throw everyone saw is the one"
        if public == 1
        else f"all {public} throws everyone saw are the ones"
    )
    report["words"] = f"the dice were fair: {seen} the server promised before the game{yours}"
    given = [names[s] for s in report["entropy_from"]]
    mixed = (
        f" {and_list(given)} also mixed in secret numbers of their own, which the server "
        "could not know in advance: so it could not choose the dice either."
        if given
        else " No player mixed in numbers of their own: the server's secrets alone decided "
        "the dice."
    )
    withheld = [names[s] for s in report["withheld"]]
    if withheld:
        mixed += f" {and_list(withheld)} promised numbers but never revealed them; the dice "
        mixed += "went ahead without them."
    report["explained"] = {
        "promised": "Before the first throw the server published a fingerprint (the "
        "commitment, the root of a hash tree) of a secret for every throw. Changing any of "
        "them afterwards would change the fingerprint." + mixed,
        "checked": f"Anyone can check now that each of the {count(public, 'throw')} everyone "
        "saw matches its secret and the fingerprint"
        + (
            f"; the openings your page kept prove your own {count(mine, 'hidden throw')} too."
            if with_mine
            else ". Your page kept the openings of your own hidden throws: dicehall verify "
            "FILE --openings MINE.json checks them."
        ),
        "secret": f"{count(sealed, 'throw')} that only their thrower saw (dice under the mug "
        f"or in the tube that were never shown) {'stays' if sealed == 1 else 'stay'} sealed, "
        "even now, so that nobody learns another "
        "player's hidden dice or how they bluffed. They were still fixed by the fingerprint "
        "before the game.",
    }


def count(n: int, noun: str) -> str:
    """ "1 throw", "2 throws"."""
    return f"{n} {noun}" if n == 1 else f"{n} {noun}s"


def report_seats(data: Mapping[str, Any]) -> int:
    seats = data.get("seats")
    return seats if isinstance(seats, int) and 0 < seats <= 64 else 0
