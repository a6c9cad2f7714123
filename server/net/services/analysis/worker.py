"""The worker processes' side of the analysis service: a pool of processes (forked by the
fork server, at the lowest priority, dying with the server, as the bots' are:
:mod:`server.net.transport.processes`) and the function each job runs there: the pure
analysis of a finished game's record (``server/analysis/``)."""

from __future__ import annotations

import concurrent.futures
from collections.abc import Mapping
from typing import Any

from ....analysis.records import Tools, analyse_record
from ...transport.processes import worker_pool


def analyse(record: Mapping[str, Any], tools: Tools) -> dict[str, Any]:
    """One job (in a worker process): the record's analysis, as it is stored."""
    return analyse_record(record, tools)


def pool(workers: int) -> concurrent.futures.ProcessPoolExecutor:
    """A pool of ``workers`` processes for the analyses, at the lowest priority but not in
    the idle class: a requested analysis gets its share of a busy machine (an engine's
    search started by it inherits the priority)."""
    return worker_pool(workers, preload=[__name__], idle=False)
