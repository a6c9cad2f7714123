"""The board contract's own checks (server/engine/grid.py): the gesture notation matches whole
strings, and every way a description can break the contract is caught with a reason."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from server.engine import grid
from server.engine.base import InvalidMove


def good() -> dict[str, Any]:
    return grid.describe(
        files=3,
        ranks=4,
        seats=[
            {"name": "South", "colour": "#aa0000", "edge": "south"},
            {"name": "North", "colour": "#0000aa", "edge": "north"},
        ],
        pieces={
            "a1": grid.piece(0, "rook", "Rook", "R"),
            "b4": grid.piece(None, "", "face-down piece", hidden=True),
        },
        terrain={"water": {"label": "Water", "fill": "#88ccee"}},
        cells={"b2": ["water"]},
        hands={1: [{"kind": "pawn", "label": "Pawn", "glyph": "P", "letter": "P", "count": 2}]},
        style="points",
        links=[("a1", "b2")],
        breaks=[("a2", "a3")],
        last=("a1", "a2"),
        marks={"c3": "next"},
        status="South to move",
    )


def test_gestures_match_whole_strings() -> None:
    assert grid.gesture("a1-a2") == grid.Gesture("move", "a1", "a2")
    assert grid.gesture("a1xb10") == grid.Gesture("move", "a1", "b10", capture=True)
    assert grid.gesture("a7-a8=Q") == grid.Gesture("move", "a7", "a8", choice="Q")
    assert grid.gesture("P*c3") == grid.Gesture("drop", None, "c3", letter="P")
    assert grid.gesture("c3") == grid.Gesture("act", "c3")
    assert grid.gesture("pass") == grid.Gesture("pass")
    assert grid.gesture("flip c3") == grid.Gesture("act", "c3")
    assert grid.gesture("e2e4") == grid.Gesture("move", "e2", "e4")
    assert grid.gesture("e7e8q") == grid.Gesture("move", "e7", "e8", choice="q")
    assert grid.gesture("a10a1") == grid.Gesture("move", "a10", "a1")
    for text in (
        "a1-a2 ",
        " a1-a2",
        "a1-a2\n",
        "pass!",
        "a0",
        "a27",
        "A1-a2",
        "a1--a2",
        "",
        "flip",
        "e2e4qq",
    ):
        assert grid.gesture(text) is None, text


def test_a_good_description_passes() -> None:
    grid.check(good(), 2)
    grid.check_gestures(good(), ["a1-a2", "a1xa4", "P*c1", "pass", "b2"])


BREAKS = [
    (lambda d: d.pop("status"), "exactly the keys"),
    (lambda d: d.update(files=27), "files"),
    (lambda d: d.update(style="hexes"), "style"),
    (lambda d: d["breaks"].append(["a1", "c3"]), "not neighbours"),
    (lambda d: d["links"].append(["a1"]), "pair"),
    (lambda d: d["cells"].update(d9=["water"]), "off the"),
    (lambda d: d["terrain"]["water"].update(fill="blue"), "#rrggbb"),
    (lambda d: d["seats"].pop(), "seats described"),
    (lambda d: d["seats"][0].update(edge="up"), "edge"),
    (lambda d: d["pieces"]["a1"].update(seat=2), "not a seat"),
    (lambda d: d["pieces"]["a1"].update(shape="star"), "shape"),
    (lambda d: d["pieces"]["b4"].update(kind="general"), "shows its kind"),
    (lambda d: d["pieces"]["a1"].update(label=""), "kind and a label"),
    (lambda d: d["hands"]["1"][0].update(count=0), "count > 0"),
    (lambda d: d["hands"].update({"5": []}), "not a seat"),
    (lambda d: d["last"].append("z1"), "last: .z1. is off"),
    (lambda d: d["marks"].update({"a 1": "x"}), "not a square"),
    (lambda d: d.update(shade=["a1"]), "exactly the keys"),
    (lambda d: d.update(fog=["d1"]), "off the"),
    (lambda d: d.update(arrows=[["a1", "a2"]]), "from, to, seat"),
    (lambda d: d.update(premoves={"a1": ["a9"]}), "off the"),
    (lambda d: d.update(palette={"light": "wood"}), "palette"),
    (lambda d: d.update(facts=[{"label": "Move"}]), "has a text"),
]


@pytest.mark.parametrize(("breaking", "reason"), BREAKS)
def test_each_broken_description_is_caught(breaking: Any, reason: str) -> None:
    desc = copy.deepcopy(good())
    breaking(desc)
    with pytest.raises(grid.BadBoard, match=reason):
        grid.check(desc, 2)


@pytest.mark.parametrize(
    ("legal", "reason"),
    [
        (["a1 a2"], "not in gesture notation"),
        (["c1-c2"], "empty square"),
        (["a1-d1"], "off the"),
        (["Q*c1"], "no 'Q' in any hand"),
    ],
)
def test_moves_that_are_no_gestures_on_the_board_are_caught(legal: list[str], reason: str) -> None:
    with pytest.raises(grid.BadBoard, match=reason):
        grid.check_gestures(good(), legal)


def test_squares_name_and_parse_every_square_of_a_board_and_nothing_else() -> None:
    squares = grid.Squares(9, 10)
    names = [squares.name(sq) for sq in range(90)]
    assert names[0] == "a1" and names[8] == "i1" and names[9] == "a2" and names[89] == "i10"
    assert [squares.parse(n) for n in names] == list(range(90))
    for bad in ("j1", "a11", "a0", "a01", "a1\n", " a1", "A1", "a", "", "a1-a2", None, 5):
        with pytest.raises(InvalidMove, match=r"is not a square \(a1\.\.i10\)"):
            squares.parse(bad)  # type: ignore[arg-type]
