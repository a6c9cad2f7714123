"""The worker processes' side of the analysis service: a pool of processes (spawned, at the
lowest priority, dying with the server, as the bots' are) and the function each job runs
there: the pure analysis of a finished game's record (``server/analysis/``)."""

from __future__ import annotations

import concurrent.futures
import multiprocessing
import os
from collections.abc import Mapping
from typing import Any

from ....analysis.records import Tools, analyse_record
from ..seats.bots import worker_init


def analyse(record: Mapping[str, Any], tools: Tools) -> dict[str, Any]:
    """One job (in a worker process): the record's analysis, as it is stored."""
    return analyse_record(record, tools)


def pool(workers: int) -> concurrent.futures.ProcessPoolExecutor:
    """A pool of ``workers`` processes for the analyses, at the lowest priority but not in
    the idle class: a requested analysis gets its share of a busy machine (an engine's
    search started by it inherits the priority)."""
    ctx = multiprocessing.get_context("spawn")
    return concurrent.futures.ProcessPoolExecutor(
        workers, mp_context=ctx, initializer=worker_init, initargs=(os.getpid(), False)
    )
