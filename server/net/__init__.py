"""The asyncio shell: one port for the WebSocket protocol and HTTP, hosting, fan-out.

In parts, each importing only those below it (``tests/test_structure.py``, ``ALLOWED``):
``transport`` (bytes and HTTP) <- ``node`` (one node's rooms) <- ``services`` (accounts,
matchmaking, tournaments, the archive, bot and engine seats) <- ``protocol`` (the WebSocket
messages) <- ``botapi`` (the lichess-compatible API); ``app.py`` builds them all and hands
each what it needs (docs/ARCHITECTURE.md, "The net").
"""
