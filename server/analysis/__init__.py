"""Analysis of finished games: every position evaluated by the game's strongest engine at a
fixed budget, every move judged against the best one (inaccuracy, mistake, blunder), a
summary per player (docs/ANALYSIS.md).

Pure and synchronous (it runs in a worker process, never on the event loop): a finished
game's record in, plain JSON out. One module per subject:

- :mod:`.judgement`: the scale (winning chances, lichess's) and the thresholds;
- :mod:`.report`: the stored form, and lichess's shapes of it;
- :mod:`.replay`: a record's positions, through the engine contract;
- :mod:`.plies`: moves judged on a line of evaluations, or as their mover's search saw them;
- :mod:`.chess_analysis` (Stockfish, python-chess's engine API, PGN as lichess writes it),
  :mod:`.xiangqi_analysis` (Fairy-Stockfish over :mod:`.uci_process`),
  :mod:`.search_analysis` (the perfect-information games' own alpha-beta),
  :mod:`.dark_analysis` and :mod:`.banqi_analysis` (the truth and the mover's view),
  :mod:`.many_seats` (Yonin Shogi's max^n), :mod:`.simultaneous` (Apocalypse's decoupled
  UCT);
- :mod:`.records`: the one entry point, by game.
"""
