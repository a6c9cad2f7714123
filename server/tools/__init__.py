"""Tools beside the server: ``kibitz arena`` (bot matches), ``kibitz bench`` (load and engine
benchmarks), the labelled cheating twin used only by benchmarks, and the bot-latency bench."""
