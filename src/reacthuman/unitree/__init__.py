"""Unitree's low-level DDS interface of the G1 (``unitree_hg``): the messages, their CRC, the
channel, the guard that alone writes ``rt/lowcmd``, the spine on a robot's state stream, and
a simulated G1 that speaks it."""
