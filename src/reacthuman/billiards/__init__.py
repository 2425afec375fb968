"""BilliardPhys-Bench (``../shared/seeds/billiardphys-paper.txt``) in the ReactHuman harness:
billiard tables whose exact future is asked of a model from one image."""
