"""Every registered game names a board the web client has, and every game on a grid of
squares is drawn by the one described board (no browser needed).

The client picks a game's board by ``info()["board"]`` from the table ``BOARDS`` in
``web/js/boards/index.js``; a game whose board is not there would be shown as a bare list of
its view. So a new game cannot ship without a board: this test reads the table. A game whose
view describes its board (``view["grid"]``, server/engine/grid.py) must be drawn from that
description — by the described board, not by a board written for it.
"""

from __future__ import annotations

import random
import re

from server.engine import REGISTRY

from ..conftest import ROOT

INDEX = ROOT / "web" / "js" / "boards" / "index.js"


def client_table(source: str) -> dict[str, str]:
    """The entries of ``const BOARDS = { ... };`` in the client's board index: key -> the
    text of its value, with a name the index defines (``DESCRIBED``) replaced by its value."""
    block = re.search(r"const BOARDS = \{(.*?)\n\};", source, re.S)
    assert block, "web/js/boards/index.js has no BOARDS table"
    names = dict(re.findall(r"^const ([A-Z_]+) = (\[.*?\]);", source, re.M))
    entries = re.findall(r"^\s*([A-Za-z_]\w*)\s*:\s*(.+?),?\s*$", block[1], re.M)
    return {key: names.get(value, value) for key, value in entries}


def client_boards(source: str) -> set[str]:
    """The keys of the client's table."""
    return set(client_table(source))


def described_games() -> set[str]:
    """The registered games whose views carry a board description."""
    out = set()
    for game in REGISTRY:
        state = game.new(game.check_options({}), game.min_seats, random.Random(0))
        if "grid" in game.view(state, None):
            out.add(game.name)
    return out


def not_described(source: str) -> dict[str, str]:
    """Games that describe their board but that the table gives another board: name ->
    the board's entry."""
    table = client_table(source)
    boards = {g.name: g.info()["board"] for g in REGISTRY}
    return {
        name: table.get(boards[name], "nothing")
        for name in sorted(described_games())
        if "createDescribedBoard" not in table.get(boards[name], "")
    }


def test_the_client_table_is_read() -> None:
    boards = client_boards(INDEX.read_text())
    assert {"grid", "chess", "apocalypse", "banqi", "track"} <= boards
    assert client_boards("const BOARDS = {\n  grid: [a, b],\n};") == {"grid"}


def test_every_registered_game_has_a_board_in_the_client() -> None:
    boards = client_boards(INDEX.read_text())
    missing = {g.name: g.info()["board"] for g in REGISTRY if g.info()["board"] not in boards}
    assert not missing, f"games whose board web/js/boards/index.js does not know: {missing}"


def test_every_game_on_a_grid_is_drawn_by_the_described_board() -> None:
    assert {"chess", "dark_chess", "banqi", "apocalypse", "jungle"} <= described_games()
    assert "hase_und_igel" not in described_games()  # its track: the one board of its own
    assert not_described(INDEX.read_text()) == {}


def test_a_board_written_for_one_game_is_caught() -> None:
    """The twin of the test above: a table that gives chess a board of its own fails it."""
    broken = INDEX.read_text().replace(
        "chess: DESCRIBED,", "chess: [createChessBoard, describeChessMove],"
    )
    assert broken != INDEX.read_text()
    assert not_described(broken) == {
        "chess": "[createChessBoard, describeChessMove]",
        "dark_chess": "[createChessBoard, describeChessMove]",
    }
