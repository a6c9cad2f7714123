"""The one table of message types (``server/net/protocol/messages.py``): every handler written is in
it, every type in it is documented, and a type not in it is refused."""

from __future__ import annotations

import inspect
import re
from collections.abc import Mapping
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from server.net.protocol import handlers, lobby_handlers, seek_handlers, social
from server.net.protocol.handlers import Handler, Handlers
from server.net.protocol.messages import MESSAGES
from server.net.transport.errors import ProtocolError

PROTOCOL = (Path(__file__).resolve().parents[2] / "docs" / "PROTOCOL.md").read_text()
MODULES = (handlers, lobby_handlers, seek_handlers, social)
HANDLER_ARGS = ["h", "client", "msg"]


def unlisted(modules: tuple[ModuleType, ...], table: Mapping[str, Handler]) -> list[str]:
    """The handlers (public coroutine functions of exactly ``(h, client, msg)``) of ``modules`` that
    no message type of ``table`` leads to: written, but never answered."""
    listed = {id(fn) for fn in table.values()}
    out = []
    for module in modules:
        for name, fn in vars(module).items():
            if not inspect.iscoroutinefunction(fn) or fn.__module__ != module.__name__:
                continue
            if name.startswith("_") or list(inspect.signature(fn).parameters) != HANDLER_ARGS:
                continue
            if id(fn) not in listed:
                out.append(f"{module.__name__}.{name}")
    return out


def test_every_handler_is_in_the_table() -> None:
    assert unlisted(MODULES, MESSAGES) == []


def test_a_handler_left_out_of_the_table_is_found() -> None:
    broken = {k: v for k, v in MESSAGES.items() if k != "chat"}
    assert unlisted(MODULES, broken) == ["server.net.protocol.social.chat"]


def test_every_message_type_is_documented() -> None:
    missing = [t for t in MESSAGES if not re.search(rf"`{t}`|\"type\": \"{t}\"", PROTOCOL)]
    assert missing == []


class Greeted:
    greeted = True


async def test_a_type_not_in_the_table_is_refused() -> None:
    async def answer(h: Handlers, client: Any, msg: dict[str, Any]) -> dict[str, Any]:
        return {"type": "answered"}

    h = Handlers(None, {"only": answer}, bots=False)  # type: ignore[arg-type]
    assert await h.dispatch(Greeted(), {"type": "only"}) == {"type": "answered"}  # type: ignore[arg-type]
    with pytest.raises(ProtocolError) as caught:
        h.dispatch(Greeted(), {"type": "hello"})  # type: ignore[arg-type]
    assert caught.value.code == "unknown_type"
