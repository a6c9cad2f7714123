"""Who sits where: people and bots take seats, and give them back before the game starts.

:class:`Seating` is the part of :class:`~server.rooms.room.Room` that decides the ``seat``
and ``unseat`` events and folds them; the game starts when the last seat is taken. A seat
holds a name, and — for a person seated by an account — the account (``user``) and, in a
rated pairing, its rating then (:class:`~server.rooms.values.Seat`): separate fields, never
one string.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from .errors import BadRequest, SeatTaken
from .values import Event, Seat, check_name, hash_token

if TYPE_CHECKING:
    from .clock import Clock
    from .values import Actor


class Seating:
    """Taking and leaving seats (decide + fold)."""

    if not TYPE_CHECKING:  # the room (room.py) holds every attribute in its slots
        __slots__ = ()

    seats: list[Seat]
    started: bool
    clock: Clock | None
    _seats_json: list[dict[str, Any]] | None

    if TYPE_CHECKING:  # the room's checks (room.py)

        def _not_over(self) -> None: ...

        def _seat(self, seat: Any) -> None: ...

        def _check_actor(self, seat: Any, actor: Actor) -> None: ...

        def _check_end(self) -> None: ...

    def take_seat(
        self,
        seat: int | None,
        token: str,
        name: Any,
        now: float,
        user: str = "",
        rating: Mapping[str, Any] | None = None,
    ) -> list[Event]:
        """A person (``user``: the account seating them) takes an empty seat (None: the first);
        ``rating``: an account's ``{"rating", "provisional"}`` when a pairing seats it."""
        self._not_over()
        name = check_name(name)
        if seat is None:
            free = [i for i, s in enumerate(self.seats) if s.kind == "empty"]
            if not free:
                raise SeatTaken("every seat is taken")
            seat = free[0]
        self._seat(seat)
        if self.seats[seat].kind != "empty":
            raise SeatTaken(f"seat {seat} is taken")
        data = {"seat": seat, "kind": "person", "name": name, "token_hash": hash_token(token)}
        if user and rating is not None:  # a rated pairing: the rating, a field of its own
            data |= {"rating": float(rating["rating"]), "provisional": bool(rating["provisional"])}
        return [Event("seat", data | ({"user": user} if user else {}), now)]

    def add_bot(self, seat: int, bot: str, name: str, now: float) -> list[Event]:
        """A bot (``bot`` names its kind/strength, checked by the caller) takes a seat, under
        ``name`` — numbered when another seat has it (five easy bots in one race)."""
        self._not_over()
        self._seat(seat)
        if self.seats[seat].kind != "empty":
            raise SeatTaken(f"seat {seat} is taken")
        name = base = check_name(name)
        taken = {s.name for s in self.seats if s.kind != "empty"}
        for n in range(2, len(self.seats) + 2):  # a name of its own: "Easy bot 2", ...
            if name not in taken:
                break
            name = f"{base} {n}"
        data = {"seat": seat, "kind": "bot", "name": name, "bot": bot}
        return [Event("seat", data, now)]

    def leave_seat(self, seat: int, actor: Actor, now: float) -> list[Event]:
        """Give a seat back before the game starts (afterwards: resign instead)."""
        self._check_actor(seat, actor)
        if self.started:
            raise BadRequest("the game has started: a seat is kept until the end (resign to quit)")
        return [Event("unseat", {"seat": seat}, now)]

    def _apply_seat(self, d: Mapping[str, Any], at: float) -> None:
        self._seats_json = None
        self.seats[d["seat"]] = Seat(
            d["kind"],
            d["name"],
            d.get("token_hash", ""),
            d.get("bot", ""),
            d.get("user", ""),
            d.get("rating"),
            d.get("provisional", False),
        )
        if not self.started and all(s.kind != "empty" for s in self.seats):
            self.started = True
            if self.clock:
                self.clock.start_turn(at)
            self._check_end()

    def _apply_unseat(self, d: Mapping[str, Any], at: float) -> None:
        self._seats_json = None
        self.seats[d["seat"]] = Seat()


__all__ = ["Seating"]
