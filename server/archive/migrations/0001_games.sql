-- Finished games: one row per game, its seats, and every event of its log.
-- Written in the SQL that PostgreSQL and SQLite both read (JSON kept as text).

CREATE TABLE games (
    id TEXT PRIMARY KEY,                 -- the room id
    game TEXT NOT NULL,                  -- the game's name (chess, banqi, ...)
    options TEXT NOT NULL,               -- JSON
    n_seats INTEGER NOT NULL,
    created_at DOUBLE PRECISION NOT NULL,
    ended_at DOUBLE PRECISION NOT NULL,  -- the time of the event that ended the game
    reason TEXT NOT NULL,                -- checkmate, resign, time, ...
    outcome TEXT NOT NULL,               -- JSON: scores, ranks, reason
    rated BOOLEAN NOT NULL,
    category TEXT,                       -- the rating category (chess:blitz), if paired
    clock TEXT,                          -- the time control (5+3), if paired
    version INTEGER NOT NULL,            -- the log's last version: how many events
    archived_at DOUBLE PRECISION NOT NULL
);
CREATE INDEX games_ended ON games (ended_at);

CREATE TABLE seats (
    game_id TEXT NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    seat INTEGER NOT NULL,
    name TEXT,                           -- as shown at the table
    user_name TEXT,                      -- the account, as registered (NULL: a guest or a bot)
    account TEXT,                        -- the account, lower-cased (what queries match)
    score DOUBLE PRECISION NOT NULL,
    seat_rank INTEGER NOT NULL,
    result TEXT NOT NULL,                -- win, loss or draw
    rating DOUBLE PRECISION,             -- before the game (rated games)
    new_rating DOUBLE PRECISION,
    rating_change DOUBLE PRECISION,
    ended_at DOUBLE PRECISION NOT NULL,  -- the game's, for the per-account index
    game TEXT NOT NULL,                  -- the game's, for the per-account filters
    rated BOOLEAN NOT NULL,
    PRIMARY KEY (game_id, seat)
);
CREATE INDEX seats_account ON seats (account, ended_at);

CREATE TABLE events (
    game_id TEXT NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    version INTEGER NOT NULL,
    kind TEXT NOT NULL,
    at DOUBLE PRECISION NOT NULL,
    data TEXT NOT NULL,                  -- JSON
    PRIMARY KEY (game_id, version)
);
