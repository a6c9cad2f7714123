"""The compiled parts: the chess core (``server/engine/_chess_moves.c``: legal moves, FEN)
and the delta's comparison (``server/rooms/_delta.c``).

Optional: without a C compiler the build goes on and each module uses its pure-Python code
(the same answers, slower). Everything else is in ``pyproject.toml``.
"""

from setuptools import Extension, setup

setup(
    ext_modules=[
        Extension(
            "server.engine._chess_moves",
            ["server/engine/_chess_moves.c"],
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
