"""The shape of the web client's JavaScript (every ``web/**/*.js``, the boards of
``web/js/boards/`` too): formatted as Prettier writes it with ``web/.prettierrc.json``
(docs/ARCHITECTURE.md, "The web client"), never hand-packed.

Two rules a reader can check without Node:

* no line is over 100 columns (Prettier's ``printWidth``; it leaves a long string or comment
  alone, so those are wrapped by hand: ``"..." +`` on the next line);
* no line packs statements: every ``;`` ends its line (strings, template literals, regular
  expressions and comments aside), but for the two in a ``for (...;...;...)`` header. Prettier
  never writes ``{ a; b; }`` or ``a; b;`` on one line, so ``onclick: () => { this.x = !this.x;
  this.render(); }`` is what the rule turns away.

A line that truly cannot be wrapped may be listed in ``LONG_LINES`` with the reason; the list
can only shrink (a listed line that is no longer long fails too).
"""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
WEB = ROOT / "web"
MAX_COLUMNS = 100

#: lines allowed past MAX_COLUMNS: (file from the repository's root, its text stripped) ->
#: the reason. Empty: every line fits.
LONG_LINES: dict[tuple[str, str], str] = {}

#: after a `/`, these (the last code character before it) make it a regular expression
_REGEX_AFTER = set("(,=:[!&|?{};+-*%<>~^") | {""}
_FOR_HEADER = re.compile(r"\bfor(?:\s+await)?\s*\(")


def code_lines(text: str) -> list[str]:
    """The file's lines with what is not code blanked to spaces: the insides of strings,
    template literals (not their ``${...}``), regular expressions and comments."""
    out: list[str] = []
    line: list[str] = []
    stack: list[str] = []  # open template literals (`) and the braces inside their ${...}
    i, n = 0, len(text)
    state = "code"  # code | ' | " | ` | line | block | regex
    in_class = False
    last = ""  # the last code character that is not a space

    def put(ch: str) -> None:
        if ch == "\n":
            out.append("".join(line))
            line.clear()
        else:
            line.append(ch)

    while i < n:
        ch = text[i]
        nxt = text[i + 1] if i + 1 < n else ""
        if state == "code":
            if ch == "/" and nxt == "/":
                state = "line"
                put(" ")
            elif ch == "/" and nxt == "*":
                state = "block"
                put(" ")
            elif ch == "/" and last in _REGEX_AFTER:
                state, in_class = "regex", False
                put(ch)
            elif ch in "'\"`":
                state = ch
                put(ch)
            elif ch == "{" and stack:
                stack.append("{")
                put(ch)
            elif ch == "}" and stack and stack[-1] == "{":
                stack.pop()
                put(ch)
            elif ch == "}" and stack and stack[-1] == "${":
                stack.pop()
                state = "`"  # back inside the template literal
                put(ch)
            else:
                put(ch)
            if state == "code" and not ch.isspace():
                last = ch
            elif state != "code":
                last = "x"  # a value: a `/` after it divides
        elif state == "line":
            if ch == "\n":
                state = "code"
                put(ch)
            else:
                put(" ")
        elif state == "block":
            if ch == "*" and nxt == "/":
                put(" ")
                put(" ")
                i += 1
                state = "code"
            else:
                put(ch if ch == "\n" else " ")
        elif state == "regex":
            if ch == "\\":
                put(" ")
                put(" ")
                i += 1
            elif ch == "[":
                in_class = True
                put(" ")
            elif ch == "]":
                in_class = False
                put(" ")
            elif ch == "/" and not in_class:
                state = "code"
                put(ch)
            else:
                put(ch if ch == "\n" else " ")
        else:  # inside a string or a template literal
            if ch == "\\":
                put(" ")
                if nxt and nxt != "\n":
                    put(" ")
                    i += 1
            elif ch == state:
                state = "code"
                put(ch)
            elif state == "`" and ch == "$" and nxt == "{":
                stack.append("${")
                put(" ")
                put("{")
                i += 1
                state = "code"
                last = "{"
            else:
                put(ch if ch == "\n" else " ")
        i += 1
    out.append("".join(line))
    return out


def _blank_for_headers(code: str) -> str:
    """A code line with the insides of its ``for (...)`` headers blanked."""
    for m in reversed(list(_FOR_HEADER.finditer(code))):
        depth, j = 1, m.end()
        while j < len(code) and depth:
            depth += {"(": 1, ")": -1}.get(code[j], 0)
            j += 1
        code = code[: m.end()] + " " * (j - 1 - m.end()) + code[j - 1 :]
    return code


def packed_lines(text: str) -> list[int]:
    """The numbers (from 1) of the lines where a ``;`` has more code after it."""
    return [
        number
        for number, code in enumerate(code_lines(text), 1)
        if re.search(r";\s*\S", _blank_for_headers(code))
    ]


