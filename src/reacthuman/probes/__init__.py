"""Perception probes (HumanPhys-style, arXiv humanphys): quantitative questions about the
frames a model saw before its decision, labelled exactly from simulator state, so a wrong
decision can be told apart as "did not perceive" or "perceived but decided badly"."""
