"""No code under ``server/`` writes python-chess's move stack (issue 49 item 3): a board is
built through python-chess's public API (a copy, ``push``, ``pop``, ``clear_stack``), and a
game's history is kept beside it, in its state (``ChessState.moves``, ``DarkChessState.moves``).

A source scan: an assignment to a ``move_stack`` (or to python-chess's private ``_stack``)
attribute, an item or slice of it, an augmented one, a ``setattr`` naming it, or a call that
changes the list in place. Reading it (``len(board.move_stack)``) is no write.
"""

from __future__ import annotations

import ast
from pathlib import Path

SERVER = Path(__file__).resolve().parent.parent / "server"
#: python-chess's stacks: the public list of moves and its private list of board states
STACKS = ("move_stack", "_stack")
#: the list methods that change a list in place
MUTATORS = ("append", "extend", "insert", "pop", "clear", "remove", "reverse", "sort")


#: what writes one target (``x += 1``, ``x: int = 1``, ``for x in``, ``[... for x in]``, ``:=``)
ONE_TARGET = (ast.AugAssign, ast.AnnAssign, ast.For, ast.AsyncFor, ast.comprehension, ast.NamedExpr)


def _is_stack(node: ast.AST) -> bool:
    """``x.move_stack`` (or ``x._stack``), or an item or slice of it."""
    while isinstance(node, ast.Subscript):
        node = node.value
    return isinstance(node, ast.Attribute) and node.attr in STACKS


def _targets(node: ast.AST) -> list[ast.AST]:
    """The targets a statement (or comprehension, ``:=``, ``with ... as``) writes, tuples
    and starred ones unpacked."""
    found: list[ast.AST]
    if isinstance(node, ast.Assign | ast.Delete):
        found = list(node.targets)
    elif isinstance(node, ONE_TARGET):
        found = [node.target]
    elif isinstance(node, ast.withitem) and node.optional_vars is not None:
        found = [node.optional_vars]
    else:
        return []
    out: list[ast.AST] = []
    while found:
        target = found.pop()
        if isinstance(target, ast.Tuple | ast.List):
            found.extend(target.elts)
        elif isinstance(target, ast.Starred):
            found.append(target.value)
        else:
            out.append(target)
    return out


def _writes_in_place(call: ast.Call) -> bool:
    """``x.move_stack.append(m)`` and the like, or ``setattr(x, "move_stack", v)``."""
    func = call.func
    if isinstance(func, ast.Attribute) and func.attr in MUTATORS and _is_stack(func.value):
        return True
    names = [a.value for a in call.args[1:2] if isinstance(a, ast.Constant)]
    if not any(n in STACKS for n in names):
        return False
    if isinstance(func, ast.Name):
        return func.id in ("setattr", "delattr")
    return isinstance(func, ast.Attribute) and func.attr in ("__setattr__", "__delattr__")


def stack_writes(source: str, filename: str = "<source>") -> list[int]:
    """The lines of ``source`` that write a python-chess stack."""
    lines: list[int] = []
    for node in ast.walk(ast.parse(source, filename)):
        lines += [t.lineno for t in _targets(node) if _is_stack(t)]  # type: ignore[attr-defined]
        if isinstance(node, ast.Call) and _writes_in_place(node):
            lines.append(node.lineno)
    return sorted(set(lines))


def test_no_code_under_server_writes_a_move_stack() -> None:
    found = []
    files = sorted(SERVER.rglob("*.py"))
    assert len(files) > 50  # the scan sees the package
    for path in files:
        for line in stack_writes(path.read_text(encoding="utf-8"), str(path)):
            found.append(f"{path.relative_to(SERVER.parent)}:{line}")
    assert found == [], "python-chess's move stack written (keep the history in the state)"


PLANTED = """
import chess

def build(board: chess.Board, move: chess.Move, filler: list) -> None:
    board.move_stack = [*board.move_stack, move]
    board.move_stack += [move]
    other, board.move_stack = 1, filler
    board.move_stack[-1] = move
    board.move_stack[:] = filler
    board.move_stack.append(move)
    board._stack.pop()
    setattr(board, "move_stack", filler)
    object.__setattr__(board, "move_stack", filler)
    del board.move_stack[0]
    for board.move_stack in ([],):
        pass
"""

READS = """
import chess

def ply(board: chess.Board, stack: list) -> int:
    last = board.move_stack[-1] if board.move_stack else None
    moves = list(board.move_stack)
    stack.append(last)  # another list
    board.push(chess.Move.null())
    board.pop()
    board.clear_stack()
    copy = board.copy(stack=False)
    copy.stack = []  # not python-chess's
    return len(board.move_stack) + len(moves) + getattr(board, "move_stack", []).count(None)
"""


def test_the_scan_catches_a_planted_write() -> None:
    """The twin: every write planted in a file is found, on its own line; reads are not."""
    planted = stack_writes(PLANTED)
    expected = [i for i, line in enumerate(PLANTED.splitlines(), 1) if "stack" in line]
    assert planted == expected and len(planted) == 11
    assert stack_writes(READS) == []


def test_the_scan_catches_the_old_dark_chess_advance(tmp_path: Path) -> None:
    """What Dark Chess did before (``rules.advance``, ``placement._placed_state``), planted in
    a copy of its module, is caught by the same scan the server's files go through."""
    rules = (SERVER / "engine" / "dark_chess" / "rules.py").read_text(encoding="utf-8")
    assert stack_writes(rules) == []
    anchor = "    board.clear_stack()  # no history on the board: it is the state's\n"
    assert anchor in rules
    planted = rules.replace(anchor, anchor + "    board.move_stack = [*before.move_stack, move]\n")
    copy = tmp_path / "rules.py"
    copy.write_text(planted, encoding="utf-8")
    line = planted.splitlines().index("    board.move_stack = [*before.move_stack, move]") + 1
    assert stack_writes(copy.read_text(encoding="utf-8"), str(copy)) == [line]
