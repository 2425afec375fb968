"""Seeded scene generation: SceneSpec, the object catalogue, the 17 event families and labels."""
