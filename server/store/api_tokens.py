"""Personal API tokens, challenges and API games of the lichess-compatible Bot API in Redis.

Keys (after the deployment's accounts prefix, so one slot on a Redis Cluster; ``{n}`` is a
lower-cased user name):

    apitokens:{n}        hash: token id -> JSON {id, hash, scopes, description, created}
    apitoken:{sha256}    JSON {user, id, scopes}: a token's owner, found by the token's hash
    challenge:{id}       JSON: an open challenge (expires)
    challenges:{n}       hash: challenge id -> when it was made (µs): the open challenges a
                         user made
    inbox:{n}            sorted set: ids of the open challenges made to a user, by when they
                         were made (µs; the lapsed ones dropped on every add, the gone ones
                         when read)
    apigame:{room}       hash: user -> JSON {seat, token}: who plays a room over the API
    apigames:{n}         set: the rooms a user plays over the API, until they end
    online               sorted set: user -> until when (s) it counts as online
    onlinebots           sorted set: the same, for bot accounts with an event stream open

A token itself is never stored, only its SHA-256 (it is 32 random bytes: no salt or slow
hash is needed). A user holds at most :data:`MAX_TOKENS` tokens, has made at most
:data:`MAX_CHALLENGES` open challenges and has at most :data:`MAX_INCOMING` waiting for an
answer; each bound is checked and written in one Lua script, so two nodes cannot pass it
together.
"""

from __future__ import annotations

import hashlib
import json
import secrets
import time
from typing import Any

#: tokens one account may hold
MAX_TOKENS = 10
#: open challenges one account may have made
MAX_CHALLENGES = 5
#: open challenges waiting for one account's answer (a bot's event stream opens with them)
MAX_INCOMING = 50
#: an unanswered challenge is forgotten after this many seconds
CHALLENGE_TTL = 600
#: a room's API seats are kept this long (a game longer than this loses its API door)
GAME_TTL = 7 * 24 * 3600
#: seconds an account counts as online after its presence was last written
PRESENCE_TTL = 30.0
#: a token: this prefix and 32 random bytes in URL-safe base64
TOKEN_PREFIX = "kbt_"

# KEYS: the hash, the index key; ARGV: bound, field, value, index value
ADD_BOUNDED = """
if redis.call('HLEN', KEYS[1]) >= tonumber(ARGV[1]) then return 0 end
redis.call('HSET', KEYS[1], ARGV[2], ARGV[3])
if ARGV[5] ~= '' then
  redis.call('SET', KEYS[2], ARGV[4], 'EX', tonumber(ARGV[5]))
else
  redis.call('SET', KEYS[2], ARGV[4])
end
return 1
"""

# KEYS: the maker's hash, the challenge, the recipient's inbox; ARGV: the maker's bound, the
# id, the challenge's JSON, its lifetime (s), the recipient's bound, now (µs). -1: the maker
# has made as many as it may; -2: as many wait for the recipient as may
ADD_CHALLENGE = """
local now = tonumber(ARGV[6])
redis.call('ZREMRANGEBYSCORE', KEYS[3], '-inf', now - tonumber(ARGV[4]) * 1000000)
if redis.call('HLEN', KEYS[1]) >= tonumber(ARGV[1]) then return -1 end
if redis.call('ZCARD', KEYS[3]) >= tonumber(ARGV[5]) then return -2 end
redis.call('HSET', KEYS[1], ARGV[2], ARGV[6])
redis.call('SET', KEYS[2], ARGV[3], 'EX', tonumber(ARGV[4]))
redis.call('ZADD', KEYS[3], ARGV[6], ARGV[2])
redis.call('EXPIRE', KEYS[3], tonumber(ARGV[4]))
return 1
"""


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def _s(raw: Any) -> str:
    return raw.decode() if isinstance(raw, bytes) else str(raw)


