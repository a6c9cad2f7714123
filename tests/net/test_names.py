"""Names, over real sockets: every door that takes a name, room id or token matches the whole
string (``"Ada\\n"`` is not ``Ada``), and a guest may not wear an account's name; seats and
chat say which kind a name is (server/net/services/names.py)."""

from __future__ import annotations

import re
import secrets
from pathlib import Path
from typing import Any

import pytest

from server.net.app import KibitzServer
from server.net.node.hub import ROOM_ID
from server.net.protocol.handlers import room_arg
from server.net.services import accounts
from server.net.transport.errors import ProtocolError
from server.sdk import KibitzClient, KibitzError

from .test_accounts import api, register_and_login
from .test_seeks import next_of, user

SERVER = Path(__file__).resolve().parents[2] / "server"
#: strings that a `re.match` with `$` took for a valid one: `$` also matches before a final
#: newline
TRAILING = ["\n", "\r\n", "\n\n", "\x00", " "]


async def code_of(c: KibitzClient, kind: str, **fields: Any) -> str:
    with pytest.raises(KibitzError) as err:
        await c.request(kind, **fields)
    return err.value.code


# -- item 13: whole strings only ---------------------------------------------------------------


def test_no_validator_in_server_matches_a_prefix() -> None:
    """No ``re.match`` / ``.match`` of a pattern anchored with ``$`` anywhere in server/:
    ``$`` also matches before a trailing newline. Validators use ``fullmatch``."""
    found = []
    for path in SERVER.rglob("*.py"):
        text = path.read_text()
        for m in re.finditer(r"""re\.compile\(r?b?["'][^"']*\$["']""", text):
            found.append(f"{path.relative_to(SERVER)}: {m.group(0)}")
        for m in re.finditer(r"""re\.match\([^)]*\$""", text):
            found.append(f"{path.relative_to(SERVER)}: {m.group(0)}")
    assert found == []


@pytest.mark.parametrize("tail", TRAILING)
def test_the_validators_take_whole_strings(tail: str) -> None:
    assert accounts.check_name("Bo80011") is None
    assert accounts.check_name("Bo80011" + tail) is not None
    assert ROOM_ID.fullmatch("e83KZCGS") and not ROOM_ID.fullmatch("e83KZCGS" + tail)
    with pytest.raises(ProtocolError) as err:
        room_arg({"room": "e83KZCGS" + tail})
    assert err.value.code == "no_such_room"


async def test_register_refuses_a_name_with_a_trailing_newline(server: KibitzServer) -> None:
    for tail in TRAILING:
        status, body, _ = await api(
            server, "POST", "/api/register", {"name": "Bo80011" + tail, "password": "pa55-w0rd!"}
        )
        assert status == 400 and "name" in body["message"], repr(tail)
    status, _, _ = await api(server, "GET", "/api/users/Bo80011")
    assert status == 404  # nothing was created under any spelling
    await register_and_login(server, "Bo80011")  # the name itself is free and fine
    status, body, _ = await api(server, "GET", "/api/users/Bo80011")
    assert status == 200 and body["name"] == "Bo80011"


async def test_login_refuses_a_name_with_a_trailing_newline(server: KibitzServer) -> None:
    """Even an account stored under such a name (made before the fix) cannot log in."""
    assert server.hub is not None
    store = server.accounts.store
    salt = secrets.token_bytes(16)
    digest = accounts.hash_password("pa55-w0rd!", salt)
    await store.create_user(
        "Zed\n", {"hash": digest.hex(), "salt": salt.hex(), "bot": "0", "created": "0"}
    )
    status, body, _ = await api(
        server, "POST", "/api/login", {"name": "Zed\n", "password": "pa55-w0rd!"}
    )
    assert (status, body["code"]) == (401, "bad_login")
    await register_and_login(server, "Amy")
    status, _, _ = await api(
        server, "POST", "/api/login", {"name": "Amy\n", "password": "pa55-w0rd!"}
    )
    assert status == 401


