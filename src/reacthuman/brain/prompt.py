"""The one prompt every model gets (paper 5.1: identical prompts and output schema).

Versioned: changing the text changes ``PROMPT_VERSION``, which is part of the response-cache
key, so old answers are never reused for a new question. The output schema is generated from
``ReactionPlan`` (never written twice). As in the paper, the model gets frames only: no text
names or describes the objects. Only the legend ablation (``--legend``, an observation that
carries a legend) adds the objects by how they look, under neutral ids.
"""

from __future__ import annotations

import base64
import json
from pathlib import Path
from typing import Any

from reacthuman import robot
from reacthuman.brain.plan import ReactionPlan
from reacthuman.observation import Observation, read_shown
from reacthuman.scenes.spec import CameraName

PROMPT_VERSION = "2"  # 2: frames only; the legend is an ablation

SYSTEM = """You are the brain of a Unitree G1 humanoid robot (1.32 m tall) standing in a home.
Something has just happened near you. Time is frozen: you see the last {window:.1f} s from
{cameras}, and you must commit now to one motor plan that your body will
execute the moment time resumes. React like a competent person: catch what is safe and
worth catching, get out of the way of what is dangerous, and stay put only if nothing will
reach you.

Your body and its frame (x forward, y to your left, z up, metres, origin on the floor
between your feet, facing where you face now):
- walking_cmd [vx, vy, yaw_rate]: forward speed up to {fwd} m/s, backward up to {back} m/s,
  sideways up to {lat} m/s, turning up to {yaw} rad/s; held for walking_duration seconds
  (at most {dur:.0f} s), then you stand.
- keyframes: where your hands should be and when (t, seconds after time resumes, at most
  {kt:.0f} s; at most {nk} keyframes). left_hand and right_hand are [x, y, z] relative to your
  hand origin, the point midway between your shoulders, {oz} m above the floor; each hand can
  reach {reach} m from it. Hands at rest hang at {rest_l} and {rest_r}. knee_bend from 0
  (standing) to 1 (deep crouch). Hand targets move with you as you walk.

Answer with one JSON object and nothing else, following this JSON Schema:
{schema}

Example of the format (not advice for this scene):
{example}"""

EXAMPLE = {  # the format only: it describes none of the catalogue's objects
    "object_identified": "the small thing falling toward my right hand",
    "intent": "it looks light and will land just in front of me; step in and catch it "
    "with both hands",
    "confidence": 0.7,
    "walking_cmd": [0.3, 0.0, 0.0],
    "walking_duration": 0.5,
    "keyframes": [
        {
            "t": 0.3,
            "left_hand": [0.35, 0.1, -0.2],
            "right_hand": [0.35, -0.1, -0.2],
            "knee_bend": 0.1,
        }
    ],
}


def output_schema() -> dict[str, Any]:
    schema = ReactionPlan.model_json_schema()
    schema["properties"].pop("clipped", None)
    return schema


CAMERA_COUNT = {1: "one camera", 2: "two synchronized cameras", 3: "three synchronized cameras"}
VIEW_ABOUT = {  # what each view is, as the user message says it
    CameraName.egocentric: "your head camera",
    CameraName.closeup: "beside the event",
    CameraName.overhead: "high behind you",
}


def system_prompt(observation: Observation) -> str:
    """The system prompt; the cameras it names are the observation's (a benchmark scene's
    three, or the cameras a robot has), so the words never promise a view that is absent."""
    return SYSTEM.format(
        window=observation.window,
        cameras=CAMERA_COUNT.get(len(observation.cameras), f"{len(observation.cameras)} cameras"),
        fwd=robot.MAX_FORWARD_SPEED,
        back=robot.MAX_BACKWARD_SPEED,
        lat=robot.MAX_LATERAL_SPEED,
        yaw=robot.MAX_YAW_RATE,
        dur=robot.MAX_WALKING_DURATION,
        kt=robot.MAX_KEYFRAME_TIME,
        nk=robot.MAX_KEYFRAMES,
        oz=robot.HAND_ORIGIN[2],
        reach=robot.ARM_REACH,
        rest_l=list(robot.REST_LEFT_HAND),
        rest_r=list(robot.REST_RIGHT_HAND),
        schema=json.dumps(output_schema(), separators=(",", ":")),
        example=json.dumps(EXAMPLE),
    )


def _data_url(folder: Path, file: str) -> str:
    """A frame as a data URL, read as a brain may be shown it (``observation.read_shown``)."""
    return "data:image/png;base64," + base64.b64encode(read_shown(folder, file)).decode("ascii")


def legend_text(observation: Observation) -> str:
    """The legend ablation's lines (empty without a legend, the default)."""
    if not observation.legend:
        return ""
    lines = "\n".join(f"- {entry.id}: {entry.looks_like}" for entry in observation.legend)
    return f"Objects in view (by how they look):\n{lines}\n\n"


def views_text(observation: Observation) -> str:
    """'egocentric = your head camera; closeup = beside the event; ...' for its cameras."""
    return "; ".join(f"{cam.name.value} = {VIEW_ABOUT[cam.name]}" for cam in observation.cameras)


def frame_content(observation: Observation, folder: Path) -> list[dict[str, Any]]:
    """The frames as message parts, in time order, each labelled with its time and view
    (what a brain is shown; the perception probes show the same). ``folder`` is the brain's
    folder (frame files are relative to it). It reads files: async callers run it off their
    event loop; a frame that cannot be shown raises (UnsafeFile, OSError)."""
    content: list[dict[str, Any]] = [
        {
            "type": "text",
            "text": f"{legend_text(observation)}Frames follow, oldest first: "
            f"{len(observation.frame_times)} moments x {len(observation.cameras)} views "
            f"({views_text(observation)}).",
        },
    ]
    for t in observation.frame_times:
        for frame in (f for f in observation.frames if f.t == t):
            content.append({"type": "text", "text": f"t = {t:.2f} s, view: {frame.view.value}"})
            content.append(
                {"type": "image_url", "image_url": {"url": _data_url(folder, frame.file)}}
            )
    return content


def build_messages(observation: Observation, folder: Path) -> list[dict[str, Any]]:
    """OpenAI chat messages: the system prompt, then the frames in time order with labels."""
    content = frame_content(observation, folder)
    content.append({"type": "text", "text": "Time is frozen now. Your plan, as one JSON object:"})
    return [
        {"role": "system", "content": system_prompt(observation)},
        {"role": "user", "content": content},
    ]


REASK = (
    "Your reply could not be used: {reason}. Answer again with exactly one JSON object "
    "that follows the schema, and nothing else."
)
