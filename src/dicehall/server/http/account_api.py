"""The account endpoints under /api/account, and who a request comes from.

A request's account is the one its session cookie is logged in as. Taking a
seat without one makes a guest account and logs the browser in as it
(`seat_account`), so every seat a person takes is theirs to claim. Cookies are
HttpOnly (no script reads them), SameSite=Lax (another site's form or fetch
does not carry them; a link to an invite still does) and Secure when the
request came over HTTPS (behind a proxy, with uvicorn's `--proxy-headers`).

Wrong names and wrong passwords get the same 401. Every endpoint that checks a
password (login, and deleting a named account) has the same three budgets,
429 past any (ops/limits.py's Limits):

- tries per client address (`logins_per_minute`, `logins_burst`);
- wrong passwords per (name, address) (`name_tries_per_minute`, `name_tries_burst`):
  one address guessing one name soon stops, and nobody else is stopped by it;
- wrong passwords per name over all addresses (`name_failures_per_hour`): past it,
  an address that has already given a wrong password for the name is refused
  until its own budget refills. A correct password spends nothing of the name's
  budgets, and an address that has not guessed wrong (the owner's, typically)
  is never refused by the name's budget: many addresses cannot lock the owner
  out, and each of them still gets only a few guesses.

Nor can a flood of guesses fill the queue of password checks ahead of the owner: a
try from an address that has guessed wrong for the name in the window, or has a
check for it under way, waits in a pool of its own (`suspect_passwords`), so the
pool that checks first tries (`passwords`) holds at most one try per address and
name, and each address gets into it once a window.

Registrations are limited per address (`registrations_per_hour`), and their
Argon2id hashes have a pool of their own (`registration_threads`), so that
making accounts can never keep a login waiting for a slot. Passwords and
session tokens appear in no log line, error message or response other than the
cookie itself.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Awaitable, Callable, Iterable
from typing import Annotated, Any

from argon2 import PasswordHasher
from fastapi import APIRouter, HTTPException, Request, Response
from pydantic import BaseModel, Field
from starlette.requests import HTTPConnection

from dicehall.server.http.answers import client_address, errors
from dicehall.server.ops.limits import Limiter, Limits, TooManyRequests
from dicehall.server.ops.settings import ServerConfig
from dicehall.server.ops.workers import Pool
from dicehall.server.people.accounts import (
    GUEST,
    HUMAN,
    MAX_PASSWORD,
    RESERVED,
    SESSION_SECONDS,
    Account,
    AccountError,
    AccountStore,
    NameTaken,
    check_name,
    check_password,
    name_key,
)
from dicehall.server.tables.store import Store

SESSION_COOKIE = "dicehall_session"

Password = Annotated[str, Field(max_length=MAX_PASSWORD)]


class Credentials(BaseModel):
    name: str = Field(max_length=40)
    password: Password


class Deletion(BaseModel):
    password: Password = Field("", description="the account's password (a guest has none)")


class Accounts:
    """Accounts as the server uses them: sessions from cookies, passwords off the loop."""

    def __init__(
        self,
        store: Store,
        limits: Limits,
        config: ServerConfig,
        bot_names: Iterable[str] = (),
        limiter: Limiter | None = None,
    ) -> None:
        self.store = store
        hasher = PasswordHasher(
            time_cost=config.password_time_cost, memory_cost=config.password_memory_kib
        )
        self.db = AccountStore(store.engine, hasher)
        self.passwords = Pool(
            "checking passwords",
            config.password_threads,
            config.password_queue,
            retry_after=config.retry_after_seconds,
            lower_priority=True,
        )
        # tries from addresses that already guessed wrong for the name: behind their own queue
        self.suspect_passwords = Pool(
            "checking passwords guessed wrong before",
            config.password_threads,
            config.password_queue,
            retry_after=config.retry_after_seconds,
            lower_priority=True,
        )
        self.checking: Counter[str] = Counter()  # (name, address) -> checks under way
        # new accounts' hashes: slots of their own, so that they never hold up a login
        self.new_passwords = Pool(
            "making accounts",
            config.registration_threads,
            config.registration_queue,
            retry_after=config.retry_after_seconds,
            lower_priority=True,
        )
        self.reserved = RESERVED | {name_key(b) for b in bot_names}
        limiter = limiter or Limiter()
        self.tries = limiter.budget(limits.logins_per_minute, limits.logins_burst, "password tries")
        self.pair_failures = limiter.budget(
            limits.name_tries_per_minute, limits.name_tries_burst, "wrong passwords"
        )
        self.name_failures = limiter.budget(
            limits.name_failures_per_hour / 60,
            max(1, round(limits.name_failures_per_hour)),
            "wrong passwords",
        )
        self.registrations = limiter.budget(
            limits.registrations_per_hour / 60, limits.registrations_burst, "new accounts"
        )

    async def viewer(self, request: HTTPConnection) -> Account | None:
        """The account the request's session cookie is logged in as, if any."""
        token = request.cookies.get(SESSION_COOKIE)
        if not token or len(token) > 100:
            return None
        return await self.store.run(self.db.session, token)

    async def seat_account(self, request: Request, response: Response) -> Account:
        """Whoever takes a seat: the logged-in account, or a new guest logged in now."""
        account = await self.viewer(request)
        if account is None:
            account = await self.store.run(self.db.new_guest)
            await self.log_in(account, request, response)
        return account

    async def seat(self, request: Request, response: Response, name: str) -> tuple[str, str]:
        """Who takes a seat (`seat_account`), and the seat's name: a named account's own,
        else the nickname given."""
        account = await self.seat_account(request, response)
        return account.id, account.name if account.kind == HUMAN and account.name else name

    async def log_in(self, account: Account, request: Request, response: Response) -> None:
        token = await self.store.run(self.db.open_session, account.id)
        response.set_cookie(
            SESSION_COOKIE,
            token,
            max_age=SESSION_SECONDS,
            path="/",
            httponly=True,
            samesite="lax",
            secure=request.url.scheme == "https",
        )

    async def log_out(self, request: Request, response: Response) -> None:
        token = request.cookies.get(SESSION_COOKIE)
        if token:
            await self.store.run(self.db.close_session, token)
        response.delete_cookie(SESSION_COOKIE, path="/", httponly=True, samesite="lax")

    async def password_try(self, address: str, name: str) -> str:
        """Before a password is checked: its budgets (module docstring), or TooManyRequests.
        The key that `wrong_password` then counts against."""
        await self.tries.check(address)
        key = name_key(name)
        pair = f"{key} {address}"
        if not await self.pair_failures.allows(pair):
            retry = await self.pair_failures.retry_after(pair)
            raise TooManyRequests(
                f"too many wrong passwords for the name {name!r} from your address: try again"
                f" in {retry} s",
                retry,
            )
        if not await self.name_failures.allows(key) and await self.pair_failures.used(pair):
            retry = await self.pair_failures.retry_after(pair)
            raise TooManyRequests(
                f"too many wrong passwords for the name {name!r}: try again in {retry} s",
                retry,
            )
        return key

    async def wrong_password(self, address: str, key: str) -> None:
        await self.pair_failures.spend(f"{key} {address}")
        await self.name_failures.spend(key)

    async def verify(self, address: str, key: str, stored: str | None, password: str) -> bool:
        """A password checked, after `password_try` gave its key; a wrong one is counted."""
        pair = f"{key} {address}"
        suspect = self.checking[pair] > 0 or await self.pair_failures.used(pair)
        pool = self.suspect_passwords if suspect else self.passwords
        self.checking[pair] += 1
        try:
            ok = await pool.run(self.db.matches, stored, password)
        finally:
            self.checking[pair] -= 1
            if not self.checking[pair]:
                del self.checking[pair]
        if not ok:
            await self.wrong_password(address, key)
        return ok


