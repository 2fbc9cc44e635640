"""Player accounts: a unique name with a password, guests, bots, and login sessions.

A person either registers a name and a password, or plays as a *guest*: the
first table they create or join without being logged in makes them a guest
account and a session, so every game they play is theirs. Registering from
that guest session turns the same account into a named one, and with it
every game the guest played (that is the claim: nothing is copied). Bots have
accounts too, of kind "bot", so that they are rated like anyone: the server's
own bots get one per bot name (results.py); bots from outside register as
bot accounts of their own.

Security, with well-kept parts only:
- Passwords are hashed with Argon2id (argon2-cffi; its default parameters are
  RFC 9106's low-memory profile), in a bounded pool of their own, never on the
  event loop and never in the database's writer thread. A login for a name
  that does not exist spends the same hash, so timing does not tell names.
- A session is a 256-bit random token in a cookie (HttpOnly, SameSite=Lax,
  Secure over HTTPS: http/account_api.py); the database keeps only its SHA-256.
- Deleting an account deletes its personal data (name, password, sessions)
  and renames its seats in stored games to "deleted player"; the games and
  their results stay, for the other players' histories and ratings.
"""

from __future__ import annotations

import hashlib
import re
import secrets
import time
from dataclasses import dataclass
from typing import Any

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError
from sqlalchemy import Column, Float, ForeignKey, String, Table, delete, insert, select, update
from sqlalchemy.engine import Connection, Engine, Row
from sqlalchemy.exc import IntegrityError

from dicehall.core.errors import DicehallError
from dicehall.server.tables.store import metadata

HUMAN, BOT, GUEST = "human", "bot", "guest"
KINDS = (HUMAN, BOT, GUEST)
DELETED_NAME = "deleted player"
GUEST_NAME = "guest"
SESSION_SECONDS = 30 * 24 * 3600
NAME_SHAPE = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]{1,23}")
MIN_PASSWORD, MAX_PASSWORD = 8, 256
RESERVED = {"deleted", "guest", "admin", "bot", "dicehall", "player", "spectator"}

accounts = Table(
    "accounts",
    metadata,
    Column("id", String(32), primary_key=True),
    Column("kind", String(8), nullable=False),  # human, bot or guest
    Column("name", String(40), nullable=True),  # null: a guest, or a deleted account
    # the name folded for case: one account per name, whatever its capitals
    Column("name_key", String(40), nullable=True, unique=True),
    Column("password_hash", String(255), nullable=True),
    Column("created", Float, nullable=False),
    Column("deleted", Float, nullable=True),
)

sessions = Table(
    "sessions",
    metadata,
    Column("token_hash", String(64), primary_key=True),
    Column("account_id", String(32), ForeignKey("accounts.id"), nullable=False, index=True),
    Column("created", Float, nullable=False),
    Column("expires", Float, nullable=False),
)


class AccountError(DicehallError):
    """A name or password the server does not take (400)."""


class NameTaken(AccountError):
    """Another account has this name (409)."""


class WrongPassword(AccountError):
    """No account with this name and password (401); it never says which was wrong."""


@dataclass(frozen=True)
class Account:
    id: str
    kind: str
    name: str | None
    created: float
    deleted: float | None = None

    @classmethod
    def from_row(cls, row: Row[Any]) -> Account:
        return cls(row.id, row.kind, row.name, row.created, row.deleted)

    @property
    def shown(self) -> str:
        """The name pages show: a deleted account's games stay under "deleted player"."""
        if self.deleted is not None:
            return DELETED_NAME
        return self.name or GUEST_NAME

    def to_json(self) -> dict[str, Any]:
        return {"id": self.id, "name": self.shown, "kind": self.kind, "created": self.created}


def name_key(name: str) -> str:
    return name.casefold()


def check_name(name: str, reserved: set[str] = RESERVED) -> str:
    """A name people can type and link to: 2–24 letters, digits, `_`, `.` or `-`."""
    if not NAME_SHAPE.fullmatch(name):
        raise AccountError(
            "a name is 2 to 24 characters: letters, digits, '_', '.' or '-', starting with a"
            f" letter or digit; got {name!r}"
        )
    if name_key(name) in reserved:
        raise AccountError(f"the name {name!r} is reserved")
    return name


def check_password(password: str) -> str:
    if not MIN_PASSWORD <= len(password) <= MAX_PASSWORD:
        raise AccountError(
            f"a password is {MIN_PASSWORD} to {MAX_PASSWORD} characters; got {len(password)}"
        )
    return password


def new_id() -> str:
    return secrets.token_urlsafe(12)


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