def long_lines(text: str) -> list[tuple[int, str]]:
    """The (number, stripped text) of the lines over MAX_COLUMNS characters."""
    return [
        (number, line.strip())
        for number, line in enumerate(text.splitlines(), 1)
        if len(line) > MAX_COLUMNS
    ]


def _files(root: Path) -> list[Path]:
    """Every ``.js`` file under ``root``, in its folders too (a ``node_modules`` aside: Prettier
    is installed outside the repository, but a stray one is not ours to check)."""
    return sorted(p for p in root.rglob("*.js") if "node_modules" not in p.relative_to(root).parts)


def shape_problems(root: Path, long_ok: dict[tuple[str, str], str] | None = None) -> list[str]:
    """What breaks the two rules in ``root/**/*.js``; a listed long line that is no longer there
    (or no longer long) is a problem too."""
    long_ok = {} if long_ok is None else long_ok
    problems = []
    seen = set()
    for path in _files(root):
        rel = path.relative_to(ROOT) if path.is_relative_to(ROOT) else path.relative_to(root)
        rel = rel.as_posix()
        text = path.read_text(encoding="utf-8")
        for number, stripped in long_lines(text):
            if (rel, stripped) in long_ok:
                seen.add((rel, stripped))
            else:
                problems.append(f"{rel}:{number}: over {MAX_COLUMNS} columns")
        problems += [
            f"{rel}:{number}: statements packed on one line" for number in packed_lines(text)
        ]
    problems += [
        f"{rel}: listed long line is gone: {line[:60]}" for rel, line in set(long_ok) - seen
    ]
    return problems


def test_web_js_is_not_packed():
    files = _files(WEB)
    assert WEB / "js" / "main.js" in files, "no web/js/*.js found"
    assert WEB / "js" / "boards" / "grid.js" in files, "web/js/boards/*.js is not checked"
    assert shape_problems(WEB, LONG_LINES) == []


def test_every_listed_long_line_has_a_reason():
    assert all(reason.strip() for reason in LONG_LINES.values())


PACKED = """\
export class Toggle {
  build() {
    this.button = h("button", { onclick: () => { this.on = !this.on; PACKED_ONCLICK } });
  }

  render() { this.button.textContent = this.on ? "On" : "Off"; }
}
"""
PACKED = PACKED.replace("PACKED_ONCLICK", 'storage.setPref("on", this.on); this.render();')

FORMATTED = """\
// comments may say a; b; and a string may hold "a; b" or `${a}; ${b}`
const PGN = /\\{[^};]*\\}/g; // a regular expression with a ; in it
export class Toggle {
  build() {
    this.button = h("button", {
      onclick: () => {
        this.on = !this.on;
        storage.setPref("on", this.on);
        this.render();
      },
    });
    for (let i = 0; i < 3; i++) this.tick(i);
    this.note = `${this.on ? "on; and" : "off"}; then ${[1, 2].map((n) => `${n};`).join("")}`;
  }
}
"""


def test_the_check_catches_a_packed_file(tmp_path):
    (tmp_path / "toggle.js").write_text(PACKED)
    problems = shape_problems(tmp_path)
    assert "toggle.js:3: over 100 columns" in problems
    assert "toggle.js:3: statements packed on one line" in problems
    assert "toggle.js:6: statements packed on one line" in problems  # `{ one; }` too
    assert len(problems) == 3


def test_the_check_passes_a_formatted_file(tmp_path):
    (tmp_path / "toggle.js").write_text(FORMATTED)
    assert shape_problems(tmp_path) == []


def test_a_listed_long_line_must_still_be_long(tmp_path):
    (tmp_path / "toggle.js").write_text(FORMATTED)
    gone = {("toggle.js", "const PATH = 'M0 0';"): "an SVG path"}
    assert shape_problems(tmp_path, gone) == [
        "toggle.js: listed long line is gone: const PATH = 'M0 0';"
    ]


def test_the_check_looks_into_folders(tmp_path):
    (tmp_path / "toggle.js").write_text(FORMATTED)
    (tmp_path / "js" / "boards").mkdir(parents=True)
    (tmp_path / "js" / "boards" / "toggle.js").write_text(PACKED)
    (tmp_path / "js" / "boards" / "formatted.js").write_text(FORMATTED)
    assert shape_problems(tmp_path) == [
        "js/boards/toggle.js:3: over 100 columns",
        "js/boards/toggle.js:3: statements packed on one line",
        "js/boards/toggle.js:6: statements packed on one line",
    ]


def test_a_listed_long_line_in_a_folder_is_named_by_its_path(tmp_path):
    (tmp_path / "boards").mkdir()
    (tmp_path / "boards" / "toggle.js").write_text(PACKED)
    line = next(stripped for _, stripped in long_lines(PACKED))
    assert shape_problems(tmp_path, {("boards/toggle.js", line): "planted"}) == [
        "boards/toggle.js:3: statements packed on one line",
        "boards/toggle.js:6: statements packed on one line",
    ]
