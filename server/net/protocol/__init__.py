"""The WebSocket protocol: the one table of message types, their handlers, and the seating
of a connection (docs/PROTOCOL.md)."""
