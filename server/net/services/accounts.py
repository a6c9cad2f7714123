"""Accounts over HTTP: register, log in, log out, profiles and game history.

Routes (JSON in and out):

    POST /api/register          {"name", "password"} -> 201 {"name"}; 409 taken; 400 invalid
    POST /api/login             {"name", "password"} -> 200 {"name", "token"} + cookie;
                                401 wrong name or password (one answer); 429 too many tries
    POST /api/logout            forgets the token (cookie or ``Authorization: Bearer``)
    GET  /api/me                {"name", "bot"} of the token, else 401
    GET  /api/users/{name}      {"name", "bot", "ratings": {"chess:blitz": {...}}}
    GET  /api/users/{name}/games?page=1&per=20   finished games, newest first (from Redis and
         the archive; filters game=, result=win|loss|draw, rated=true|false, opponent=,
         vs_bot=true|false: a bot at the table); every finished game with an account seated
    GET  /api/users/{name}/ratings      {"name", "history": {category: [change, ...]}}

A request body is read by the server's HTTP connection (``server/net/transport/http11.py``), at most
:data:`MAX_BODY` bytes (beyond: 413, and no route runs); :func:`read_json` takes it.

Passwords are kept as salted scrypt hashes (n=2^14, r=8, p=1: 16 MB, ~50 ms; computed in a
thread) and compared with :func:`hmac.compare_digest`. Failed logins are counted per name and
per address in Redis; past the limit every attempt answers 429 until the window ends.
"""

from __future__ import annotations

import asyncio
import hashlib
import hmac
import json
import re
import secrets
import time
from http.cookies import CookieError, SimpleCookie
from typing import Any
from urllib.parse import parse_qs, urlsplit

from ...archive import Archive
from ...store.accounts import AccountStore
from ..transport.http_types import Headers, Request, Response, json_answer
from .archive.archived import games_query, player_games, rating_history

#: user names: 2-20 of these, beginning with a letter or digit; unique case-insensitively
NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9_-]{1,19}")
MIN_PASSWORD = 8
MAX_PASSWORD = 200
#: passwords refused whatever their length
COMMON = frozenset(
    {"password", "12345678", "123456789", "1234567890", "qwertyuiop", "11111111", "abcdefgh"}
)
COOKIE = "kibitz_token"
TOKEN_TTL = 30 * 24 * 3600

# Limits
#: failed logins allowed per name, and per address, in a window of this many seconds
FAILS_PER_NAME = 5
FAILS_PER_IP = 30
FAIL_WINDOW = 300
#: accounts one address may create an hour
REGISTRATIONS_PER_IP = 20
MAX_BODY = 4096

SCRYPT = {"n": 2**14, "r": 8, "p": 1, "maxmem": 64 * 1024 * 1024, "dklen": 32}


def hash_password(password: str, salt: bytes) -> bytes:
    return hashlib.scrypt(password.encode(), salt=salt, **SCRYPT)


def check_name(name: Any) -> str | None:
    """Why ``name`` cannot be a user name, or None."""
    if not isinstance(name, str) or not NAME.fullmatch(name):  # not match + $: "Ada\n"
        return "a name is 2 to 20 letters, digits, '_' or '-', beginning with a letter or digit"
    if name.lower() == "guest" or name.lower().startswith("guest-"):
        return "'Guest' and 'guest-...' are the names the server gives guests"
    return None


def check_password(name: str, password: Any) -> str | None:
    """Why ``password`` is too weak, or None."""
    if not isinstance(password, str) or not MIN_PASSWORD <= len(password) <= MAX_PASSWORD:
        return f"a password is {MIN_PASSWORD} to {MAX_PASSWORD} characters"
    if password.lower() in COMMON or name.lower() in password.lower() or len(set(password)) < 4:
        return "that password is too easy to guess"
    return None


