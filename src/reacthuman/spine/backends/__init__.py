"""Where the spine's joint commands go: the simulation or a physical G1."""
