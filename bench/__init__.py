"""Benchmarks (not tests): arena runs and the bench-only bots they need."""
