"""What a node offers besides rooms, each given what it needs by ``server/net/app.py``:
accounts and names, matchmaking, tournaments, the archive, bot and engine seats."""
