"""Every registered game names a board the web client has (no browser needed).

The client picks a game's board by ``info()["board"]`` from the table ``BOARDS`` in
``web/js/boards/index.js``; a game whose board is not there would be shown as a bare list of
its view. So a new game cannot ship without a board: this test reads the table.
"""

from __future__ import annotations

import re

from server.engine import REGISTRY

from ..conftest import ROOT

INDEX = ROOT / "web" / "js" / "boards" / "index.js"


def client_boards(source: str) -> set[str]:
    """The keys of ``const BOARDS = { ... };`` in the client's board index."""
    block = re.search(r"const BOARDS = \{(.*?)\n\};", source, re.S)
    assert block, "web/js/boards/index.js has no BOARDS table"
    return set(re.findall(r"^\s*([A-Za-z_]\w*)\s*:", block[1], re.M))


def test_the_client_table_is_read() -> None:
    boards = client_boards(INDEX.read_text())
    assert {"grid", "chess", "apocalypse", "banqi", "track"} <= boards
    assert client_boards("const BOARDS = {\n  grid: [a, b],\n};") == {"grid"}


def test_every_registered_game_has_a_board_in_the_client() -> None:
    boards = client_boards(INDEX.read_text())
    missing = {g.name: g.info()["board"] for g in REGISTRY if g.info()["board"] not in boards}
    assert not missing, f"games whose board web/js/boards/index.js does not know: {missing}"
