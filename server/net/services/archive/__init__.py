"""Finished games leaving Redis for the archive, and reads of them wherever they are."""
