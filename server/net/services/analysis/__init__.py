"""Analysis of finished games as a service (issue 52, docs/ANALYSIS.md): the request over
HTTP with its limits (:mod:`.http`), the queue in Redis served by every node's worker
processes (:mod:`.service`, :mod:`.worker`), the result stored with the game."""
