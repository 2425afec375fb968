"""BilliardPhys-Bench (arXiv 2605.30900) in the ReactHuman harness:
billiard tables whose exact future is asked of a model from one image."""
