"""Tournaments on the cluster: the director, request routing, operations, their rooms, HTTP."""
