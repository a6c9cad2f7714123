"""Durable storage: the room log on Redis, the lobby index, sessions, the embedded server."""

from .log import Fenced, NotHost, Store, StoreError, Unknown, Unreplicated
from .redis_process import EmbeddedRedis, RedisStartError

__all__ = [
    "EmbeddedRedis",
    "Fenced",
    "NotHost",
    "RedisStartError",
    "Store",
    "StoreError",
    "Unknown",
    "Unreplicated",
]
