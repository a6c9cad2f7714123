"""Every message type a client may send, and its handler: the protocol's one table.

A new message type is its handler (a plain function beside those of its subject) and one
line in :data:`MESSAGES`; docs/PROTOCOL.md documents each. Nothing registers itself on
import: what the server answers is what this table lists.
"""

from __future__ import annotations

from ..node.hub import Hub
from ..services.accounts import Accounts
from ..services.archive.archived import ArchivedReads
from ..services.matchmaking.seeks import Seeks
from ..services.seats.engines import Engines
from ..services.tournaments.service import Tournaments
from ..transport.admission import Admission
from . import handlers, lobby_handlers, seek_handlers, social
from . import tournament_handlers as tournaments
from .handlers import Handler, Handlers
from .seating import JoinHook, Seating

MESSAGES: dict[str, Handler] = {
    # -- session (docs/PROTOCOL.md, Session)
    "hello": handlers.hello,
    "ping": handlers.ping,
    # -- lobby
    "list_games": lobby_handlers.list_games,
    "list_rooms": lobby_handlers.list_rooms,
    "lobby": lobby_handlers.lobby,
    "create_room": lobby_handlers.create_room,
    # -- seats and watching
    "take_seat": handlers.take_seat,
    "add_bot": handlers.add_bot,
    "join": handlers.join,
    "watch": handlers.watch,
    "resync": handlers.resync,
    "leave": handlers.leave,
    # -- playing
    "move": handlers.move,
    "resign": handlers.resign,
    "undo": handlers.undo,
    "undo_answer": handlers.undo_answer,
    "history": handlers.history,
    "record": handlers.record,
    # -- offers at the board
    "draw": social.draw,
    "draw_answer": social.draw_answer,
    "abort": social.abort,
    "claim_victory": social.claim_victory,
    "rematch": social.rematch,
    "rematch_decline": social.rematch_decline,
    # -- chat
    "chat": social.chat,
    "chat_history": social.chat_history_request,
    # -- seeks and quick pairing (docs/PROTOCOL.md, Seeks)
    "seek": seek_handlers.seek,
    "cancel_seek": seek_handlers.cancel_seek,
    "accept_seek": seek_handlers.accept_seek,
    "list_seeks": seek_handlers.list_seeks,
    "pool_join": seek_handlers.pool_join,
    "pool_leave": seek_handlers.pool_leave,
    "pairing": seek_handlers.pairing,
    # -- tournaments (docs/PROTOCOL.md, Tournaments)
    "tournament_create": tournaments.tournament_create,
    "tournament_join": tournaments.tournament_join,
    "tournament_add_bot": tournaments.tournament_add_bot,
    "tournament_withdraw": tournaments.tournament_withdraw,
    "tournament_cancel": tournaments.tournament_cancel,
    "tournament_berserk": tournaments.tournament_berserk,
    "tournament_list": tournaments.tournament_list,
    "tournament_watch": tournaments.tournament_watch,
    "tournament_unwatch": tournaments.tournament_unwatch,
}

#: what a client joining (or resyncing) a room is sent besides the room's state
ON_JOIN: tuple[JoinHook, ...] = (social.chat_history, social.presence)


def server_seating(hub: Hub, archived: ArchivedReads | None = None) -> Seating:
    """The server's seating on ``hub``: a joining connection is sent :data:`ON_JOIN`'s."""
    return Seating(hub, archived=archived, on_join=ON_JOIN)


def server_handlers(
    hub: Hub,
    seating: Seating,
    *,
    accounts: Accounts,
    seeks: Seeks,
    tournaments: Tournaments,
    engines: Engines | None = None,
    bots: bool = True,
    admission: Admission | None = None,
) -> Handlers:
    """The server's handlers on ``hub``: every message type of :data:`MESSAGES`, calling
    the node's services they are given."""
    return Handlers(
        hub,
        MESSAGES,
        seating=seating,
        accounts=accounts,
        seeks=seeks,
        tournaments=tournaments,
        engines=engines,
        bots=bots,
        admission=admission,
    )
