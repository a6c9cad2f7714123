-- Which seats a bot held: a player's games filter "against the computer" on it.

ALTER TABLE seats ADD COLUMN bot BOOLEAN NOT NULL DEFAULT FALSE;  -- the seat was a bot's
