-- A finished game's analysis (docs/ANALYSIS.md), kept once with the game.

CREATE TABLE analyses (
    game_id TEXT PRIMARY KEY REFERENCES games (id) ON DELETE CASCADE,
    data TEXT NOT NULL                   -- JSON: the analysis as it is stored in Redis
);
