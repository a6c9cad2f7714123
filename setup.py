"""The compiled parts: the chess core (``server/engine/_chess_moves.c``: legal moves, FEN),
the chess bot's search (``server/bots/_chess_search.c``, on the same move generator,
``server/engine/chess_core.h``) and the delta's comparison (``server/rooms/_delta.c``).

Optional: without a C compiler the build goes on and each module uses its pure-Python code
(the same answers, slower). Everything else is in ``pyproject.toml``.
"""

from setuptools import Extension, setup

setup(
    ext_modules=[
        Extension(
            "server.engine._chess_moves",
            ["server/engine/_chess_moves.c"],
            depends=["server/engine/chess_core.h"],
            optional=True,
            extra_compile_args=["-O2"],
        ),
        Extension(
            "server.bots._chess_search",
            ["server/bots/_chess_search.c"],  # with its parts, search_*.h, included
            include_dirs=["server/engine"],
            depends=[
                "server/engine/chess_core.h",
                "server/bots/search_eval.h",
                "server/bots/search_make.h",
                "server/bots/search_common.h",
                "server/bots/search_tree.h",
                "server/bots/search_py.h",
            ],
            libraries=["m"],
            optional=True,
            extra_compile_args=["-O2"],
        ),
        Extension(
            "server.bots._dark_search",
            ["server/bots/_dark_search.c"],  # with dark_tree.h and the chess search's parts
            include_dirs=["server/engine"],
            depends=[
                "server/engine/chess_core.h",
                "server/bots/search_eval.h",
                "server/bots/search_make.h",
                "server/bots/search_common.h",
                "server/bots/dark_tree.h",
                "server/bots/search_py.h",
            ],
            libraries=["m"],
            optional=True,
            extra_compile_args=["-O2"],
        ),
        Extension(
            "server.rooms._delta",
            ["server/rooms/_delta.c"],
            optional=True,
            extra_compile_args=["-O2"],
        ),
    ]
)
