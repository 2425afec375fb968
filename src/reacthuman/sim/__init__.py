"""Simulation: SceneSpec -> Genesis scene -> frozen observation window and exact ground truth.

Importing this package does not import Genesis; only ``builder`` and ``episode`` do.
"""
