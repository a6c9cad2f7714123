"""The one compiled part: legal chess moves (``server/engine/_chess_moves.c``).

Optional: without a C compiler the build goes on and ``server.engine.chess_moves`` uses its
pure-Python generator (the same moves, slower). Everything else is in ``pyproject.toml``.
"""

from setuptools import Extension, setup

setup(
    ext_modules=[
        Extension(
            "server.engine._chess_moves",
            ["server/engine/_chess_moves.c"],
            optional=True,
            extra_compile_args=["-O2"],
        )
    ]
)
