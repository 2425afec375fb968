"""The brain: prompts, model clients and baselines that turn an observation into a ReactionPlan."""
