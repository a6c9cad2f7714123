"""Whose name is it: account names and guest names (docs/PROTOCOL.md "Seats", "Chat").

A logged-in player sits, seeks and chats under their account's name; a guest chooses a
display name. A guest's name may not be an account's: :func:`guest_name` refuses any name
that equals a registered name case-insensitively, after Unicode compatibility folding (so
neither ``ada`` nor a full-width ``Ada`` passes for ``Ada``). Seats and chat messages also
say which kind a name is (``"account": true``), so a name chosen before the account was
registered still cannot pass for it.
"""

from __future__ import annotations

import functools
import hashlib
import unicodedata
from typing import Any

from ...rooms.values import check_name
from ...store.accounts import AccountStore
from ..transport.connection import Client
from ..transport.errors import ProtocolError
from .accounts import NAME


def folded(name: str) -> str:
    """``name`` as account names are compared: NFKC, case-folded."""
    return unicodedata.normalize("NFKC", name).casefold()


async def guest_name(store: AccountStore, name: Any) -> str:
    """A guest's display name, checked: printable, 1 to 32 characters once trimmed, and not
    an account's name (``name_taken``)."""
    shown = check_name(name)  # bad_request: empty, too long, control characters
    key = folded(shown)
    # account names are ASCII letters, digits, '_' and '-': only such a folding can be one
    if NAME.fullmatch(key) and await store.user(key) is not None:
        raise ProtocolError(
            "name_taken", f"{shown!r} is a registered player's name: log in, or choose another"
        )
    return shown


def player_key(client: Client) -> str:
    """Who a player is to seeks and pools: ``user:{name}`` logged in, else ``guest:{digest
    of the session}`` (the browser keeps its session: a durable guest identity)."""
    if client.user:
        return f"user:{client.user.lower()}"
    return _guest_key(client.session or "")


@functools.lru_cache(maxsize=65_536)
def _guest_key(session: str) -> str:
    """A guest's key: a digest of its session (the sweep asks for every connection's key
    twice a second; hashed once per session, not per connection and sweep)."""
    return f"guest:{hashlib.sha256(session.encode()).hexdigest()[:16]}"
