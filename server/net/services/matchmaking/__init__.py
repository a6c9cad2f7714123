"""Seeks, quick-pairing pools, and rating finished paired games."""
