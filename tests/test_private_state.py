"""No line of ``server/`` uses a library's private state.

An AST scan of every file of ``server/`` fails on

* an attribute ``x._name`` (or ``getattr(x, "_name")``) where ``_name`` is defined nowhere
  in ``server/``: our own private names are ours to use, a library's are not (the few
  underscore names a library documents, like ``os._exit``, are listed);
* any assignment to ``__class__`` (swapping a library object's class);
* the undocumented internals of websockets' and asyncio's connections the server once read
  (a protocol's ``reader`` and ``parser``, a reader's ``buffer``, a connection's
  ``connection_lost_waiter``, ``request_rcvd``, ``process_event``), whoever defines a name
  like them.

A broken twin — the same check over a snippet doing each of those — fails naming each.
"""

from __future__ import annotations

import ast
import functools
from collections.abc import Iterable
from pathlib import Path

SERVER = Path(__file__).resolve().parent.parent / "server"

#: underscore names libraries document as public
DOCUMENTED = {
    "_exit": "os._exit",
    "_replace": "namedtuple._replace",
    "_asdict": "namedtuple._asdict",
    "_fields": "namedtuple._fields",
    "_make": "namedtuple._make",
}
#: attribute chains (outermost last) that reach into a library's connection
INTERNALS = {
    ("reader", "buffer"): "a StreamReader's buffer",
    ("protocol", "reader"): "websockets' protocol reader",
    ("protocol", "parser"): "websockets' protocol parser",
    ("connection_lost_waiter",): "websockets' connection_lost_waiter",
    ("request_rcvd",): "websockets' request_rcvd",
    ("process_event",): "websockets' process_event",
}


def _private(name: str) -> bool:
    return name.startswith("_") and not (name.startswith("__") and name.endswith("__"))


def defined_names(trees: Iterable[ast.AST]) -> set[str]:
    """Every name the code defines: functions, classes, parameters, assigned names and
    attributes, imports, ``__slots__`` entries."""
    out: set[str] = set()
    for tree in trees:
        for node in ast.walk(tree):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
                out.add(node.name)
            elif isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
                out.add(node.id)
            elif isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Store):
                out.add(node.attr)
            elif isinstance(node, ast.arg):
                out.add(node.arg)
            elif isinstance(node, ast.alias):
                out.add(node.asname or node.name.split(".")[-1])
            elif isinstance(node, ast.Assign) and any(
                isinstance(t, ast.Name) and t.id == "__slots__" for t in node.targets
            ):
                out |= {
                    c.value
                    for c in ast.walk(node.value)
                    if isinstance(c, ast.Constant) and isinstance(c.value, str)
                }
    return out


def _chain(node: ast.Attribute) -> list[str]:
    """``a.b.c`` -> ["a", "b", "c"] (outermost last; the base when it is a name)."""
    names = [node.attr]
    value = node.value
    while isinstance(value, ast.Attribute):
        names.insert(0, value.attr)
        value = value.value
    if isinstance(value, ast.Name):
        names.insert(0, value.id)
    return names


def violations(files: dict[str, str], defined: set[str]) -> list[str]:
    """What in ``files`` (name -> source) uses a library's private state."""
    found = []
    for name, source in sorted(files.items()):
        for node in ast.walk(ast.parse(source)):
            where = f"{name}:{getattr(node, 'lineno', '?')}"
            if isinstance(node, ast.Attribute):
                attr = node.attr
                if _private(attr) and attr not in defined and attr not in DOCUMENTED:
                    found.append(
                        f"{where}: {ast.unparse(node)}: {attr} is a library's private name"
                    )
                chain = _chain(node)
                for suffix, what in INTERNALS.items():
                    if tuple(chain[-len(suffix) :]) == suffix:
                        found.append(f"{where}: {ast.unparse(node)}: {what} (undocumented)")
            targets: list[ast.expr] = []
            if isinstance(node, ast.Assign):
                targets = node.targets
            elif isinstance(node, ast.AugAssign | ast.AnnAssign):
                targets = [node.target]
            for target in targets:
                if isinstance(target, ast.Attribute) and target.attr == "__class__":
                    found.append(f"{where}: {ast.unparse(target)} = ...: a class swap")
            if (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Name | ast.Attribute)
                and (getattr(node.func, "id", None) or getattr(node.func, "attr", None))
                in ("getattr", "setattr", "hasattr", "__setattr__")
            ):
                for arg in node.args[1:2]:
                    if isinstance(arg, ast.Constant) and isinstance(arg.value, str):
                        key = arg.value
                        text = ast.unparse(node)
                        if key == "__class__" and getattr(node.func, "id", "") != "getattr":
                            found.append(f"{where}: {text}: a class swap")
                        elif _private(key) and key not in defined and key not in DOCUMENTED:
                            found.append(f"{where}: {text}: {key} is a library's private name")
    return found


@functools.cache
def scanned() -> tuple[dict[str, str], set[str]]:
    """``server/``'s files (name -> source) and the names they define."""
    files = {str(p.relative_to(SERVER.parent)): p.read_text() for p in sorted(SERVER.rglob("*.py"))}
    return files, defined_names(ast.parse(source) for source in files.values())


def test_no_line_of_server_uses_a_librarys_private_state() -> None:
    files, defined = scanned()
    assert violations(files, defined) == []


BROKEN = """\
def read_body(conn):
    return bytes(conn.protocol.reader.buffer)

def read_head(protocol):
    reader = protocol.reader
    return reader.buffer

def swap(protocol, X):
    protocol.__class__ = X
    setattr(protocol, "__class__", X)

def peek(ws):
    ws.connection_lost_waiter.done()
    return ws._kibitz_never_defined_this
"""


def test_the_check_catches_a_broken_twin() -> None:
    _, defined = scanned()
    found = violations({"twin.py": BROKEN}, defined)
    text = "\n".join(found)
    for expected in (
        "conn.protocol.reader.buffer: a StreamReader's buffer",
        "conn.protocol.reader: websockets' protocol reader",
        "twin.py:5: protocol.reader: websockets' protocol reader",
        "twin.py:6: reader.buffer: a StreamReader's buffer",
        "protocol.__class__ = ...: a class swap",
        "setattr(protocol, '__class__', X): a class swap",
        "ws.connection_lost_waiter: websockets' connection_lost_waiter",
        "ws._kibitz_never_defined_this: _kibitz_never_defined_this is a library's private",
    ):
        assert expected in text, (expected, found)
    assert len(found) == 8, found
    # and the server's own private names are fine where the twin's are not
    assert violations({"ours.py": "def f(c):\n    return c._flush()\n"}, defined) == []
