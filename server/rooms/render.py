"""What a room shows: one rendering per recipient, built only from ``game.view``.

Every message a room sends is rendered here from its table
(:class:`~server.rooms.table.Table`) — a full ``update`` (snapshot) for a recipient that
joins, resyncs or asked for snapshots, and a ``delta`` (:mod:`server.rooms.delta`) against
what that recipient was last shown, for everyone who is live — and so are the lobby's
summary, the record and a seat's history. Nothing here changes the game: each function reads
the table it is handed. :class:`Renderer`, the part of a room that renders, keeps what the
renderings reuse: the views of the current state and what each recipient was shown last.

Recipients are seats (``0..n_seats-1``) and ``None``, the spectators.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from ..engine import turn_rng
from . import delta
from .errors import NotFinished
from .table import Table
from .values import Event

Json = dict[str, Any]
Recipient = int | None  # a seat, or None for spectators

#: how many missed events a resync re-renders one by one before it sends just the state
RESYNC_EVENT_LIMIT = 200

#: one recipient's messages for one change: (recipient, delta or None, full update)
Change = tuple[Recipient, Json | None, Json]

#: the keys of a snapshot that differ between recipients (:meth:`Renderer.snapshot`); the
#: others are :meth:`Renderer.common`'s, the same for everybody
_OWN = ("you", "view", "turn", "legal", "your_move")

#: the keys of :meth:`Renderer.common`'s part, in order
_COMMON = (
    "room",
    "game",
    "version",
    "status",
    "you",
    "seats",
    "to_act",
    "sealed",
    "view",
    "turn",
    "clock",
    "settings",
    "at",
    "outcome",
    "undo",
    "draw_offer",
    "rematch",
    "rated",
)
#: the keys every recipient's snapshot shares
_SHARED = tuple(k for k in _COMMON if k not in _OWN)

#: endings the room decides, not the engine: the status line of a described board (the
#: engine's, "White to move") is replaced by the result (:func:`ended_view`)
ROOM_ENDINGS = frozenset({"resignation", "timeout", "agreement", "aborted"})

#: the events whose rendering depends on the recipient (:func:`render_event`)
_PERSONAL = frozenset({"sealed", "rematch"})


def recipients(t: Table) -> list[Recipient]:
    return [*range(t.n_seats), None]


def render_event(t: Table, event: Event, r: Recipient) -> Json:
    """What ``r`` may learn from ``event`` itself: public facts only (who, not what).

    What a move changed reaches ``r`` through ``game.view`` in the same message.
    """
    d = event.data
    k = event.kind
    if k == "seat":
        return {"kind": "seat", "seat": d["seat"], "holder": t.seats[d["seat"]].public()}
    if k == "sealed":
        out: Json = {"kind": "sealed", "seat": d["seat"]}
        if r == d["seat"]:
            out["move"] = d["move"]
        return out
    if k == "move":
        return {"kind": "move", "seats": sorted(map(int, d["moves"]))}
    if k in ("unseat", "undo_request", "berserk"):
        return {"kind": k, "seat": d["seat"]}
    if k == "undo_answer":
        return {"kind": k, "seat": d["seat"], "accept": d["accept"]}
    if k == "undo":
        return {"kind": "undo", "turn": d["to_turn"]}
    if k == "resign":
        return {"kind": "resign", "seat": d["seat"], "reason": d["reason"]}
    if k == "timeout":
        return {"kind": "timeout", "seat": d["seat"]}
    if k == "abort" and "reason" in d:  # the first move did not come in time
        return {"kind": k, "seat": d["seat"], "reason": d["reason"]}
    if k in ("draw_offer", "abort", "rematch_offer", "rematch_declined"):
        return {"kind": k, "seat": d["seat"]}
    if k == "ratings":
        return {"kind": k, "changes": d["changes"]}
    if k == "draw_answer":
        return {"kind": k, "seat": d["seat"], "accept": d["accept"]}
    if k == "draw":
        return {"kind": "draw", "reason": d["reason"]}
    if k == "rematch":
        return rematch_notice(t, d, r, kind="rematch")
    return {"kind": k}


def rematch_notice(t: Table, d: Mapping[str, Any], r: Recipient, *, kind: str) -> Json:
    """The agreed rematch as ``r`` may know it: a person seated here gets their seat in
    the new room and its token; everybody else (spectators, bots' seats) the room."""
    out: Json = {"kind": kind, "new_room": d["new_room"]}
    token = d["tokens"].get(str(r)) if r is not None else None
    if token is not None and r is not None:
        out["seat"] = t.offers.rematch_seat(r)
        out["token"] = token
    return out


def delayed(t: Table) -> bool:
    """Spectators see the game late now (a delay is set and the game is not over)."""
    return bool(t.policy.spectator_delay) and t.outcome is None


def public_turns(t: Table) -> int:
    """How many turns anybody who is not seated may know of: all of them, or with a
    spectator delay, ``spectator_delay`` fewer while the game runs."""
    if not delayed(t):
        return len(t.turns)
    return max(0, len(t.turns) - t.policy.spectator_delay)


def history(t: Table, r: Recipient) -> Json:
    """What ``r`` was shown after every turn so far — the seat's views, or a spectator's,
    as late as the spectator delay lets them see — rebuilt from the seed and the turns (the
    current line: taken-back turns are gone). The same views the room sent live, so a late
    spectator or a replay can step through them."""
    shown = len(t.turns) if r is not None else public_turns(t)
    game = t.game
    state = game.new(t.options, t.n_seats, turn_rng(t.seed, 0))
    out = [{"turn": 0, "view": _view_then(t, state, r, 0)}]
    for i, turn in enumerate(t.turns[:shown], 1):
        moves = {int(s): game.parse_move(state, int(s), m) for s, m in turn.played}
        state = game.play(state, moves, turn_rng(t.seed, i), check=False)
        out.append({"turn": i, "view": _view_then(t, state, r, i)})
    return {"turns": out}


def _view_then(t: Table, state: Any, r: Recipient, turn: int) -> Json:
    """:meth:`Renderer.view_for` of an earlier ``state`` (after ``turn`` turns)."""
    if r is not None or not t.policy.spectator_delay:
        return t.game.view(state, r)
    out: Json = {"delayed": t.policy.spectator_delay, "turn": turn}
    see_all = t.policy.spectators_see_all or not t.game.hidden_information
    if see_all or not delayed(t):
        out["seats"] = [t.game.view(state, s) for s in range(t.n_seats)]
    else:
        out["public"] = t.game.view(state, None)
    return out


def ended_status(t: Table, names: Sequence[str]) -> str | None:
    """The status line of a game the room ended (a resignation, a flag, an agreed draw, an
    abort), with the seats' ``names`` as the board calls them; None: the engine's stands."""
    o = t.outcome
    if o is None or o.reason not in ROOM_ENDINGS or len(names) != t.n_seats:
        return None
    if o.reason == "aborted":
        return "Game aborted — no result"
    if o.reason == "agreement":
        return "Draw by agreement"
    winner = o.winner
    if winner is None:
        return "Draw — time ran out" if o.reason == "timeout" else "Draw"
    losers = [names[s] for s, r in enumerate(o.ranks) if r != 1]
    lost = " and ".join(losers)
    did = "resigned" if o.reason == "resignation" else "ran out of time"
    if len(losers) != 1:
        return f"{names[winner]} wins — {o.reason.replace('_', ' ')}"
    return f"{lost} {did} — {names[winner]} wins"


def ended_view(t: Table, view: Json) -> Json:
    """``view`` with its described board's status line saying how the room ended the game
    (``view`` itself is left alone: it is cached and the base of deltas). A spectator's
    late view (``seats``/``public``) is handled part by part."""
    if t.outcome is None or t.outcome.reason not in ROOM_ENDINGS:
        return view
    if "grid" in view and isinstance(view["grid"], dict):
        names = [str(s.get("name", "")) for s in view["grid"].get("seats", ())]
        text = ended_status(t, names)
        if text is None:
            return view
        return {**view, "grid": {**view["grid"], "status": text}}
    if isinstance(view.get("seats"), list):
        return {**view, "seats": [ended_view(t, v) for v in view["seats"]]}
    if isinstance(view.get("public"), dict):
        return {**view, "public": ended_view(t, view["public"])}
    return view


def summary(t: Table) -> Json:
    """The lobby entry: public facts only."""
    return {
        "room": t.id,
        "game": t.game.name,
        "title": t.game.title,
        "status": t.status,
        "seats": t.seats.public(),
        "open_seats": t.seats.free(),
        "turn": public_turns(t),
        "version": t.version,
        "created_at": t.created_at,
        "options": t.options,
    }


def record(t: Table, *, seated: bool = False) -> Json:
    """The full record (seed, options, every move, outcome): once the game is over, or at
    any time for a game that hides nothing — for a caller who is not ``seated``, as far as
    the spectator delay lets them see. A running game whose hidden part is a chance draw
    (``public_moves``: BanQi, Hase und Igel) shows its moves but not its seed, which would
    tell the draw."""
    running_hidden = t.outcome is None and t.game.hidden_information
    if running_hidden and not t.game.public_moves:
        raise NotFinished("the full record of a hidden-information game opens at its end")
    shown = len(t.turns) if seated else public_turns(t)
    rec: Json = {
        "room": t.id,
        "game": t.game.name,
        "options": t.options,
        "seed": t.seed,
        "n_seats": t.n_seats,
        "policy": t.policy.to_json(),
        "players": [s.name or None for s in t.seats],
        "seats": [s.public() for s in t.seats],
        "moves": [
            {"turn": i + 1, "moves": turn.moves, "at": turn.at}
            for i, turn in enumerate(t.turns[:shown])
        ],
        "outcome": t.outcome.to_json() if t.outcome else None,
        "rated": t.rated.to_json() if t.rated else None,
        "created_at": t.created_at,
        "version": t.version,
    }
    if shown < len(t.turns):
        rec["delayed"] = t.policy.spectator_delay
        del rec["version"]  # it would count the moves not shown yet
    if running_hidden:
        del rec["seed"]  # it would tell the face-down layout or the deck order
    rec["exports"] = t.game.export(rec)
    return rec


class Renderer:
    """The part of a room that renders its table for each recipient: it keeps the views of
    the current state, and what each recipient was shown last (the base of its next delta).
    """

    __slots__ = ("_settings", "_shown", "_shown_common", "_views")

    def __init__(self) -> None:
        #: ``game.view`` of one state per recipient (``"all"``: everybody's, in a game that
        #: hides nothing): states are immutable values, so identity is a safe key
        #: the views of one state: (the state, whether the game was over, the views)
        self._views: tuple[Any, bool, dict[Recipient | str, Json]] = (None, False, {})
        #: what each recipient was last shown (the base of its next delta)
        self._shown: dict[Recipient, Json] = {}
        #: the :meth:`common` part those snapshots were all built from
        self._shown_common: Json | None = None
        self._settings: Json | None = None

    @property
    def has_bases(self) -> bool:
        """Every recipient was shown a snapshot that its next delta can be made against."""
        return bool(self._shown)

    def snapshot(self, t: Table, r: Recipient, common: Json | None = None) -> Json:
        """The whole room as ``r`` may see it now, built from ``game.view(state, r)``.

        ``common`` is :meth:`common` of this very state, when the caller renders it for
        several recipients at once."""
        return self._own_parts(t, (self.common(t) if common is None else common).copy(), r)

    def _own_parts(self, t: Table, out: Json, r: Recipient, turns: int | None = None) -> Json:
        """Fill in ``r``'s own parts (:data:`_OWN`) of a copy of :meth:`common` (``turns``:
        ``len(t.turns)``, when the caller knows it)."""
        out["you"] = r
        out["view"] = self.view_for(t, r)
        if r is not None:
            out["turn"] = len(t.turns) if turns is None else turns
            if r in t.pending:
                out["your_move"] = str(t.pending[r])
            elif r in out["to_act"]:
                # texts interned (they recur in every room) and cached with the state
                out["legal"] = t.game.legal_texts(t.state, r)
        else:
            out["turn"] = public_turns(t)
        return out

    def common(self, t: Table) -> Json:
        """The part of a snapshot that is the same for every recipient (``you``, ``view``
        and ``turn`` are placeholders, in their places, for :meth:`snapshot` to fill)."""
        acting = t.to_act()
        if self._settings is None:
            self._settings = t.policy.to_json()
        return {
            "room": t.id,
            "game": t.game.name,
            "version": t.version,
            "status": t.status,
            "you": None,
            "seats": t.seats.public(),
            "to_act": sorted(acting),
            "sealed": sorted(t.pending),
            "view": None,
            "turn": None,
            "clock": self._clock(t, acting) if t.clock else None,
            "settings": self._settings,
            "at": t.last_at,
            "outcome": t.outcome.to_json() if t.outcome else None,
            "undo": t.takebacks.request_json(),
            "draw_offer": t.offers.draw_offer,
            "rematch": t.offers.rematch_json(),
            "rated": t.rated.to_json() if t.rated else None,
        }

    @staticmethod
    def _clock(t: Table, acting: frozenset[int]) -> Json:
        """The clock as the snapshot shows it, with ``abort_at``: when the game is aborted if
        the first move does not come (None once the clocks run, or with nobody waited for)."""
        assert t.clock is not None
        first = t.first_move_due()
        return {**t.clock.to_json(acting - set(t.pending)), "abort_at": first[0] if first else None}

    def _view(self, t: Table, r: Recipient) -> Json:
        """``game.view(state, r)`` (``game.final_view`` once the game is over, however it
        ended), computed once per state and recipient — and once for everybody in a game
        that hides nothing (every seat's view is the public one)."""
        over = t.status == "over"
        state, was_over, views = self._views
        if state is not t.state or was_over != over:
            views = {}
            self._views = (t.state, over, views)
        key: Recipient | str = r if t.game.hidden_information else "all"
        view = views.get(key)
        if view is None:
            view = views[key] = (t.game.final_view if over else t.game.view)(t.state, r)
        return view

    def view_for(self, t: Table, r: Recipient) -> Json:
        """``game.view`` for ``r``. With a spectator delay, spectators see the game
        ``spectator_delay`` turns late while it runs: the public view — or, in a game that
        hides something and only if the room's creator chose ``spectators_see_all``, every
        seat's view."""
        if r is not None or not t.policy.spectator_delay:
            return ended_view(t, self._view(t, r))
        late = t.past[0] if delayed(t) else t.state  # over: everything, now
        return ended_view(t, _view_then(t, late, None, public_turns(t)))

    def update(self, t: Table, r: Recipient, events: Sequence[Event] | None) -> Json:
        """An ``update`` message: the rendered events (``None``: too many to list) + snapshot."""
        rendered = None if events is None else [render_event(t, e, r) for e in events]
        return {"type": "update", "events": rendered, **self.snapshot(t, r)}

    def changes(self, t: Table, events: Sequence[Event]) -> list[Change]:
        """Every recipient's messages for ``events`` (just folded in): the full ``update``,
        and a ``delta`` against what that recipient was shown last (None the first time).

        Each recipient's new snapshot becomes the base of its next delta.
        """
        out: list[Change] = []
        shown = self._shown
        common = self.common(t)
        memo: delta.Memo = {}  # views shared by several recipients are compared once
        # every snapshot shown last was built from one common part (this method renders
        # every recipient each time): the common part's difference is the same for all
        was = self._shown_common
        shared: tuple[list[list[Any]], list[delta.Path]] = ([], [])
        if was is not None:
            shared = delta.diff_keys(was, common, _SHARED)
        # most events read the same for everybody: rendered once, unless one of them is a
        # sealed move or a rematch (their seat alone learns the move, the new seat's token)
        same_for_all = None
        if not any(e.kind in _PERSONAL for e in events):
            same_for_all = [render_event(t, e, None) for e in events]
        turns = len(t.turns)
        for r in recipients(t):
            if same_for_all is None:
                rendered = [render_event(t, e, r) for e in events]
            else:
                rendered = same_for_all
            # the full update, which is also the base of the next delta (the diffs read
            # only the snapshot's keys, never "type" or "events")
            full = self._own_parts(t, {"type": "update", "events": rendered, **common}, r, turns)
            before = shown.get(r)
            step: Json | None = None
            if before is not None:  # set with _shown_common, by this method only
                sets, dels = delta.diff_keys(before, full, _OWN, memo)
                if shared[0]:
                    sets = shared[0] + sets
                if shared[1]:
                    dels = shared[1] + dels
                step = {
                    "type": "delta",
                    "room": t.id,
                    "you": r,
                    "version": t.version,
                    "base": before["version"],
                    "events": rendered,
                    "set": sets,
                    "del": dels,
                }
            shown[r] = full
            out.append((r, step, full))
        self._shown_common = common
        for event in events:  # a rematch is also announced on its own (protocol: rematch)
            if event.kind == "rematch":
                for r in recipients(t):
                    notice = rematch_notice(t, event.data, r, kind="rematch")
                    del notice["kind"]
                    out.append((r, None, {"type": "rematch", "room": t.id, **notice}))
        return out


__all__ = [
    "RESYNC_EVENT_LIMIT",
    "Change",
    "Recipient",
    "Renderer",
    "history",
    "public_turns",
    "recipients",
    "record",
    "render_event",
    "summary",
]
