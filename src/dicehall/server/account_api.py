"""The account endpoints under /api/account, and who a request comes from.

A request's account is the one its session cookie is logged in as. Taking a
seat without one makes a guest account and logs the browser in as it
(`seat_account`), so every seat a person takes is theirs to claim. Cookies are
HttpOnly (no script reads them), SameSite=Lax (another site's form or fetch
does not carry them; a link to an invite still does) and Secure when the
request came over HTTPS (behind a proxy, with uvicorn's `--proxy-headers`).

Wrong names and wrong passwords get the same 401; login attempts are limited
per client address and per name (limits.Limits: `logins_per_minute`,
`logins_burst`), 429 past either. Passwords and session tokens appear in no
log line, error message or response other than the cookie itself.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Iterable
from typing import Annotated, Any

from argon2 import PasswordHasher
from fastapi import APIRouter, HTTPException, Request, Response
from pydantic import BaseModel, Field
from starlette.requests import HTTPConnection

from dicehall.server.accounts import (
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
from dicehall.server.config import ServerConfig
from dicehall.server.limits import Limits, PerAddress, TooManyRequests
from dicehall.server.store import Store
from dicehall.server.workers import Pool

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
        )
        self.reserved = RESERVED | {name_key(b) for b in bot_names}
        self.by_address = PerAddress(limits.logins_per_minute, limits.logins_burst, "logins")
        self.by_name = PerAddress(limits.logins_per_minute, limits.logins_burst, "logins")

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

    def check_login_limits(self, address: str, name: str) -> None:
        self.by_address.check(address)
        try:
            self.by_name.check(name_key(name))
        except TooManyRequests as e:
            raise TooManyRequests(
                f"too many logins for the name {name!r}: try again in {e.retry_after} s",
                e.retry_after,
            ) from None


def account_router(accounts: Accounts, forget: Callable[[str], Awaitable[None]]) -> APIRouter:
    """`forget(account_id)`: rename the account's seats in the games the server holds."""
    from dicehall.server.api import client_address, errors

    router = APIRouter(prefix="/api/account")

    @router.get("")
    async def me(request: Request) -> dict[str, Any]:
        """The account this browser is logged in as: {"account": {...}} or null."""
        account = await accounts.viewer(request)
        return {"account": None if account is None else account.to_json()}

    @router.post("/register", responses=errors(400, 409, 503))
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
        hashed = await accounts.passwords.run(accounts.db.hash_password, password)
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
        accounts.check_login_limits(client_address(request), body.name)
        account, stored = await accounts.store.run(accounts.db.password_of, body.name)
        ok = await accounts.passwords.run(accounts.db.matches, stored, body.password)
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

    @router.post("/delete", responses=errors(401, 503))
    async def delete(body: Deletion, request: Request, response: Response) -> dict[str, Any]:
        """Delete the logged-in account's personal data: its name, password and sessions.
        Its games stay, under "deleted player"; a named account must give its password."""
        account = await accounts.viewer(request)
        if account is None:
            raise HTTPException(401, "log in first")
        if account.kind != GUEST:
            _, stored = await accounts.store.run(accounts.db.password_of, account.name or "")
            ok = await accounts.passwords.run(accounts.db.matches, stored, body.password)
            if not ok:
                raise HTTPException(401, "wrong password")
        await accounts.store.run(accounts.db.delete, account.id)
        await forget(account.id)
        response.delete_cookie(SESSION_COOKIE, path="/", httponly=True, samesite="lax")
        return {"account": None, "deleted": account.id}

    return router
