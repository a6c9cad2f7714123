"""The no-leak harness over the Bot and Board API: two true worlds a seat cannot tell apart
must send that seat's game stream the same lines.

As :mod:`.harness` does over the WebSocket, :func:`observe_api` starts a real server whose
game begins at a given true state (a fixed clock, a deterministic secret maker), and runs
one fixed script over real HTTP: a bot account (seat 0, ``white``) challenges a person
(seat 1), who accepts; the observed seat's stream — the bot stream for seat 0, the board
stream for seat 1 — is read from its ``gameFull`` on; the observed seat's refused moves
(out of turn, illegal, unparsable) are answered; then the given turns are played by both
seats, each over its own route, the stream read after each. :func:`assert_no_leak_api`
runs it in both worlds and fails unless every line of the stream and every answer is the
same. The turns are the test's to choose so that the worlds stay indistinguishable to the
seat after each (:func:`quiet_turns`): the other seat's moves may differ between them.
"""

from __future__ import annotations

import asyncio
import itertools
import json
import random
from collections.abc import Iterator, Sequence
from typing import Any
from urllib.parse import quote

from server.engine import Game, Registry, turn_rng
from server.net.app import KibitzServer

from ..net.botapi_helpers import Reader, api_token, post, raw_stream
from ..net.test_accounts import register_and_login
from .harness import rigged_config

#: moves the observed seat tries that must be refused alike in both worlds
PROBES = ("zz", "a1a1", "e2e4", "flip_a1", "a1-a2", "e7e8q")


def indistinguishable(game: Game[Any, Any], a: Any, b: Any, seat: int) -> bool:
    return (
        game.view(a, seat) == game.view(b, seat)
        and game.legal_texts(a, seat) == game.legal_texts(b, seat)
        and game.to_act(a) == game.to_act(b)
        and (game.outcome(a) is None) == (game.outcome(b) is None)
    )


def quiet_turns(
    game: Game[Any, Any], a: Any, b: Any, seat: int, count: int, rng: random.Random
) -> list[tuple[int, str, str]]:
    """Up to ``count`` turns (one mover each: ``(mover, text in A, text in B)``) after each
    of which the worlds are still the same to ``seat`` and the game runs on. The seat's own
    moves are one text in both worlds (it knows the same); the other seat's may differ —
    preferably do (an unseen move in Dark Chess), so that a stream telling it is caught."""
    turns: list[tuple[int, str, str]] = []
    for ply in range(count):
        acting = sorted(game.to_act(a))
        if len(acting) != 1 or game.to_act(b) != game.to_act(a):
            break
        mover = acting[0]
        texts_a, texts_b = game.legal_texts(a, mover), game.legal_texts(b, mover)
        same = [(t, t) for t in texts_a if t in set(texts_b)]
        differing = [(x, y) for x in texts_a for y in texts_b if x != y and mover != seat]
        rng.shuffle(same)
        rng.shuffle(differing)
        for text_a, text_b in differing[:300] + same:
            next_a = game.play(a, {mover: game.parse_move(a, mover, text_a)}, turn_rng("q", ply))
            next_b = game.play(b, {mover: game.parse_move(b, mover, text_b)}, turn_rng("q", ply))
            if game.outcome(next_a) is None and indistinguishable(game, next_a, next_b, seat):
                a, b = next_a, next_b
                turns.append((mover, text_a, text_b))
                break
        else:
            break
    return turns


def stream_lines(server: KibitzServer, path: str, token: str) -> Reader:
    def lines() -> Iterator[dict[str, Any]]:
        response = raw_stream(server, path, token)
        assert response.status_code == 200, response.content
        for line in response.iter_lines():
            if line:  # keep-alives come by the clock: not compared
                yield json.loads(line)

    return Reader(lines)


async def observe_api(
    game: Game[Any, Any],
    state: Any,
    seat: int,
    turns: Sequence[tuple[int, str]],
    redis_url: str,
    base_registry: Registry,
) -> list[str]:
    """Run the script on a server whose game starts at ``state``; every line the observed
    seat's stream sent and every answer it had, as text (the game's id written ``ID``)."""
    config = rigged_config(game, state, redis_url, base_registry, "apileak")
    seen: list[Any] = []
    async with KibitzServer(config) as srv:
        ann = await api_token(srv, await register_and_login(srv, "Ann"), ["bot:play"])
        status, _ = await post(srv, "/api/bot/account/upgrade", ann)
        assert status == 200
        bea = await api_token(
            srv, await register_and_login(srv, "Bea"), ["board:play", "challenge:write"]
        )
        tokens, kinds = (ann, bea), ("bot", "board")
        fields = {"variant": game.name, "color": "white"}
        status, made = await post(srv, "/api/challenge/Bea", ann, fields)
        assert status == 200, made
        game_id = made["id"]
        status, body = await post(srv, f"/api/challenge/{game_id}/accept", bea)
        assert status == 200, body
        base = f"/api/{kinds[seat]}/game"
        reader = stream_lines(srv, f"{base}/stream/{game_id}", tokens[seat])
        full = await reader.next()
        seen.append(full)
        legal = set(game.legal_texts(state, seat))  # the same in both worlds
        for probe in PROBES:  # refused alike (a probe the seat may play is left out)
            if probe.replace("_", " ") in legal:
                continue
            seen.append(await post(srv, f"{base}/{game_id}/move/{probe}", tokens[seat]))
        for played, (mover, text) in enumerate(turns, 1):
            path = f"/api/{kinds[mover]}/game/{game_id}/move/{quote(text, safe='')}"
            status, body = await post(srv, path, tokens[mover])
            assert status == 200, (text, body)
            while True:  # every line up to the state after this turn
                line = await reader.next()
                seen.append(line)
                if line["type"] == "gameState" and len(line["moves"].split()) == played:
                    break
        seen.append(await post(srv, f"{base}/{game_id}/chat", tokens[seat], {"text": "hi"}))
        while True:
            seen.append(await reader.next())
            if seen[-1]["type"] == "chatLine":
                break
    return [json.dumps(item, sort_keys=True).replace(game_id, "ID") for item in seen]


async def assert_no_leak_api(
    game: Game[Any, Any],
    state_a: Any,
    state_b: Any,
    seat: int,
    turns: Sequence[tuple[int, str, str]],
    redis_url: str,
    registry: Registry,
) -> int:
    """Fail unless both worlds send the seat's stream the same lines (and the same answers),
    with ``turns`` (:func:`quiet_turns`) played. Returns the number of lines compared."""
    turns_a = [(mover, text) for mover, text, _ in turns]
    turns_b = [(mover, text) for mover, _, text in turns]
    seen_a = await observe_api(game, state_a, seat, turns_a, redis_url, registry)
    seen_b = await observe_api(game, state_b, seat, turns_b, redis_url, registry)
    for i, (line_a, line_b) in enumerate(itertools.zip_longest(seen_a, seen_b)):
        if line_a != line_b:
            raise AssertionError(
                f"the seat's stream can tell the worlds apart: line {i} differs\n"
                f" A: {line_a}\n B: {line_b}"
            )
    assert len(seen_a) >= 4 + len(turns), seen_a  # the script ran
    return len(seen_a)


def run(coro: Any) -> Any:
    return asyncio.run(coro)
