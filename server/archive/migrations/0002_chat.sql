-- A finished game's chat (the room's last messages as Redis kept them), archived with it.

ALTER TABLE games ADD COLUMN chat_at DOUBLE PRECISION NOT NULL DEFAULT 0;  -- the newest message's time

CREATE TABLE chat (
    game_id TEXT NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    seq INTEGER NOT NULL,                -- 1 for the oldest message kept
    data TEXT NOT NULL,                  -- JSON: the message as chat_history sends it
    PRIMARY KEY (game_id, seq)
);
