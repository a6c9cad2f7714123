"""One node's rooms: the hub and its parts (hosting, lobby, audience, clocks, sessions, the
cluster and its leases), and the node's own HTTP routes."""
