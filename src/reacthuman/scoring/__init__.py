"""Scoring: the five metrics and four safety rules per decision (paper section 4)."""