class ApiError(Exception):
    def __init__(self, status: int, code: str, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.code = code


class Accounts:
    """The account service of one node: its accounts in ``store``, the games that left
    Redis in ``archive`` (None: no archive)."""

    def __init__(self, store: AccountStore, archive: Archive | None = None) -> None:
        self.store = store
        self.archive = archive
        #: a stand-in hash compared when the name is unknown (same work, same answer)
        self._dummy_salt = secrets.token_bytes(16)

    # -- operations -----------------------------------------------------------------------

    async def register(self, name: Any, password: Any, *, bot: bool = False, ip: str = "?") -> str:
        reason = check_name(name)
        if reason is None:
            reason = check_password(name, password)
        if reason is not None:
            raise ApiError(400, "bad_request", reason)
        if await self.store.fail(f"register:{ip}", 3600) > REGISTRATIONS_PER_IP:
            raise ApiError(429, "rate_limited", "too many new accounts from here: try later")
        salt = secrets.token_bytes(16)
        digest = await asyncio.to_thread(hash_password, password, salt)
        fields = {
            "hash": digest.hex(),
            "salt": salt.hex(),
            "bot": "1" if bot else "0",
            "created": str(round(time.time(), 3)),
        }
        if not await self.store.create_user(name, fields):
            raise ApiError(409, "name_taken", f"the name {name!r} is taken")
        return str(name)

    async def login(self, name: Any, password: Any, ip: str) -> tuple[str, str]:
        """(the registered name, a new token); 401 or 429 as :class:`ApiError`."""
        if not isinstance(password, str) or check_name(name) is not None:
            raise ApiError(401, "bad_login", "wrong name or password")
        if len(password) > MAX_PASSWORD:
            raise ApiError(401, "bad_login", "wrong name or password")
        lname = name.lower()
        by_name, by_ip = await self.store.failures([f"name:{lname}", f"ip:{ip}"])
        if by_name >= FAILS_PER_NAME or by_ip >= FAILS_PER_IP:
            raise ApiError(429, "rate_limited", "too many failed logins: wait a few minutes")
        user = await self.store.user(name)
        salt = bytes.fromhex(user["salt"]) if user else self._dummy_salt
        digest = await asyncio.to_thread(hash_password, password, salt)
        if user is None or not hmac.compare_digest(digest.hex(), user["hash"]):
            await self.store.fail(f"name:{lname}", FAIL_WINDOW)
            await self.store.fail(f"ip:{ip}", FAIL_WINDOW)
            raise ApiError(401, "bad_login", "wrong name or password")
        await self.store.clear_failures(f"name:{lname}")
        token = secrets.token_urlsafe(32)
        await self.store.save_token(token, user["name"], TOKEN_TTL)
        return user["name"], token

    async def user_of(self, token: Any) -> str | None:
        """The registered name a token belongs to, or None."""
        if not isinstance(token, str) or not 16 <= len(token) <= 128:
            return None
        lname = await self.store.token_user(token)
        if lname is None:
            return None
        user = await self.store.user(lname)
        return None if user is None else user["name"]

    async def profile(self, name: str) -> dict[str, Any]:
        user = await self.store.user(name) if check_name(name) is None else None
        if user is None:
            raise ApiError(404, "no_such_user", f"there is no user {name!r}")
        return {
            "name": user["name"],
            "bot": user.get("bot") == "1",
            "created": float(user.get("created", 0)),
            "ratings": await self.store.ratings(name),
        }

    async def games(
        self, name: str, page: int, per: int, filters: dict[str, list[str]] | None = None
    ) -> dict[str, Any]:
        """A page of the player's games, newest first, from Redis and the archive, filtered
        (``game``, ``result``, ``rated``, ``opponent``, ``vs_bot``:
        ``server/net/services/archive/archived.py``)."""
        profile = await self.profile(name)
        try:
            q = games_query(profile["name"], filters or {})
        except ValueError as exc:
            raise ApiError(400, "bad_request", str(exc)) from None
        total, games = await player_games(self.store, self.archive, q, (page - 1) * per, per)
        return {"name": profile["name"], "page": page, "per": per, "total": total, "games": games}

    # -- HTTP -----------------------------------------------------------------------------

    async def route(self, request: Request) -> Response:
        try:
            status, data, cookie = await self._route(request)
        except ApiError as exc:
            status, data, cookie = exc.status, {"code": exc.code, "message": str(exc)}, None
        return respond(status, data, cookie)

    async def _route(self, request: Request) -> tuple[int, dict[str, Any], str | None]:
        path, method = request.path, request.method
        if path in ("/api/register", "/api/login", "/api/logout"):
            if method != "POST":
                raise ApiError(405, "method_not_allowed", f"{path} takes a POST")
            origin = request.headers.get("Origin")
            if origin is not None and urlsplit(origin).netloc != request.headers.get("Host"):
                # browsers say where a form or fetch comes from: only our own pages may log
                # somebody in or out (no login CSRF)
                raise ApiError(403, "forbidden", "accounts are managed from this site only")
            if path == "/api/logout":
                token = request_token(request.headers)
                if token:
                    await self.store.drop_token(token)
                return 200, {"ok": True}, f"{COOKIE}=; Max-Age=0"
            body = read_json(request)
            ip = request.address
            if path == "/api/register":
                bot = body.get("bot", False)
                if not isinstance(bot, bool):
                    raise ApiError(400, "bad_request", "'bot' must be true or false")
                name = await self.register(body.get("name"), body.get("password"), bot=bot, ip=ip)
                return 201, {"name": name, "bot": bot}, None
            name, token = await self.login(body.get("name"), body.get("password"), ip)
            return 200, {"name": name, "token": token}, f"{COOKIE}={token}; Max-Age={TOKEN_TTL}"
        if method != "GET":
            raise ApiError(405, "method_not_allowed", f"{path} takes a GET")
        if path == "/api/me":
            me = await self.user_of(request_token(request.headers))
            if me is None:
                raise ApiError(401, "not_logged_in", "not logged in")
            return 200, {"name": me}, None
        parts = path.strip("/").split("/")  # api, users, name[, games]
        if len(parts) == 3:
            return 200, await self.profile(parts[2]), None
        if len(parts) == 4 and parts[3] == "games":
            query = parse_qs(request.query, keep_blank_values=True)
            page = _int_arg(query, "page", 1, 1, 10_000)
            per = _int_arg(query, "per", 20, 1, 100)
            return 200, await self.games(parts[2], page, per, query), None
        if len(parts) == 4 and parts[3] == "ratings":  # every change, for the chart
            name = (await self.profile(parts[2]))["name"]
            history = await rating_history(self.store, self.archive, name)
            return 200, {"name": name, "history": history}, None
        raise ApiError(404, "not_found", "no such resource")


def is_account_path(path: str) -> bool:
    return path in ("/api/register", "/api/login", "/api/logout", "/api/me") or (
        path.startswith("/api/users/")
    )


def _int_arg(query: dict[str, list[str]], key: str, default: int, low: int, high: int) -> int:
    values = query.get(key)
    if not values:
        return default
    try:
        value = int(values[0])
    except ValueError:
        raise ApiError(400, "bad_request", f"{key!r} must be a whole number") from None
    if not low <= value <= high:
        raise ApiError(400, "bad_request", f"{key!r} must be {low} to {high}")
    return value


def cookie_token(cookie: str | None) -> str | None:
    if not cookie:
        return None
    jar: SimpleCookie = SimpleCookie()
    try:
        jar.load(cookie)
    except CookieError:
        return None
    morsel = jar.get(COOKIE)
    return morsel.value if morsel is not None and morsel.value else None


def request_token(headers: Headers) -> str | None:
    auth = headers.get("Authorization", "")
    if auth.startswith("Bearer "):
        return auth[7:].strip() or None
    return cookie_token(headers.get("Cookie"))


def read_json(request: Request) -> dict[str, Any]:
    try:
        data = json.loads(request.body)
    except (ValueError, UnicodeDecodeError):
        raise ApiError(400, "bad_request", "the body must be a JSON object") from None
    if not isinstance(data, dict):
        raise ApiError(400, "bad_request", "the body must be a JSON object")
    return data


def respond(status: int, data: Any, cookie: str | None = None) -> Response:
    """A JSON answer (``cookie``: a ``Set-Cookie`` for the login token)."""
    response = json_answer(status, data)
    if cookie is not None:
        response.headers.append(("Set-Cookie", f"{cookie}; Path=/; HttpOnly; SameSite=Lax"))
    return response


async def authenticate(accounts: Accounts, client: Any, auth: Any) -> bool:
    """Log ``client`` in from ``hello``'s ``auth`` token, else its handshake cookie.

    False when a token was offered and is not valid (the client stays a guest)."""
    token = auth if auth is not None else cookie_token(client.cookie)
    if token is None:
        client.user = None
        return True
    client.user = await accounts.user_of(token)
    return client.user is not None
