"""Scenes from words: the risk-memory bank that grounds them (ICAT), retrieval, the planner."""
