"""Thin rclpy nodes over the core library: sim, brain, spine, scorer, and the bag recorder.

``contract`` is the whole interface between them (topics, types, QoS, frames, the JSON
envelopes); ``graph`` composes them, ``bag`` records and replays episodes.
"""
