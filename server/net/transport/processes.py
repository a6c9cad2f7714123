"""Pools of worker processes for CPU work (bots' searches), which die with the server.

The workers are forked by multiprocessing's fork server, a clean process started once per
server process that imports the modules the workers need (``preload``) before forking any:
a worker then costs a fork, not an interpreter start and those imports (about 0.7 s of CPU
each with ``spawn``). The fork server holds none of the server's state (it is started as a
new interpreter), so a worker shares nothing with the event loop, as with ``spawn``.

A worker searches in the idle scheduling class: it runs only on CPU time the server that
serves people does not want (else at the lowest priority). It ends the moment the server
does, even when the server is killed with SIGKILL mid-search: a thread of its own waits on
the server's process (a pidfd). ``PR_SET_PDEATHSIG`` would not do: a worker's parent is
the fork server, which lives on while any worker does. The fork server then ends by
itself, its last client gone.
"""

from __future__ import annotations

import concurrent.futures
import contextlib
import multiprocessing
import multiprocessing.context
import os
import select
import threading
import time
from collections.abc import Sequence

from ...store.redis_process import pid_alive

#: every module a pool of this process asked the fork server to import (multiprocessing
#: keeps one fork server a process, started by the first pool's first worker)
_PRELOAD: set[str] = set()


def forkserver(preload: Sequence[str]) -> multiprocessing.context.BaseContext:
    """multiprocessing's fork-server context, importing ``preload`` (and what earlier pools
    of this process asked for) before forking: once the fork server runs, a module not
    preloaded is imported by each worker that needs it."""
    _PRELOAD.update(preload)
    ctx = multiprocessing.get_context("forkserver")
    ctx.set_forkserver_preload(sorted(_PRELOAD))
    return ctx


def worker_pool(
    workers: int, preload: Sequence[str], *, idle: bool = True
) -> concurrent.futures.ProcessPoolExecutor:
    """A pool of ``workers`` processes (started on first use) that die with this process;
    ``idle``: in the idle scheduling class (else at the lowest priority, for work that must
    get its share of a busy machine)."""
    return concurrent.futures.ProcessPoolExecutor(
        workers,
        mp_context=forkserver(preload),
        initializer=_worker_init,
        initargs=(os.getpid(), idle),
    )


def _worker_init(server: int, idle: bool = True) -> None:
    try:
        if not idle:
            raise OSError("the lowest priority asked for")
        os.sched_setscheduler(0, os.SCHED_IDLE, os.sched_param(0))
    except (AttributeError, OSError):
        with contextlib.suppress(OSError):
            os.nice(19)
    try:
        ended: int | None = os.pidfd_open(server)  # readable once the server has ended
    except ProcessLookupError:  # it ended before we got here
        os._exit(0)
    except (AttributeError, OSError):  # no pidfd here (not Linux 5.3+): watch by polling
        ended = None
    threading.Thread(target=_exit_with, args=(server, ended), daemon=True).start()


def _exit_with(server: int, ended: int | None) -> None:
    """The worker's watch on the server: end the worker the moment the server ends (the
    searches release the GIL, so this thread runs even mid-search)."""
    if ended is not None:
        select.select([ended], [], [])
    else:
        while pid_alive(server):
            time.sleep(0.5)
    os._exit(0)
