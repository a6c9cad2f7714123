"""Seats played by the server: its bots (worker processes) and UCI engines (process pools)."""