def account_router(accounts: Accounts, forget: Callable[[str], Awaitable[None]]) -> APIRouter:
    """`forget(account_id)`: rename the account's seats in the games the server holds."""
    router = APIRouter(prefix="/api/account")

    @router.get("")
    async def me(request: Request) -> dict[str, Any]:
        """The account this browser is logged in as: {"account": {...}} or null."""
        account = await accounts.viewer(request)
        return {"account": None if account is None else account.to_json()}

    @router.post("/register", responses=errors(400, 409, 429, 503))
    async def register(body: Credentials, request: Request, response: Response) -> dict[str, Any]:
        """A new named account, logged in at once. From a guest's session the guest itself
        becomes the named account, with every game it played (the claim)."""
        try:
            name = check_name(body.name, accounts.reserved)
            password = check_password(body.password)
        except AccountError as e:
            raise HTTPException(400, str(e)) from None
        current = await accounts.viewer(request)
        if current is not None and current.kind != GUEST:
            raise HTTPException(409, f"you are logged in as {current.shown}: log out first")
        await accounts.registrations.check(client_address(request))
        hashed = await accounts.new_passwords.run(accounts.db.hash_password, password)
        try:
            account = await accounts.store.run(accounts.db.register, name, hashed, current)
        except NameTaken as e:
            raise HTTPException(409, str(e)) from None
        await accounts.log_out(request, response)  # a new session for the new name
        await accounts.log_in(account, request, response)
        return {"account": account.to_json(), "claimed": current is not None}

    @router.post("/login", responses=errors(401, 429, 503))
    async def login(body: Credentials, request: Request, response: Response) -> dict[str, Any]:
        """Log in with a name and password; a wrong one of either answers 401 alike."""
        address = client_address(request)
        key = await accounts.password_try(address, body.name)  # before the database is asked
        account, stored = await accounts.store.run(accounts.db.password_of, body.name)
        ok = await accounts.verify(address, key, stored, body.password)
        if not ok or account is None or account.deleted is not None:
            raise HTTPException(401, "wrong name or password")
        if accounts.db.hasher.check_needs_rehash(stored or ""):
            rehashed = await accounts.passwords.run(accounts.db.hash_password, body.password)
            await accounts.store.run(accounts.db.set_password_hash, account.id, rehashed)
        await accounts.log_out(request, response)
        await accounts.log_in(account, request, response)
        return {"account": account.to_json()}

    @router.post("/logout")
    async def logout(request: Request, response: Response) -> dict[str, Any]:
        """End this browser's session (its cookie is cleared; the account stays)."""
        await accounts.log_out(request, response)
        return {"account": None}

    @router.post("/delete", responses=errors(401, 429, 503))
    async def delete(body: Deletion, request: Request, response: Response) -> dict[str, Any]:
        """Delete the logged-in account's personal data: its name, password and sessions.
        Its games stay, under "deleted player"; a named account must give its password."""
        account = await accounts.viewer(request)
        if account is None:
            raise HTTPException(401, "log in first")
        if account.kind != GUEST:
            address, name = client_address(request), account.name or ""
            key = await accounts.password_try(address, name)
            _, stored = await accounts.store.run(accounts.db.password_of, name)
            ok = await accounts.verify(address, key, stored, body.password)
            if not ok:
                raise HTTPException(401, "wrong password")
        await accounts.store.run(accounts.db.delete, account.id)
        await forget(account.id)
        response.delete_cookie(SESSION_COOKIE, path="/", httponly=True, samesite="lax")
        return {"account": None, "deleted": account.id}

    return router
