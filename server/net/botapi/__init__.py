"""The lichess-compatible Bot and Board API on Kibitz's HTTP port (``docs/BOT_API.md``).

wire (HTTP bodies, lichess's errors, ndjson streams) <- words (lichess's names: statuses,
speeds, refusals) <- tokens (who calls) <- games (the game stream and a seat's commands,
through the seat's view) <- challenges (challenges, the event stream, rooms made by the seek
service), users (public data, status, presence), export (a game as PGN or JSON) <- routes
(the table of routes, :class:`BotApi`).
"""
