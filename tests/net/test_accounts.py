"""Accounts over real HTTP and WebSocket against a real redis-server."""

from __future__ import annotations

import asyncio
import json
import urllib.error
import urllib.request
from typing import Any

import pytest

from server.net.app import KibitzServer
from server.net.services import accounts
from server.sdk import KibitzClient


def call(
    server: KibitzServer,
    method: str,
    path: str,
    body: Any = None,
    headers: dict[str, str] | None = None,
) -> tuple[int, Any, dict[str, str]]:
    data = (
        None if body is None else (body if isinstance(body, bytes) else json.dumps(body).encode())
    )
    req = urllib.request.Request(server.url.rstrip("/") + path, data=data, method=method)
    req.add_header("Content-Type", "application/json")
    for k, v in (headers or {}).items():
        req.add_header(k, v)
    try:
        with urllib.request.urlopen(req, timeout=10) as resp:
            return resp.status, json.loads(resp.read()), dict(resp.headers)
    except urllib.error.HTTPError as err:
        return err.code, json.loads(err.read()), dict(err.headers)


async def api(server: KibitzServer, method: str, path: str, body: Any = None, **kw: Any) -> Any:
    return await asyncio.to_thread(call, server, method, path, body, kw.get("headers"))


async def register_and_login(server: KibitzServer, name: str) -> str:
    status, _, _ = await api(
        server, "POST", "/api/register", {"name": name, "password": "pa55-w0rd!"}
    )
    assert status == 201
    status, body, _ = await api(
        server, "POST", "/api/login", {"name": name, "password": "pa55-w0rd!"}
    )
    assert status == 200
    return str(body["token"])


async def test_register_login_logout(server: KibitzServer) -> None:
    status, body, _ = await api(
        server, "POST", "/api/register", {"name": "Ada_1", "password": "correct horse"}
    )
    assert (status, body) == (201, {"name": "Ada_1", "bot": False})
    status, body, _ = await api(
        server, "POST", "/api/register", {"name": "ada_1", "password": "another one!"}
    )
    assert status == 409 and body["code"] == "name_taken"
    status, body, headers = await api(
        server, "POST", "/api/login", {"name": "ADA_1", "password": "correct horse"}
    )
    assert status == 200 and body["name"] == "Ada_1" and len(body["token"]) > 30
    cookie = headers["Set-Cookie"]
    assert (
        f"kibitz_token={body['token']}" in cookie
        and "HttpOnly" in cookie
        and "SameSite=Lax" in cookie
    )
    token = body["token"]
    status, me, _ = await api(
        server, "GET", "/api/me", headers={"Authorization": f"Bearer {token}"}
    )
    assert (status, me) == (200, {"name": "Ada_1"})
    status, me, _ = await api(server, "GET", "/api/me", headers={"Cookie": f"kibitz_token={token}"})
    assert status == 200
    status, _, headers = await api(
        server, "POST", "/api/logout", headers={"Cookie": f"kibitz_token={token}"}
    )
    assert status == 200 and "Max-Age=0" in headers["Set-Cookie"]
    status, _, _ = await api(server, "GET", "/api/me", headers={"Authorization": f"Bearer {token}"})
    assert status == 401


async def test_password_is_stored_hashed(server: KibitzServer) -> None:
    await api(server, "POST", "/api/register", {"name": "Hashed", "password": "s3cret-s3cret"})
    assert server.hub is not None
    raw = await server.hub.store.redis.hgetall(server.config.prefix + "user:hashed")
    stored = b" ".join(raw.values())
    assert b"s3cret" not in stored and len(raw[b"hash"]) == 64 and len(raw[b"salt"]) == 32


async def test_invalid_names_and_weak_passwords(server: KibitzServer) -> None:
    for name in ["a", "x" * 21, "_lead", "sp ace", "émile", 5, None, "a/b"]:
        status, body, _ = await api(
            server, "POST", "/api/register", {"name": name, "password": "pa55-w0rd!"}
        )
        assert status == 400 and "name" in body["message"], name
    for password in ["short", "password", "aaaaaaaaaa", "Zed-Zed-99Zed", None, "x" * 201]:
        status, body, _ = await api(
            server, "POST", "/api/register", {"name": "Zed", "password": password}
        )
        assert status == 400 and "password" in body["message"], password
    status, body, _ = await api(server, "POST", "/api/register", b"not json")
    assert status == 400 and body["code"] == "bad_request"
    status, body, _ = await api(server, "POST", "/api/register", [1, 2])
    assert status == 400
    status, _, _ = await api(server, "GET", "/api/register")
    assert status == 405
    status, _, _ = await api(server, "GET", "/api/users/Zed")
    assert status == 404  # nothing was created