class ApiStore:
    """The Bot API's keys of one deployment (``redis``: a redis.asyncio client)."""

    def __init__(self, redis: Any, prefix: str) -> None:
        self.redis = redis
        self.prefix = prefix
        self._add = redis.register_script(ADD_BOUNDED)
        self._add_challenge = redis.register_script(ADD_CHALLENGE)

    def k(self, *parts: str) -> str:
        return self.prefix + ":".join(parts)

    # -- tokens -------------------------------------------------------------------------------

    async def create_token(
        self, user: str, scopes: list[str], description: str
    ) -> tuple[dict[str, Any], str] | None:
        """(the token's entry, the token), or None when the user holds MAX_TOKENS already."""
        token = TOKEN_PREFIX + secrets.token_urlsafe(32)
        digest = token_hash(token)
        entry = {
            "id": secrets.token_hex(6),
            "hash": digest,
            "scopes": scopes,
            "description": description,
            "created": int(time.time() * 1000),
        }
        owner = {"user": user.lower(), "id": entry["id"], "scopes": scopes}
        keys = [self.k("apitokens", user.lower()), self.k("apitoken", digest)]
        args = [MAX_TOKENS, entry["id"], json.dumps(entry), json.dumps(owner), ""]
        if not await self._add(keys=keys, args=args):
            return None
        return entry, token

    async def tokens(self, user: str) -> list[dict[str, Any]]:
        raw = await self.redis.hgetall(self.k("apitokens", user.lower()))
        entries = [json.loads(v) for v in raw.values()]
        return sorted(entries, key=lambda e: e["created"])

    async def revoke(self, user: str, token_id: str) -> bool:
        key = self.k("apitokens", user.lower())
        raw = await self.redis.hget(key, token_id)
        if raw is None:
            return False
        entry = json.loads(raw)
        await self.redis.delete(self.k("apitoken", entry["hash"]))
        return bool(await self.redis.hdel(key, token_id))

    async def owner(self, token: str) -> dict[str, Any] | None:
        """{user, id, scopes} of a live token, else None."""
        raw = await self.redis.get(self.k("apitoken", token_hash(token)))
        if raw is None:
            return None
        owner: dict[str, Any] = json.loads(raw)
        if not await self.redis.hexists(self.k("apitokens", owner["user"]), owner["id"]):
            return None  # revoked while the index key was being dropped
        return owner

    # -- challenges ---------------------------------------------------------------------------

    async def add_challenge(self, challenge: dict[str, Any]) -> str | None:
        """Store an open challenge for its recipient to answer; None, or the bound that
        refused it (nothing stored): ``challenger`` (it has made MAX_CHALLENGES open ones)
        or ``recipient`` (MAX_INCOMING wait for the recipient's answer)."""
        maker = challenge["challenger"]["id"]
        await self._prune(maker)
        keys = [
            self.k("challenges", maker),
            self.k("challenge", challenge["id"]),
            self.k("inbox", challenge["destUser"]["id"]),
        ]
        now = int(time.time() * 1_000_000)
        args = [
            MAX_CHALLENGES,
            challenge["id"],
            json.dumps(challenge),
            CHALLENGE_TTL,
            MAX_INCOMING,
            now,
        ]
        got = int(await self._add_challenge(keys=keys, args=args))
        return {1: None, -1: "challenger", -2: "recipient"}[got]

    async def challenge(self, challenge_id: str) -> dict[str, Any] | None:
        raw = await self.redis.get(self.k("challenge", challenge_id))
        return None if raw is None else dict(json.loads(raw))

    async def take_challenge(self, challenge: dict[str, Any]) -> bool:
        """Remove an open challenge; True for the one caller that removed it."""
        taken = await self.redis.delete(self.k("challenge", challenge["id"]))
        await self.redis.hdel(self.k("challenges", challenge["challenger"]["id"]), challenge["id"])
        await self.redis.zrem(self.k("inbox", challenge["destUser"]["id"]), challenge["id"])
        return bool(taken)

    async def incoming(
        self, user: str, *, after: float | None = None, count: int | None = None
    ) -> tuple[list[dict[str, Any]], float | None]:
        """Up to ``count`` open challenges made to ``user``, oldest first, made after
        ``after`` (the cursor of the page before); (them, the cursor for the next page, or
        None when there is none). The gone ones are forgotten here."""
        count = MAX_INCOMING if count is None else count
        key = self.k("inbox", user.lower())
        low = "-inf" if after is None else f"({after!r}"
        ids = await self.redis.zrangebyscore(key, low, "+inf", start=0, num=count, withscores=True)
        found = []
        for raw, _score in ids:
            challenge = await self.challenge(_s(raw))
            if challenge is None:
                await self.redis.zrem(key, raw)
            else:
                found.append(challenge)
        cursor = float(ids[-1][1]) if len(ids) == count else None
        return found, cursor

    async def _prune(self, maker: str) -> None:
        """Forget the maker's challenges that expired."""
        key = self.k("challenges", maker)
        ids = [_s(i) for i in await self.redis.hkeys(key)]
        for cid in ids:
            if not await self.redis.exists(self.k("challenge", cid)):
                await self.redis.hdel(key, cid)

    async def challenges_of(self, user: str) -> list[dict[str, Any]]:
        """Open challenges made by ``user``, oldest first."""
        await self._prune(user.lower())
        made = await self.redis.hgetall(self.k("challenges", user.lower()))
        ids = sorted(made, key=lambda cid: (int(made[cid]), _s(cid)))
        found = [await self.challenge(_s(cid)) for cid in ids]
        return [c for c in found if c is not None]

    # -- games --------------------------------------------------------------------------------

    async def add_game(self, room: str, seats: dict[str, dict[str, Any]]) -> None:
        pipe = self.redis.pipeline(transaction=False)
        key = self.k("apigame", room)
        for user, seat in seats.items():
            pipe.hset(key, user, json.dumps(seat))
            pipe.sadd(self.k("apigames", user), room)
            pipe.expire(self.k("apigames", user), GAME_TTL)
        pipe.expire(key, GAME_TTL)
        await pipe.execute()

    async def game_seats(self, room: str) -> dict[str, dict[str, Any]]:
        raw = await self.redis.hgetall(self.k("apigame", room))
        return {_s(k): json.loads(v) for k, v in raw.items()}

    async def games_of(self, user: str) -> list[str]:
        return sorted(_s(r) for r in await self.redis.smembers(self.k("apigames", user.lower())))

    async def end_game(self, room: str, users: list[str]) -> None:
        for user in users:
            await self.redis.srem(self.k("apigames", user), room)

    # -- presence -----------------------------------------------------------------------------

    async def mark_online(self, users: list[str], bots: list[str], until: float) -> None:
        """``users`` are online until ``until``, ``bots`` (some of them) online bots too;
        entries that lapsed before are dropped."""
        pipe = self.redis.pipeline(transaction=False)
        for key, members in (("online", users), ("onlinebots", bots)):
            if members:
                pipe.zadd(self.k(key), {m.lower(): until for m in members})
            pipe.zremrangebyscore(self.k(key), "-inf", f"({until - 2 * PRESENCE_TTL!r}")
        await pipe.execute()

    async def mark_offline(self, user: str, *, bot_only: bool = False) -> None:
        pipe = self.redis.pipeline(transaction=False)
        pipe.zrem(self.k("onlinebots"), user.lower())
        if not bot_only:
            pipe.zrem(self.k("online"), user.lower())
        await pipe.execute()

    async def online(self, users: list[str], now: float) -> list[bool]:
        """Whether each of ``users`` is online at ``now``."""
        if not users:
            return []
        until = await self.redis.zmscore(self.k("online"), [u.lower() for u in users])
        return [u is not None and float(u) > now for u in until]

    async def online_bots(self, now: float, count: int) -> list[str]:
        """Up to ``count`` bot accounts online at ``now``."""
        found = await self.redis.zrangebyscore(
            self.k("onlinebots"), f"({now!r}", "+inf", start=0, num=count
        )
        return [_s(b) for b in found]
