"""Sessions: what a browser's session secret holds (its seat tokens and watched rooms), so a
reconnecting client gets its seats back.

:class:`Sessions` stores and loads them. A session is stored only once it holds something;
one that holds a seat is kept for ``ttl`` seconds (days), one that only watches for an hour
at most.
"""

from __future__ import annotations

from ...store import Store
from ..transport.connection import Client


class Sessions:
    """Saving and loading a client's session."""

    def __init__(self, store: Store, ttl: int) -> None:
        self.store = store
        self.ttl = ttl

    async def save(self, client: Client) -> None:
        if client.session is None:
            return
        seats = {room: {str(s): t for s, t in held.items()} for room, held in client.seats.items()}
        data = {"seats": seats, "watching": sorted(client.watching)}
        # a session that holds a seat is kept for days; one that only watches, an hour
        ttl = self.ttl if any(client.seats.values()) else min(self.ttl, 3600)
        await self.store.save_session(client.session, data, ttl)

    async def load(self, client: Client, secret: str) -> bool:
        """Give ``client`` the seats and rooms of the session ``secret`` (False: none)."""
        data = await self.store.load_session(secret)
        if data is None:
            return False
        client.session = secret
        client.seats = {
            room: {int(s): t for s, t in held.items()}
            for room, held in data.get("seats", {}).items()
        }
        client.watching = set(data.get("watching", []))
        return True
