"""The repository explains itself: nothing in it points outside it, and every docs/*.md it
names exists."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
OUTSIDE = re.compile(r"\.\./shared|shared/(DESIGN|GAMES|STYLE)\.md|\bseeds/")
DOC = re.compile(r"docs/([A-Z][A-Za-z_]*\.md)")


def tracked() -> list[Path]:
    out = subprocess.run(["git", "ls-files"], cwd=ROOT, capture_output=True, text=True)
    files = [ROOT / f for f in out.stdout.split()] if out.returncode == 0 else []
    return [f for f in files if f.suffix in (".py", ".md", ".js", ".html", ".sh", ".yml", ".toml")]


def bad_refs(files: list[Path]) -> list[str]:
    found = []
    for path in files:
        if not path.is_file() or path == Path(__file__):
            continue
        text = path.read_text(errors="replace")
        for m in OUTSIDE.finditer(text):
            found.append(f"{path.relative_to(ROOT)}: {m.group(0)}")
        for m in DOC.finditer(text):
            if not (ROOT / "docs" / m.group(1)).is_file():
                found.append(f"{path.relative_to(ROOT)}: docs/{m.group(1)} does not exist")
    return found


def test_nothing_points_outside_the_repository() -> None:
    files = tracked()
    assert len(files) > 50
    assert bad_refs(files) == []


def test_the_check_can_fail(tmp_path: Path) -> None:
    bad = ROOT / "tests" / "_tmp_bad_ref.md"
    bad.write_text("see ../shared/DESIGN.md and docs/NOPE.md\n")
    try:
        assert len(bad_refs([bad])) == 2
    finally:
        bad.unlink()


def test_bots_md_lists_the_strengths_the_server_offers() -> None:
    """docs/BOTS.md's strength table is the server's (``server.bots.STRENGTHS``)."""
    from server.bots import STRENGTHS

    text = (ROOT / "docs" / "BOTS.md").read_text()
    rows = set(re.findall(r"^\| `(\w+)` \| `(\w+)` \| `(\w+)` \| ([\d.]+) s \|$", text, re.M))
    offered = {
        (game, name, alg, f"{t:g}")
        for game, table in STRENGTHS.items()
        for name, (alg, t) in table.items()
    }
    assert rows == offered