async def test_wrong_password_and_unknown_name_answer_alike(server: KibitzServer) -> None:
    await register_and_login(server, "Bob")
    wrong = await api(server, "POST", "/api/login", {"name": "Bob", "password": "wrong-password"})
    unknown = await api(
        server, "POST", "/api/login", {"name": "Nobody", "password": "wrong-password"}
    )
    assert wrong[0] == unknown[0] == 401
    assert wrong[1] == unknown[1]


async def test_login_flood_is_limited_per_name_then_per_address(server: KibitzServer) -> None:
    await register_and_login(server, "Carol")
    codes = [
        (await api(server, "POST", "/api/login", {"name": "Carol", "password": "guess-number"}))[0]
        for _ in range(accounts.FAILS_PER_NAME + 2)
    ]
    assert codes == [401] * accounts.FAILS_PER_NAME + [429, 429]
    # even the right password waits now
    ok = await api(server, "POST", "/api/login", {"name": "Carol", "password": "pa55-w0rd!"})
    assert ok[0] == 429
    # other names from the same address still work until the address's own limit
    await register_and_login(server, "Dave")
    for i in range(accounts.FAILS_PER_IP):
        await api(server, "POST", "/api/login", {"name": f"ghost{i}", "password": "guess-number"})
    blocked = await api(server, "POST", "/api/login", {"name": "Dave", "password": "pa55-w0rd!"})
    assert blocked[0] == 429


async def test_hello_with_token_cookie_and_bad_token(server: KibitzServer) -> None:
    token = await register_and_login(server, "Eve")
    c = await KibitzClient.connect(server.ws_url, hello=False)
    welcome = await c.request("hello", protocol=2, auth=token)
    assert welcome["user"] == "Eve"
    await c.close()
    c = await KibitzClient.connect(
        server.ws_url, additional_headers={"Cookie": f"kibitz_token={token}"}
    )
    assert c.welcome["user"] == "Eve"
    await c.close()
    c = await KibitzClient.connect(server.ws_url, hello=False)
    welcome = await c.request("hello", protocol=2, auth="not-a-real-token-at-all")
    assert welcome["user"] is None
    notice = await c.next_message()
    assert notice["type"] == "auth_failed"
    assert (await c.request("ping"))["type"] == "pong"  # carries on as a guest
    await c.close()
    c = await KibitzClient.connect(server.ws_url)
    assert c.welcome["user"] is None and not c.drain()
    await c.close()


async def test_profile_and_empty_history(server: KibitzServer) -> None:
    await register_and_login(server, "Fay")
    status, body, _ = await api(server, "GET", "/api/users/fay")
    assert (
        status == 200 and body["name"] == "Fay" and body["bot"] is False and body["ratings"] == {}
    )
    status, body, _ = await api(server, "GET", "/api/users/Fay/games?page=1")
    assert status == 200 and body["games"] == [] and body["total"] == 0
    status, body, _ = await api(server, "GET", "/api/users/Fay/games?page=zero")
    assert status == 400


async def test_bot_accounts_are_marked(server: KibitzServer) -> None:
    status, body, _ = await api(
        server,
        "POST",
        "/api/register",
        {"name": "Deep-Bot", "password": "bot pass 42", "bot": True},
    )
    assert status == 201 and body["bot"] is True
    status, profile, _ = await api(server, "GET", "/api/users/deep-bot")
    assert status == 200 and profile["bot"] is True
    status, _, _ = await api(
        server, "POST", "/api/register", {"name": "Bot2", "password": "bot pass 42", "bot": "yes"}
    )
    assert status == 400


async def test_registrations_per_address_are_limited(
    server: KibitzServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(accounts, "REGISTRATIONS_PER_IP", 2)
    codes = [
        (await api(server, "POST", "/api/register", {"name": f"New{i}", "password": "pa55-w0rd!"}))[
            0
        ]
        for i in range(3)
    ]
    assert codes == [201, 201, 429]
    status, _, _ = await api(server, "GET", "/api/users/New2")
    assert status == 404


async def test_account_posts_from_other_sites_are_refused(server: KibitzServer) -> None:
    body = {"name": "Mallory", "password": "pa55-w0rd!"}
    evil = {"Origin": "https://evil.example"}
    status, reply, _ = await api(server, "POST", "/api/register", body, headers=evil)
    assert status == 403 and reply["code"] == "forbidden"
    ours = {"Origin": server.url.rstrip("/")}
    status, _, _ = await api(server, "POST", "/api/register", body, headers=ours)
    assert status == 201
    status, _, _ = await api(server, "POST", "/api/login", body, headers=evil)
    assert status == 403