class AccountStore:
    """The accounts and sessions tables. Every method is blocking: the API runs them in
    the database's thread (`Store.run`) and the password work in its own pool."""

    def __init__(self, engine: Engine, hasher: PasswordHasher | None = None) -> None:
        self.engine = engine
        self.hasher = hasher or PasswordHasher()
        # spent on a login for a name that does not exist, so it takes as long as a real one
        self._decoy: str | None = None

    # --- passwords (slow: the password pool) ----------------------------------------

    def hash_password(self, password: str) -> str:
        return self.hasher.hash(password)

    def matches(self, stored: str | None, password: str) -> bool:
        """Whether `password` is the one `stored` was hashed from (None: no such account)."""
        if stored is None and self._decoy is None:
            self._decoy = self.hasher.hash(secrets.token_urlsafe(16))
        try:
            return self.hasher.verify(stored or self._decoy or "", password) and stored is not None
        except (VerificationError, InvalidHashError):
            return False

    # --- accounts (the database's thread) -------------------------------------------

    def get(self, account_id: str) -> Account | None:
        with self.engine.connect() as db:
            row = db.execute(select(accounts).where(accounts.c.id == account_id)).first()
        return None if row is None else Account.from_row(row)

    def by_name(self, name: str) -> Account | None:
        with self.engine.connect() as db:
            row = db.execute(select(accounts).where(accounts.c.name_key == name_key(name))).first()
        return None if row is None else Account.from_row(row)

    def password_of(self, name: str) -> tuple[Account | None, str | None]:
        """The account of a name and its stored hash, for a login."""
        with self.engine.connect() as db:
            row = db.execute(select(accounts).where(accounts.c.name_key == name_key(name))).first()
        if row is None:
            return None, None
        return Account.from_row(row), row.password_hash

    def new_guest(self) -> Account:
        account = Account(new_id(), GUEST, None, time.time())
        with self.engine.begin() as db:
            _insert(db, account, None)
        return account

    def register(self, name: str, password_hash: str, guest: Account | None = None) -> Account:
        """A named account; from a guest's session, that very guest becomes it (the claim)."""
        try:
            with self.engine.begin() as db:
                if guest is not None and guest.kind == GUEST:
                    db.execute(
                        update(accounts)
                        .where(accounts.c.id == guest.id)
                        .values(
                            kind=HUMAN,
                            name=name,
                            name_key=name_key(name),
                            password_hash=password_hash,
                        )
                    )
                    return Account(guest.id, HUMAN, name, guest.created)
                account = Account(new_id(), HUMAN, name, time.time())
                _insert(db, account, password_hash)
                return account
        except IntegrityError:
            raise NameTaken(f"the name {name!r} is taken") from None

    def bot(self, name: str) -> Account | None:
        """The account of a bot by name, made on first use: one of the server's own, or a
        bot from outside. None if a person's account has the name."""
        found = self.by_name(name)
        if found is None:
            account = Account(new_id(), BOT, name, time.time())
            try:
                with self.engine.begin() as db:
                    _insert(db, account, None)
                return account
            except IntegrityError:  # made meanwhile
                found = self.by_name(name)
        return found if found is not None and found.kind == BOT else None

    def set_password_hash(self, account_id: str, password_hash: str) -> None:
        """A rehash with the hasher's newer parameters, after a login proved the password."""
        with self.engine.begin() as db:
            db.execute(
                update(accounts)
                .where(accounts.c.id == account_id)
                .values(password_hash=password_hash)
            )

    def delete(self, account_id: str) -> None:
        """Forget the account's personal data: its name, password and sessions."""
        with self.engine.begin() as db:
            db.execute(delete(sessions).where(sessions.c.account_id == account_id))
            db.execute(
                update(accounts)
                .where(accounts.c.id == account_id)
                .values(name=None, name_key=None, password_hash=None, deleted=time.time())
            )

    # --- sessions -------------------------------------------------------------------

    def open_session(self, account_id: str) -> str:
        """A new session for the account; its token goes to the cookie, its hash here."""
        token = secrets.token_urlsafe(32)
        now = time.time()
        with self.engine.begin() as db:
            db.execute(
                insert(sessions).values(
                    token_hash=token_hash(token),
                    account_id=account_id,
                    created=now,
                    expires=now + SESSION_SECONDS,
                )
            )
        return token

    def session(self, token: str) -> Account | None:
        """The account a session token is logged in as; None if unknown or expired."""
        query = (
            select(accounts)
            .join(sessions, sessions.c.account_id == accounts.c.id)
            .where(sessions.c.token_hash == token_hash(token))
            .where(sessions.c.expires > time.time())
            .where(accounts.c.deleted.is_(None))
        )
        with self.engine.connect() as db:
            row = db.execute(query).first()
        return None if row is None else Account.from_row(row)

    def close_session(self, token: str) -> None:
        with self.engine.begin() as db:
            db.execute(delete(sessions).where(sessions.c.token_hash == token_hash(token)))


def _insert(db: Connection, account: Account, password_hash: str | None) -> None:
    db.execute(
        insert(accounts).values(
            id=account.id,
            kind=account.kind,
            name=account.name,
            name_key=None if account.name is None else name_key(account.name),
            password_hash=password_hash,
            created=account.created,
            deleted=None,
        )
    )
