"""Who calls the Bot API: personal API tokens (Bearer), or the web page's login.

A personal token is made on the account page (``POST /api/tokens``, shown once), listed
(``GET /api/tokens``) and revoked (``POST /api/tokens/{id}/revoke``); those three take the
web login only (the cookie, or a login token as Bearer), never an API token. A token carries
scopes; an API token's caller is refused a route whose scope it lacks. The web login may do
what a person does on the site (board play, challenges) but not play as a bot.
"""

from __future__ import annotations

import dataclasses
import json
import re
from collections.abc import Sequence
from typing import Any
from urllib.parse import urlsplit

from ...store.api_tokens import TOKEN_PREFIX, ApiStore
from ..services.accounts import Accounts, request_token
from ..transport.http_types import Request, Response
from .wire import BotApiError, json_response

SCOPES = ("bot:play", "board:play", "challenge:read", "challenge:write")
#: what the web login may do over the API (not bot:play: a bot plays by its token)
WEB_SCOPES = frozenset({"board:play", "challenge:read", "challenge:write"})
DESCRIPTION = re.compile(r"[\w .,:;!?'()+-]{1,60}")
TOKEN = re.compile(re.escape(TOKEN_PREFIX) + r"[A-Za-z0-9_-]{43}")
#: tokens one ``/api/token/test`` may ask about
MAX_TESTED = 10


@dataclasses.dataclass(frozen=True, slots=True)
class Caller:
    """An authenticated caller: the account (as registered), its scopes, a bot or not."""

    name: str
    scopes: frozenset[str]
    bot: bool
    #: the API token's id, or None for the web login
    token_id: str | None

    @property
    def id(self) -> str:
        return self.name.lower()

    def need(self, scope: str) -> None:
        """Refuse the request unless the token has ``scope``: lichess's 403 ``Missing
        scope``, with its headers naming the scopes the token has and the one it lacks."""
        if scope not in self.scopes:
            raise BotApiError(
                403,
                "Missing scope",
                headers={
                    "X-OAuth-Scopes": ",".join(sorted(self.scopes)),
                    "X-Accepted-OAuth-Scopes": scope,
                },
            )


class Tokens:
    def __init__(self, accounts: Accounts, store: ApiStore) -> None:
        self.accounts = accounts
        self.store = store

    async def caller(self, request: Request) -> Caller:
        """The request's caller; lichess's 401 for a missing, unknown or revoked token."""
        token = request_token(request.headers)
        if token is None:
            raise BotApiError(401, "No such token")
        if TOKEN.fullmatch(token):
            owner = await self.store.owner(token)
            user = await self.accounts.store.user(owner["user"]) if owner else None
            if owner is None or user is None:
                raise BotApiError(401, "No such token")
            return Caller(
                user["name"], frozenset(owner["scopes"]), user.get("bot") == "1", owner["id"]
            )
        if "Authorization" not in request.headers:  # the login cookie: this site's pages only
            origin = request.headers.get("Origin")
            if origin is not None and urlsplit(origin).netloc != request.headers.get("Host"):
                raise BotApiError(403, "the login cookie is taken from this site's pages only")
        name = await self.accounts.user_of(token)
        if name is None:
            raise BotApiError(401, "No such token")
        user = await self.accounts.store.user(name)
        bot = bool(user and user.get("bot") == "1")
        return Caller(name, WEB_SCOPES, bot, None)

    async def web_caller(self, request: Request) -> Caller:
        """The web login only (token management), from this site only when a browser says
        where the request comes from."""
        origin = request.headers.get("Origin")
        if origin is not None and urlsplit(origin).netloc != request.headers.get("Host"):
            raise BotApiError(403, "tokens are managed from this site only")
        caller = await self.caller(request)
        if caller.token_id is not None:
            raise BotApiError(403, "API tokens are managed from the account page")
        return caller

    # -- lichess's token test --------------------------------------------------------------

    async def test(self, request: Request) -> dict[str, Any]:
        """lichess's ``POST /api/token/test``: the body is tokens separated by commas; each
        is answered with its owner and scopes, or null."""
        if request.method != "POST":
            raise BotApiError(405, "/api/token/test takes a POST")
        try:
            text = request.body.decode()
        except UnicodeDecodeError:
            raise BotApiError(400, "the body is not UTF-8") from None
        tokens = [t.strip() for t in text.split(",") if t.strip()]
        if not tokens or len(tokens) > MAX_TESTED:
            raise BotApiError(400, f"1 to {MAX_TESTED} tokens, separated by commas")
        found: dict[str, Any] = {}
        for token in tokens:
            owner = await self.store.owner(token) if TOKEN.fullmatch(token) else None
            found[token] = owner and {
                "userId": owner["user"],
                "scopes": ",".join(owner["scopes"]),
                "expires": None,
            }
        return found

    # -- the account page's routes --------------------------------------------------------------

    async def create(self, caller: Caller, fields: dict[str, Any]) -> dict[str, Any]:
        description = fields.get("description", "")
        if not isinstance(description, str) or not DESCRIPTION.fullmatch(description):
            raise BotApiError(400, "description: 1 to 60 letters, digits, spaces or punctuation")
        scopes = fields.get("scopes")
        if (
            not isinstance(scopes, list)
            or not scopes
            or len(scopes) > len(SCOPES)
            or any(s not in SCOPES for s in scopes)
        ):
            raise BotApiError(400, f"scopes: a non-empty list of {', '.join(SCOPES)}")
        made = await self.store.create_token(caller.name, sorted(set(scopes)), description)
        if made is None:
            raise BotApiError(429, "too many API tokens: revoke one first")
        entry, token = made
        return {**public(entry), "token": token}

    async def list(self, caller: Caller) -> dict[str, Any]:
        return {"tokens": [public(e) for e in await self.store.tokens(caller.name)]}

    async def revoke(self, caller: Caller, token_id: str) -> dict[str, Any]:
        if not re.fullmatch(r"[0-9a-f]{12}", token_id) or not await self.store.revoke(
            caller.name, token_id
        ):
            raise BotApiError(404, "No such token")
        return {"ok": True}

    async def route(self, request: Request, parts: Sequence[str], method: str) -> Response:
        """The account page's routes: ``GET``/``POST /api/tokens``, ``POST
        /api/tokens/{id}/revoke`` (the web login only)."""
        caller = await self.web_caller(request)
        if parts == ["tokens"] and method == "GET":
            return json_response(200, await self.list(caller))
        if parts == ["tokens"] and method == "POST":
            try:
                body = json.loads(request.body or b"{}")
            except (ValueError, UnicodeDecodeError):
                raise BotApiError(400, "the body must be a JSON object") from None
            if not isinstance(body, dict):
                raise BotApiError(400, "the body must be a JSON object")
            return json_response(200, await self.create(caller, body))
        if len(parts) == 3 and parts[2] == "revoke" and method == "POST":
            return json_response(200, await self.revoke(caller, parts[1]))
        raise BotApiError(404, "Not found")


def public(entry: dict[str, Any]) -> dict[str, Any]:
    return {k: entry[k] for k in ("id", "scopes", "description", "created")}