async def test_room_doors_refuse_an_id_with_a_trailing_newline(
    server: KibitzServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A room id is refused at the door, before the store is asked about it."""
    assert server.hub is not None
    c = await KibitzClient.connect(server.ws_url)
    room = (await c.request("create_room", game="chess"))["room"]
    asked: list[str] = []
    holders = server.hub.store.holders

    async def spy(ids: list[str]) -> Any:
        asked.extend(ids)
        return await holders(ids)

    monkeypatch.setattr(server.hub.store, "holders", spy)
    for kind, fields in [
        ("take_seat", {"name": "Gus"}),
        ("watch", {}),
        ("chat", {"text": "hi"}),
        ("record", {}),
        ("join", {"seat": 0, "token": "x" * 32}),
    ]:
        assert await code_of(c, kind, room=room + "\n", **fields) == "no_such_room", kind
    assert not [r for r in asked if r != room]
    # the id itself works
    assert (await c.request("take_seat", room=room, name="Gus"))["seat"] == 0
    await c.close()


async def test_seek_and_pool_doors_take_whole_strings(server: KibitzServer) -> None:
    a = await KibitzClient.connect(server.ws_url)
    b = await KibitzClient.connect(server.ws_url)
    seek = (await a.request("seek", game="chess", name="Gus"))["seek"]
    assert await code_of(b, "accept_seek", seek=seek + "\n") == "no_such_seek"
    assert await code_of(a, "cancel_seek", seek=seek + "\n") == "no_such_seek"
    # a guest's seek name is checked like a seat's: no control characters, in the middle
    # either (it would have failed only at pairing, the seek already taken)
    assert await code_of(a, "seek", game="chess", name="Gus\nX") == "bad_request"
    pool = await a.request("pool_join", game="chess", clock={"base": 180, "increment": 2})
    left = await a.request("pool_leave", pool=pool["pool"] + "\n")
    assert left["was_waiting"] is False
    assert (await a.request("pool_leave", pool=pool["pool"]))["was_waiting"] is True
    for c in (a, b):
        await c.close()


async def test_take_seat_and_chat_refuse_control_characters_in_names(
    server: KibitzServer,
) -> None:
    c = await KibitzClient.connect(server.ws_url)
    room = (await c.request("create_room", game="chess"))["room"]
    for name in ["Gus\n", "Gus\r\nX", "\u202eGus"]:
        assert await code_of(c, "take_seat", room=room, name=name) == "bad_request", name
    await c.request("take_seat", room=room, name="Gus")
    assert await code_of(c, "chat", room=room, text="hi\nthere") == "bad_request"
    await c.close()


# -- item 14: a guest may not wear an account's name ---------------------------------------------


async def test_a_guest_cannot_sit_under_an_accounts_name(server: KibitzServer) -> None:
    await register_and_login(server, "Ada")
    guest = await KibitzClient.connect(server.ws_url)
    room = (await guest.request("create_room", game="chess"))["room"]
    for name in ["Ada", "ada", "ADA", " Ada ", "\uff21\uff44\uff41"]:  # the last: full-width
        assert await code_of(guest, "take_seat", room=room, name=name) == "name_taken", name
    assert await code_of(guest, "seek", game="chess", name="ada") == "name_taken"
    clock = {"base": 180, "increment": 2}
    assert await code_of(guest, "pool_join", game="chess", clock=clock, name="Ada") == (
        "name_taken"
    )
    # a name no account has is fine, and the seat says it is a guest's
    await guest.request("take_seat", room=room, seat=1, name="Adam")
    ada = await user_in(server, "Ada")
    # a logged-in player sits under their account's name, whatever they send
    await ada.request("take_seat", room=room, seat=0, name="Somebody Else")
    update = await ada.wait_update(lambda m: m["status"] == "playing", room=room)
    assert update["seats"] == [
        {"kind": "person", "name": "Ada", "account": True},
        {"kind": "person", "name": "Adam", "account": False},
    ]
    for c in (ada, guest):
        await c.close()


async def user_in(server: KibitzServer, name: str) -> KibitzClient:
    """A second connection of an existing account, logged in."""
    _, body, _ = await api(server, "POST", "/api/login", {"name": name, "password": "pa55-w0rd!"})
    c = await KibitzClient.connect(server.ws_url, hello=False)
    c.welcome = await c.request("hello", protocol=2, auth=body["token"])
    return c


async def test_chat_says_whether_its_sender_is_an_account(server: KibitzServer) -> None:
    ada = await user(server, "Ada")
    guest = await KibitzClient.connect(server.ws_url)
    watcher = await KibitzClient.connect(server.ws_url)
    room = (await guest.request("create_room", game="chess"))["room"]
    await ada.request("take_seat", room=room, seat=0)
    await guest.request("take_seat", room=room, seat=1, name="Gus")
    await watcher.request("watch", room=room)
    await ada.request("chat", room=room, text="hello")
    got = await next_of(watcher, "chat")
    assert (got["from"], got["account"]) == ("Ada", True)
    await guest.request("chat", room=room, text="hi")
    got = await next_of(watcher, "chat")
    assert (got["from"], got["account"]) == ("Gus", False)
    await watcher.request("chat", room=room, text="watching")
    got = await next_of(watcher, "chat")
    assert got["from"].startswith("guest-") and got["account"] is False
    await watcher.request("chat_history", room=room)
    history = await next_of(watcher, "chat_history")
    assert [m["account"] for m in history["messages"]] == [True, False, False]
    for c in (ada, guest, watcher):
        await c.close()


async def test_guest_and_guest_dash_names_are_not_accounts(server: KibitzServer) -> None:
    """The names the server gives guests cannot be registered."""
    for name in ["Guest", "guest", "guest-1a2b3c", "GUEST-ab12cd"]:
        status, body, _ = await api(
            server, "POST", "/api/register", {"name": name, "password": "pa55-w0rd!"}
        )
        assert status == 400 and "guest" in body["message"], name
