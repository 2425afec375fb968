"""Simulation: SceneSpec -> Genesis scene -> frozen observation window and exact ground truth.

Importing this package does not import Genesis; ``genesis_runtime.genesis()`` does, when a
scene is built (``episode``), the G1 is placed (``body``) or the proving ground is set up.
"""
