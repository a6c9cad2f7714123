"""Who sits where: the seats of a room, who holds each, and the proof that a person holds one.

:class:`Seats` is the part of a room (:class:`~server.rooms.table.Table`) that owns its seats:
it decides the ``seat`` events of people and bots taking one (the room first checks that the
game is not over) and folds ``seat`` and ``unseat``; the room starts the game when the last
seat is taken. A seat holds a name, and — for a person seated by an account — the account
(``user``) and, in a rated pairing, its rating then (:class:`~server.rooms.values.Seat`):
separate fields, never one string. A seated person proves their seat with its token, whose
SHA-256 the seat keeps.

Read like a list: ``seats[i]``, ``len(seats)``, ``for seat in seats``.
"""

from __future__ import annotations

import hmac
from collections.abc import Iterator, Mapping
from typing import Any

from .errors import BadToken, NoSuchSeat, NotSeated, SeatTaken
from .values import Event, Seat, check_name, hash_token

Json = dict[str, Any]


class Seats:
    """A room's seats (each a :class:`~server.rooms.values.Seat` value, replaced when it
    changes hands)."""

    __slots__ = ("_public", "_seats", "_tokens")

    def __init__(self, n_seats: int) -> None:
        self._seats = [Seat() for _ in range(n_seats)]
        #: :meth:`public`, cached until a seat changes
        self._public: list[Json] | None = None
        #: the hashes of tokens that proved right here (a seated player sends theirs with
        #: every move): SHA-256 once per token, not per move; only right ones, so bounded
        self._tokens: dict[str, str] = {}

    def __getitem__(self, seat: int) -> Seat:
        return self._seats[seat]

    def __len__(self) -> int:
        return len(self._seats)

    def __iter__(self) -> Iterator[Seat]:
        return iter(self._seats)

    # -- facts -----------------------------------------------------------------------------

    def check(self, seat: Any) -> None:
        """Raise unless ``seat`` is a seat number of this room."""
        n = len(self._seats)
        if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < n:
            raise NoSuchSeat(f"there is no seat {seat!r} (seats are 0..{n - 1})")

    def people(self) -> set[int]:
        """The seats held by people."""
        return {i for i, s in enumerate(self._seats) if s.kind == "person"}

    def bots(self) -> set[int]:
        """The seats held by bots."""
        return {i for i, s in enumerate(self._seats) if s.kind == "bot"}

    def free(self) -> list[int]:
        """The empty seats, in order."""
        return [i for i, s in enumerate(self._seats) if s.kind == "empty"]

    def public(self) -> list[Json]:
        """The public seat list (cached until a seat changes)."""
        if self._public is None:
            self._public = [s.public() for s in self._seats]
        return self._public

    def of_token(self, token: str) -> list[int]:
        """The person seats that ``token`` holds."""
        h = hash_token(token)
        return [i for i, s in enumerate(self._seats) if s.kind == "person" and s.token_hash == h]

    def check_token(self, seat: int, token: Any) -> None:
        """Raise unless ``token`` is the secret of person seat ``seat``."""
        self.check(seat)
        s = self._seats[seat]
        if s.kind != "person":
            raise NotSeated(f"seat {seat} is not held by a person")
        if not isinstance(token, str):
            raise BadToken(f"wrong token for seat {seat}")
        known = self._tokens.get(token)
        if not hmac.compare_digest(s.token_hash, hash_token(token) if known is None else known):
            raise BadToken(f"wrong token for seat {seat}")
        if known is None:
            if len(self._tokens) >= 2 * len(self._seats):  # seats changed hands: start again
                self._tokens.clear()
            self._tokens[token] = s.token_hash

    # -- decide ----------------------------------------------------------------------------

    def take(
        self,
        seat: int | None,
        token: str,
        name: Any,
        now: float,
        user: str = "",
        rating: Mapping[str, Any] | None = None,
    ) -> list[Event]:
        """A person takes an empty seat (None: the first); see ``Table.take_seat``."""
        name = check_name(name)
        if seat is None:
            free = self.free()
            if not free:
                raise SeatTaken("every seat is taken")
            seat = free[0]
        self.check(seat)
        if self._seats[seat].kind != "empty":
            raise SeatTaken(f"seat {seat} is taken")
        data = {"seat": seat, "kind": "person", "name": name, "token_hash": hash_token(token)}
        if user and rating is not None:  # a rated pairing: the rating, a field of its own
            data |= {"rating": float(rating["rating"]), "provisional": bool(rating["provisional"])}
        return [Event("seat", data | ({"user": user} if user else {}), now)]

    def add_bot(self, seat: int, bot: str, name: str, now: float) -> list[Event]:
        """A bot takes a seat under ``name`` — numbered when another seat has it (five easy
        bots in one race)."""
        self.check(seat)
        if self._seats[seat].kind != "empty":
            raise SeatTaken(f"seat {seat} is taken")
        name = base = check_name(name)
        taken = {s.name for s in self._seats if s.kind != "empty"}
        for n in range(2, len(self._seats) + 2):  # a name of its own: "Easy bot 2", ...
            if name not in taken:
                break
            name = f"{base} {n}"
        data = {"seat": seat, "kind": "bot", "name": name, "bot": bot}
        return [Event("seat", data, now)]

    # -- fold ------------------------------------------------------------------------------

    def seat(self, d: Mapping[str, Any]) -> None:
        """Fold a ``seat`` event: its holder takes the seat."""
        self._public = None
        self._seats[d["seat"]] = Seat(
            d["kind"],
            d["name"],
            d.get("token_hash", ""),
            d.get("bot", ""),
            d.get("user", ""),
            d.get("rating"),
            d.get("provisional", False),
        )

    def unseat(self, seat: int) -> None:
        """Fold an ``unseat`` event: the seat is empty again."""
        self._public = None
        self._seats[seat] = Seat()


__all__ = ["Seats"]
