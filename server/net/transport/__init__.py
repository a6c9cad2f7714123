"""Bytes and HTTP: connections, codecs, the h11 connection and the WebSocket, the router
(no route of its own), admission, metrics, the collector's schedule, worker processes."""
