"""The oracle's tuning: every number ``brain.oracle`` plans with, each with why it has its value.

One frozen ``OracleTuning``; ``TUNING`` is the one the benchmark's oracle uses. A study of a
variant (a wider dodge margin, another hand spacing) passes its own to ``oracle_plan``
(``dataclasses.replace(TUNING, dodge_margin=0.3)``); the figures that measured the defaults are
in BENCHMARKS.md under the headings cited.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class OracleTuning:
    """Lengths in m, times in s, costs in the units of the catch's cost (``brain.oracle``)."""

    # -- the path and the body
    step: float = 1.0 / 30.0
    """s between the path samples the planner considers."""
    box_spacing: float = 0.12
    """m between the sample points of the object's box."""
    default_size: float = 0.1
    """m, each extent of an object whose ground truth has no size (an old truth)."""
    body_radius: float = 0.2
    """m, the torso and legs as a vertical cylinder (as ``spine.outcome`` counts a hit)."""
    body_front: float = 0.15
    """m: the G1's torso reaches 0.08 m ahead of its axis and its bent knees 0.17 m; what a
    catch must keep clear of before the hands meet the object."""
    body_height: float = 1.32
    """m, the top of the body cylinder."""
    catch_body_gap: float = 0.02
    """m the object keeps from the body until it reaches the hands."""
    front_margin: float = 0.03
    """m beyond the body's front and the object's radius that a meeting point must be ahead
    of the hand origin, so the object is met in front of the chest."""

    # -- walking
    walk_clearance: float = 0.3
    """m from the body's axis to a wall, a piece of furniture or an object."""
    obstacle_top: float = 0.05
    """m: lower than this (a rug, a flat book) is stepped over."""
    max_catch_walk: float = 1.2
    """s of walking before a catch (longer walks end too far from the plan)."""
    settle: float = 0.0
    """s after the walking command stops before the hands start to rise."""

    # -- dodging
    dodge_margin: float = 0.2
    """m the body keeps from the object's box all the way to the horizon."""
    min_dodge_move: float = 0.3
    """m a dodge's walk must really take the body (the classifier's move): a command the
    policy hardly follows (a turn on the spot) reads as a dodge on paper and stays put."""
    dodge_clearance_bonus: float = 0.1
    """What a dodge's cost (its walk, m) takes off per m of clearance from the object (up to
    1 m): between walks of nearly one length, the one that keeps further away."""

    # -- when the hands move
    hands_rise: float = 0.25
    """s the hands take from their sides to a catching pose."""
    hands_early: float = 0.08
    """s the hands are in place before the object arrives, at the least."""
    hands_lead: float = 0.25
    """s more, where there is time: a path met a little early still meets."""
    hold_step: float = 0.05
    """s: the hold keyframe comes at least this long after the hands are in place."""
    hold_after: float = 0.5
    """s after the meeting the hands hold their pose (the last keyframe)."""
    landing_margin: float = 0.05
    """s: meet the object at least this long before it lands."""
    path_end: float = 0.2
    """s before the path's last sample: the latest a meeting may be."""
    stand_still: float = 0.3
    """s: the keyframe time of a plan with the hands at rest, or held out toward the object."""

    # -- where the hands meet the object
    chest_height: float = 0.95
    """m: where hands meet an object most surely."""
    hand_above_furniture: float = 0.1
    """m a hand centre keeps above furniture under it: a hand pressed on a table top pushes
    the body away from it (a G1 holding its palms on a counter edge walked back 0.5 m)."""
    hand_clearance: float = 0.1
    """m around furniture's footprint a hand centre counts as over it: the rubber hand
    reaches 0.093 m beyond its centre along the hand (its mesh, test_g1), so a hand held
    0.06 m short of a counter's edge and just below its top pushed on the edge and the G1
    walked back from the ball (surface_cascade-000008/-000009/-000016; BENCHMARKS.md "Hands
    clear of furniture")."""
    hand_gap: float = 0.03
    """m from the object's path to each hand centre, for an object wider than the opening
    between the fists (they land further apart than this asks, ``hand_spacing``, and meet it
    either side)."""
    fist_width: float = 0.05
    """m across a G1 fist."""
    hand_spacing: float = 0.12
    """m centre to centre the two hands come no closer than (fist against fist: targets
    0.06 m apart landed 0.10-0.13 m apart on the proving ground, BENCHMARKS.md "Hands side by
    side"), which leaves an opening between the fists that a tennis ball or a baseball goes
    through."""
    through_the_fists_slack: float = 0.02
    """m added to the opening between the fists for ``through_the_fists``."""
    astride_step: float = 0.01
    """m: where the far arm cannot come across to the object's path, it tries places this
    much further out ..."""
    astride_steps: int = 7
    """... this many times (the opening must stay narrower than the object)."""
    falling_share: float = 0.5
    """An object falls (met under its centre) when it comes down faster than this share of
    its speed across."""
    below_falling: float = 0.5
    """Of the object's radius, how far under its centre the hands meet a falling object."""
    large: float = 0.5
    """m: an object longer than this (a door) is met a little in from its edge ..."""
    edge_inset: float = 0.08
    """m ... by this much."""
    reach_toward: float = 0.4
    """m ahead of the hand origin that hands held out toward an object out of reach go:
    inside the reach map (0.5 m strained the arms and, held in the room while the body
    swayed, fell twice)."""
    reach_toward_drop: float = 0.1
    """m below the hand origin the hands held out toward an object go."""
    reach_toward_apart: float = 0.12
    """m from the line toward the object to each hand held out toward it."""
    ready_after: float = 0.05
    """s: a catch whose hands start to rise later than this holds them ready before (a
    keyframe at the default pose); sooner, they rise from the start."""

    # -- the catch's cost: the lowest wins
    speed_cost: float = 0.5
    """per m/s of the object's speed where the hands meet it: the slowest moment wins."""
    height_cost: float = 1.0
    """per m between the meeting point and ``chest_height``."""
    moved_cost: float = 2.0
    """per m the walk moves the body: the least walking wins."""
    time_cost: float = 0.3
    """per s after the freeze of the meeting: the sooner the better; walking, or hands not
    side by side, each cost as much as meeting it 1 s later (docs/brain.md)."""
    walk_cost: float = 0.3
    """for walking at all: a walk makes the hands land less surely than the gait table and
    the reach map say (a short turning walk and one hand were chosen over standing with both
    for a catch 0.4 s earlier, and missed)."""
    aside_cost: float = 0.3
    """for hands not side by side in the path (one alone, or two astride it), likewise."""

    @property
    def through_the_fists(self) -> float:
        """An object no longer than this (m, its largest extent: a ball) might pass between
        the fists: one fist meets it in its path and the other comes beside it. Not a book, a
        bowl or a tin can, thin one way only: met by one fist, four that side by side were
        caught were missed (two books, two tin cans on the whole set, BENCHMARKS.md "Hands
        side by side")."""
        return self.hand_spacing - self.fist_width + self.through_the_fists_slack


TUNING = OracleTuning()
