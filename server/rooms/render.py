"""What a room shows: one rendering per recipient, built only from ``game.view``.

:class:`Rendering` is the half of :class:`~server.rooms.room.Room` that turns the room's
state into messages — a full ``update`` (snapshot) for a recipient that joins, resyncs or
asked for snapshots, and a ``delta`` (:mod:`server.rooms.delta`) against what that recipient
was last shown, for everyone who is live. The state machine half (decide, fold) lives in
``room.py``; nothing here changes the game.

Recipients are seats (``0..n_seats-1``) and ``None``, the spectators.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from ..engine import turn_rng
from . import delta
from .errors import NotFinished

if TYPE_CHECKING:
    from ..engine import Game, Outcome
    from .clock import Clock
    from .policy import Policy
    from .values import Event, Recent, Seat, Turns, UndoRequest

Json = dict[str, Any]
Recipient = int | None  # a seat, or None for spectators

#: how many missed events a resync re-renders one by one before it sends just the state
RESYNC_EVENT_LIMIT = 200

#: one recipient's messages for one change: (recipient, delta or None, full update)
Change = tuple[Recipient, Json | None, Json]

#: the keys of a snapshot that differ between recipients (``Rendering.snapshot``); the
#: others are ``Rendering.common``'s, the same for everybody
_OWN = ("you", "view", "turn", "legal", "your_move")

#: the keys of :meth:`Rendering.common`'s part, in order
_COMMON = (
    "room", "game", "version", "status", "you", "seats", "to_act", "sealed", "view", "turn",
    "clock", "settings", "at", "outcome", "undo", "draw_offer", "rematch", "rated",
)  # fmt: skip
#: the keys every recipient's snapshot shares
_SHARED = tuple(k for k in _COMMON if k not in _OWN)

#: the events whose rendering depends on the recipient (:meth:`Rendering.render_event`)
_PERSONAL = frozenset({"sealed", "rematch"})


class Rendering:
    """Snapshots, deltas, resyncs, lobby summaries and records of a room."""

    if not TYPE_CHECKING:  # the room (room.py) holds every attribute in its slots
        __slots__ = ()

    # the state the renderings read (set by Room)
    id: str
    game: Game[Any, Any]
    options: dict[str, Any]
    seed: str
    n_seats: int
    policy: Policy
    created_at: float
    seats: list[Seat]
    state: Any
    turns: Turns
    pending: dict[int, Any]
    undo_request: UndoRequest | None
    draw_offer: int | None
    rematch_votes: set[int]
    rematch: Json | None
    started: bool
    outcome: Outcome | None
    version: int
    last_at: float
    clock: Clock | None
    past: Recent
    _views: tuple[Any, dict[Recipient | str, Json]]
    #: what each recipient was last shown (the base of its next delta)
    _shown: dict[Recipient, Json]
    #: the :meth:`common` part those snapshots were all built from
    _shown_common: Json | None
    _settings: Json | None
    _seats_json: list[Json] | None

    @property
    def status(self) -> str:
        if self.outcome is not None:
            return "over"
        return "playing" if self.started else "waiting"

    def to_act(self) -> frozenset[int]:
        raise NotImplementedError

    def events_since(self, version: int) -> list[Event]:
        raise NotImplementedError

    if TYPE_CHECKING:  # the clocks (timing.py) and the rated flag (standing.py)

        def clock_json(self, running: frozenset[int]) -> Json: ...

        def rated_json(self) -> Json | None: ...

    def recipients(self) -> list[Recipient]:
        return [*range(self.n_seats), None]

    def render_event(self, event: Event, r: Recipient) -> Json:
        """What ``r`` may learn from ``event`` itself: public facts only (who, not what).

        What a move changed reaches ``r`` through ``game.view`` in the same message.
        """
        d = event.data
        k = event.kind
        if k == "seat":
            return {"kind": "seat", "seat": d["seat"], "holder": self.seats[d["seat"]].public()}
        if k == "sealed":
            out: Json = {"kind": "sealed", "seat": d["seat"]}
            if r == d["seat"]:
                out["move"] = d["move"]
            return out
        if k == "move":
            return {"kind": "move", "seats": sorted(map(int, d["moves"]))}
        if k in ("unseat", "undo_request"):
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
            return self.rematch_notice(d, r, kind="rematch")
        return {"kind": k}

    def rematch_notice(self, d: Mapping[str, Any], r: Recipient, *, kind: str) -> Json:
        """The agreed rematch as ``r`` may know it: a person seated here gets their seat in
        the new room and its token; everybody else (spectators, bots' seats) the room."""
        out: Json = {"kind": kind, "new_room": d["new_room"]}
        token = d["tokens"].get(str(r)) if r is not None else None
        if token is not None and r is not None:
            out["seat"] = (r + 1) % self.n_seats
            out["token"] = token
        return out

    def seats_json(self) -> list[Json]:
        """The public seat list (cached until a seat changes)."""
        if self._seats_json is None:
            self._seats_json = [s.public() for s in self.seats]
        return self._seats_json

    def settings_json(self) -> Json:
        if self._settings is None:
            self._settings = self.policy.to_json()
        return self._settings

    def snapshot(self, r: Recipient, common: Json | None = None) -> Json:
        """The whole room as ``r`` may see it now, built from ``game.view(state, r)``.

        ``common`` is :meth:`common` of this very state, when the caller renders it for
        several recipients at once."""
        return self._own_parts((self.common() if common is None else common).copy(), r)

    def _own_parts(self, out: Json, r: Recipient, turns: int | None = None) -> Json:
        """Fill in ``r``'s own parts (:data:`_OWN`) of a copy of :meth:`common` (``turns``:
        ``len(self.turns)``, when the caller knows it)."""
        out["you"] = r
        out["view"] = self.view_for(r)
        if r is not None:
            out["turn"] = len(self.turns) if turns is None else turns
            if r in self.pending:
                out["your_move"] = str(self.pending[r])
            elif r in out["to_act"]:
                # texts interned (they recur in every room) and cached with the state
                out["legal"] = self.game.legal_texts(self.state, r)
        else:
            out["turn"] = self.public_turns()
        return out

    def common(self) -> Json:
        """The part of a snapshot that is the same for every recipient (``you``, ``view``
        and ``turn`` are placeholders, in their places, for :meth:`snapshot` to fill)."""
        acting = self.to_act()
        return {
            "room": self.id,
            "game": self.game.name,
            "version": self.version,
            "status": self.status,
            "you": None,
            "seats": self.seats_json(),
            "to_act": sorted(acting),
            "sealed": sorted(self.pending),
            "view": None,
            "turn": None,
            "clock": self.clock_json(acting - set(self.pending)) if self.clock else None,
            "settings": self.settings_json(),
            "at": self.last_at,
            "outcome": self.outcome.to_json() if self.outcome else None,
            "undo": (
                {"seat": self.undo_request.seat, "accepted": sorted(self.undo_request.accepted)}
                if self.undo_request
                else None
            ),
            "draw_offer": self.draw_offer,
            "rematch": (
                {"asked": sorted(self.rematch_votes), "new_room": self.rematch["new_room"]}
                if self.rematch
                else {"asked": sorted(self.rematch_votes), "new_room": None}
                if self.rematch_votes
                else None
            ),
            "rated": self.rated_json(),
        }

    def _view(self, r: Recipient) -> Json:
        """``game.view(state, r)``, computed once per state and recipient — and once for
        everybody in a game that hides nothing (every seat's view is the public one)."""
        state, views = self._views
        if state is not self.state:
            views = {}
            self._views = (self.state, views)
        key: Recipient | str = r if self.game.hidden_information else "all"
        view = views.get(key)
        if view is None:
            view = views[key] = self.game.view(self.state, r)
        return view

    def delayed(self) -> bool:
        """Spectators see the game late now (a delay is set and the game is not over)."""
        return bool(self.policy.spectator_delay) and self.outcome is None

    def public_turns(self) -> int:
        """How many turns anybody who is not seated may know of: all of them, or with a
        spectator delay, ``spectator_delay`` fewer while the game runs."""
        if not self.delayed():
            return len(self.turns)
        return max(0, len(self.turns) - self.policy.spectator_delay)

    def view_for(self, r: Recipient) -> Json:
        """``game.view`` for ``r``. With a spectator delay, spectators see the game
        ``spectator_delay`` turns late while it runs: the public view — or, in a game that
        hides something and only if the room's creator chose ``spectators_see_all``, every
        seat's view."""
        if r is not None or not self.policy.spectator_delay:
            return self._view(r)
        late = self.past[0] if self.delayed() else self.state  # over: everything, now
        out: Json = {"delayed": self.policy.spectator_delay, "turn": self.public_turns()}
        see_all = self.policy.spectators_see_all or not self.game.hidden_information
        if see_all or not self.delayed():
            out["seats"] = [self.game.view(late, s) for s in range(self.n_seats)]
        else:
            out["public"] = self.game.view(late, None)
        return out

    def history(self, r: Recipient) -> Json:
        """What ``r`` was shown after every turn so far — the seat's views, or a
        spectator's, as late as the spectator delay lets them see — rebuilt from the seed
        and the turns (the current line: taken-back turns are gone). The same views the
        room sent live, so a late spectator or a replay can step through them."""
        shown = len(self.turns) if r is not None else self.public_turns()
        state = self.game.new(self.options, self.n_seats, turn_rng(self.seed, 0))
        out = [{"turn": 0, "view": self._view_then(state, r, 0)}]
        for i, turn in enumerate(self.turns[:shown], 1):
            moves = {int(s): self.game.parse_move(state, int(s), t) for s, t in turn.played}
            state = self.game.play(state, moves, turn_rng(self.seed, i), check=False)
            out.append({"turn": i, "view": self._view_then(state, r, i)})
        return {"turns": out}

    def _view_then(self, state: Any, r: Recipient, turn: int) -> Json:
        """:meth:`view_for` of an earlier ``state`` (after ``turn`` turns)."""
        if r is not None or not self.policy.spectator_delay:
            return self.game.view(state, r)
        out: Json = {"delayed": self.policy.spectator_delay, "turn": turn}
        see_all = self.policy.spectators_see_all or not self.game.hidden_information
        if see_all or not self.delayed():
            out["seats"] = [self.game.view(state, s) for s in range(self.n_seats)]
        else:
            out["public"] = self.game.view(state, None)
        return out

    def update(self, r: Recipient, events: Sequence[Event] | None) -> Json:
        """An ``update`` message: the rendered events (``None``: too many to list) + snapshot."""
        rendered = None if events is None else [self.render_event(e, r) for e in events]
        return {"type": "update", "events": rendered, **self.snapshot(r)}

    def changes(self, events: Sequence[Event]) -> list[Change]:
        """Every recipient's messages for ``events`` (just folded in): the full ``update``,
        and a ``delta`` against what that recipient was shown last (None the first time).

        Each recipient's new snapshot becomes the base of its next delta.
        """
        out: list[Change] = []
        shown = self._shown
        common = self.common()
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
            same_for_all = [self.render_event(e, None) for e in events]
        turns = len(self.turns)
        for r in self.recipients():
            if same_for_all is None:
                rendered = [self.render_event(e, r) for e in events]
            else:
                rendered = same_for_all
            # the full update, which is also the base of the next delta (the diffs read
            # only the snapshot's keys, never "type" or "events")
            full = self._own_parts({"type": "update", "events": rendered, **common}, r, turns)
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
                    "room": self.id,
                    "you": r,
                    "version": self.version,
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
                for r in self.recipients():
                    notice = self.rematch_notice(event.data, r, kind="rematch")
                    del notice["kind"]
                    out.append((r, None, {"type": "rematch", "room": self.id, **notice}))
        return out

    def resync(self, r: Recipient, since: int | None) -> Json:
        """What ``r`` missed after version ``since``: the events one by one, or just the state."""
        if since is None or since > self.version or since < 1:
            return self.update(r, None)
        if self.version - since > RESYNC_EVENT_LIMIT:
            return self.update(r, None)
        return self.update(r, self.events_since(since))

    def summary(self) -> Json:
        """The lobby entry: public facts only."""
        return {
            "room": self.id,
            "game": self.game.name,
            "title": self.game.title,
            "status": self.status,
            "seats": self.seats_json(),
            "open_seats": [i for i, s in enumerate(self.seats) if s.kind == "empty"],
            "turn": self.public_turns(),
            "version": self.version,
            "created_at": self.created_at,
            "options": self.options,
        }

    def record(self, *, seated: bool = False) -> Json:
        """The full record (seed, options, every move, outcome): once the game is over, or
        at any time for a game that hides nothing — for a caller who is not ``seated``, as
        far as the spectator delay lets them see. A running game whose hidden part is a
        chance draw (``public_moves``: BanQi, Hase und Igel) shows its moves but not its
        seed, which would tell the draw."""
        running_hidden = self.outcome is None and self.game.hidden_information
        if running_hidden and not self.game.public_moves:
            raise NotFinished("the full record of a hidden-information game opens at its end")
        shown = len(self.turns) if seated else self.public_turns()
        rec: Json = {
            "room": self.id,
            "game": self.game.name,
            "options": self.options,
            "seed": self.seed,
            "n_seats": self.n_seats,
            "policy": self.policy.to_json(),
            "players": [s.name or None for s in self.seats],
            "seats": [s.public() for s in self.seats],
            "moves": [
                {"turn": i + 1, "moves": t.moves, "at": t.at}
                for i, t in enumerate(self.turns[:shown])
            ],
            "outcome": self.outcome.to_json() if self.outcome else None,
            "rated": self.rated_json(),
            "created_at": self.created_at,
            "version": self.version,
        }
        if shown < len(self.turns):
            rec["delayed"] = self.policy.spectator_delay
            del rec["version"]  # it would count the moves not shown yet
        if running_hidden:
            del rec["seed"]  # it would tell the face-down layout or the deck order
        rec["exports"] = self.game.export(rec)
        return rec


__all__ = ["RESYNC_EVENT_LIMIT", "Change", "Recipient", "Rendering"]
