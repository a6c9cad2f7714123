"""Durable storage: the room log on Redis, the lobby index, sessions, the embedded server."""

from .log import Fenced, Store, StoreError
from .redis_process import EmbeddedRedis, RedisStartError

__all__ = ["EmbeddedRedis", "Fenced", "RedisStartError", "Store", "StoreError"]
