"""Analysis of finished games: every position evaluated by a strong engine at a fixed budget,
every move judged against the best one (inaccuracy, mistake, blunder), a summary per player.

Pure and synchronous (it runs in a worker process, never on the event loop): a game's moves
in, plain values out. :mod:`.judgement` holds the scale (winning chances, lichess's) and the
thresholds; :mod:`.chess_analysis` analyses chess with a UCI engine (Stockfish) and writes
the result into PGN as lichess does (``[%eval ...]`` comments, ``??``/``?``/``?!``).
"""
