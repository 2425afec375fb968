"""The offline planner: a selection from a description without any model but the embedder.

It reads a description the way the Stage-1 planner is asked to, with three kinds of evidence:
the risk-memory units retrieved for it (each votes for the families that stage it, by its
similarity), the words that name a kind of event ("down the stairs", "thrown", "a ramp"), and
the catalogue objects and room the description names. The object must be one the family can
stage (the room may be any: it names the room); a named object the catalogue lacks, or a description
that matches no documented hazard, is an error that says so. The same description always
gives the same selection.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from reacthuman.authoring.retrieval import Hit, RiskIndex
from reacthuman.authoring.risk_memory import RiskUnit
from reacthuman.authoring.selection import (
    Selection,
    SelectionError,
    check_description,
    nearest_objects,
)
from reacthuman.scenes.catalogue import Catalogue, CatalogueObject, default_catalogue
from reacthuman.scenes.samplers import pinnable_objects, sampler_for
from reacthuman.scenes.set_models import CausalChain
from reacthuman.scenes.spec import Family, RoomType, SpeedBand

PLANNER = "offline"
TOP_K = 8  # units retrieved for a description
CHAIN_UNITS = 3  # units a selection rests on, at most
MIN_RELEVANCE = 0.25  # best unit similarity below which, with no other evidence, it is no hazard
UNIT_WEIGHT = 2.0  # a retrieved unit's vote, times its similarity, shared by its families
CUE_WEIGHT = 1.25  # each event word of a family (two at most count)
OBJECT_WEIGHT = 1.0  # the named object can be staged by the family
ROOM_WEIGHT = 0.3  # the named room is one where generation places the family
CHAIN_WEIGHT = 1.0  # two different kinds of object named: one acts on the other
CAUSAL_FAMILIES = (Family.chain_reaction, Family.multi_object)

# Words that name a kind of event, by family: what a person says when they mean it.
FAMILY_CUES: dict[Family, tuple[str, ...]] = {
    Family.object_drop: (
        r"\boff the (edge|table|counter|desk|worktop|nightstand|side)",
        r"\b(over|at) the edge\b",
        r"\b(table|counter|desk) edge\b",
        r"\b(knock|nudg|bump|brush|elbow)\w* (it |them )?off\b",
    ),
    Family.shelf_slide: (
        r"\bshel(f|ves)\b",
        r"\bcupboard\b",
        r"\b(top|high|upper) (rack|cabinet)\b",
    ),
    Family.hanging_fall: (
        r"\b(off|from) the wall\b",
        r"\bwall[ -]mounted\b",
        r"\b(bracket|hook|nail|wall plug|mounting)\b",
        r"\b(comes?|came|breaks?|broke) (loose|away) from\b",
    ),
    Family.ceiling_drop: (r"\bceiling\b", r"\bfrom above\b", r"\boverhead\b"),
    Family.sliding_object: (
        r"\bramps?\b",
        r"\bslopes?\b|\bsloped\b",
        r"\binclines?\b",
        r"\bplank\b",
    ),
    Family.rolling_ball: (
        r"\b(rolls?|rolled|rolling) (off|across|along|toward|towards|down|away)\b",
        r"\b(across|along) the (\w+ ){0,2}floor\b",
    ),
    Family.surface_cascade: (
        r"\bhops?\b",
        r"\b(on)?to (a|the) (stool|chair|bench|step|seat)\b",
        r"\b(bounces?|bounced|lands?|landed|hits?) (off|on) (a|the) (stool|chair|bench|seat)\b",
        r"\boff (a|the) (stool|chair|bench)( seat)?\b",
        r"\bthen (on)?to the (\w+ )?floor\b",
    ),
    Family.furniture_tip: (
        r"\b(tips?|topples?|tipped|toppled|falls?|fell|keels?) over\b",
        r"\b(bookshel(f|ves)|bookcase|wardrobe|dresser|floor lamp|coat rack|standee|cut-?out)\b",
    ),
    Family.stack_collapse: (
        r"\bstack(s|ed)?\b",
        r"\bpiles?\b|\bpiled\b",
        r"\btower\b",
        r"\bcollaps",
    ),
    Family.ladder_slip: (r"\bladders?\b",),
    Family.door_swing: (r"\bdoors?\b", r"\bslams?\b", r"\bswings? (open|shut)\b"),
    Family.pendulum_swing: (
        r"\bpendulum\b",
        r"\bswings?\b(?! (open|shut))",
        r"\b(hanging|suspended|dangling)\b",
        r"\bon a (rope|chain|cord|string)\b",
    ),
    Family.thrown_object: (
        r"\bthrows?\b|\bthrown\b|\bthrew\b",
        r"\btoss(es|ed)?\b",
        r"\b(hurls?|hurled|flings?|flung|lobs?|lobbed|chucks?|pitch(es|ed)?)\b",
    ),
    Family.bouncing_object: (
        r"\bbounc(e|es|ed|ing)\b(?! (off|on) (a|the) (stool|chair|bench|seat))",
    ),
    Family.stair_tumble: (r"\bstairs?\b", r"\bstaircase\b|\bstairwell\b", r"\b(down|the) steps\b"),
    Family.chain_reaction: (
        r"\b(knocks?|knocked|bumps?) into\b",
        r"\b(strikes?|struck|hits?|smash(es)?|rams?)\b",
        r"\bsends? (it|them)\b",
        r"\bwhich (is|then|falls)\b",
    ),
    Family.multi_object: (
        r"\b(a|the) (row|line) of\b",
        r"\bdomino(es)?\b",
        r"\bnewton'?s cradle\b",
        r"\bmomentum (runs|travels|passes)\b",
        r"\bthe (first|last) (one|ball|of them)\b|\bthe first is\b",
    ),
}

ROOM_WORDS: dict[RoomType, str] = {
    RoomType.kitchen: r"\bkitchen\b",
    RoomType.living_room: r"\b(living ?room|lounge|sitting room|family room)\b",
    RoomType.dining_room: r"\bdining( room| table)\b",
    RoomType.bedroom: r"\bbed ?room\b",
    RoomType.hallway: r"\b(hallway|hall|corridor|entrance|entryway|landing)\b",
    RoomType.office: r"\b(office|study)\b",
    RoomType.garage: r"\b(garage|workshop)\b",
    RoomType.playroom: r"\b(playroom|play room|nursery)\b",
    RoomType.laundry_room: r"\b(laundry room|utility room|laundry)\b(?! basket)",
}

SPEED_WORDS: tuple[tuple[SpeedBand, str], ...] = (
    (SpeedBand.very_fast, r"\b(very fast|at full (speed|force)|as hard as)\b"),
    (SpeedBand.fast, r"\b(fast|quickly|hard|violently|hurls?|hurled|flings?|flung)\b"),
    (SpeedBand.slow, r"\b(slowly|gently|lightly|softly)\b"),
)

# Verbs an event's subject comes before ("a <subject> falls"): to notice an object the
# catalogue does not have, rather than quietly staging another.
EVENT_VERBS = (
    r"(falls?|fell|drops?|dropped|slides?|slid|slips?|slipped|tips?|tipped|topples?|toppled|"
    r"rolls?|rolled|bounces?|bounced|swings?|swung|tumbles?|tumbled|collapses?|collapsed|"
    r"hops?|comes? (loose|down|off)|breaks? (loose|free|off)|detaches|flies|is (thrown|tossed|"
    r"knocked|hurled|flung)|crashes)"
)
SUBJECT = re.compile(
    r"\b(?:a|an|the|his|her|their|my|our|your|someone's|somebody's)\s+"
    r"((?:[a-z-]+\s+){0,3}?[a-z-]+)\s+(?:\w+ly\s+)?" + EVENT_VERBS + r"\b"
)
GENERIC_SUBJECTS = {"object", "thing", "item", "something", "it", "one", "load", "weight"}


def normalise(text: str) -> str:
    """Lower case, hyphens and underscores as spaces, possessives dropped, single spaces."""
    text = text.lower().replace("\u2019", "'")
    text = re.sub(r"'s\b", "", text)
    text = re.sub(r"[-_/]", " ", text)
    return re.sub(r"\s+", " ", text).strip()


def object_phrases(obj: CatalogueObject) -> list[str]:
    """What a person calls a catalogue object: its name and, for a genuine object, the name's
    last words and the last words of how it looks ("a black cast-iron frying pan": "frying
    pan", "pan"). A look-alike is named only by its whole name ("foam anvil")."""
    name = obj.name.replace("_", " ")
    if obj.adversarial:
        return [name]
    words = name.split()
    looks = re.split(r"\b(?:of|with|in|behind|full)\b", normalise(obj.looks_like))[0].split()
    looks = [w for w in looks if w not in {"a", "an", "the", "and"}]
    phrases = {name, " ".join(words[-2:]), words[-1], " ".join(looks[-2:])}
    return sorted(phrases, key=lambda p: (-len(p.split()), p))


def named_objects(text: str, catalogue: Catalogue) -> dict[str, int]:
    """Catalogue objects the description names, with how many words name each (the longest
    phrase that matches, plural or singular)."""
    found: dict[str, int] = {}
    for obj in catalogue.objects:
        for phrase in object_phrases(obj):
            if re.search(rf"\b{re.escape(phrase)}(s|es)?\b", text):
                found[obj.name] = max(found.get(obj.name, 0), len(phrase.split()))
    return found


@dataclass(frozen=True)
class Reading:
    """What the offline planner read in a description, for a selection and for errors."""

    family: Family
    scores: dict[Family, float]
    hits: list[Hit]
    objects: dict[str, int]
    room: RoomType | None


def _family_scores(
    text: str, hits: list[Hit], objects: dict[str, int], room: RoomType | None, catalogue: Catalogue
) -> dict[Family, float]:
    scores: dict[Family, float] = {}
    longest = max(objects.values(), default=0)
    best_named = [name for name, words in objects.items() if words == longest]
    kinds = {catalogue.get(name).name.split("_")[-1] for name in objects}
    for family in Family:
        cues = sum(1 for cue in FAMILY_CUES[family] if re.search(cue, text))
        score = CUE_WEIGHT * min(cues, 2)
        for hit in hits:
            if family in hit.unit.families:
                score += UNIT_WEIGHT * max(hit.score, 0.0) / len(hit.unit.families)
        stageable = pinnable_objects(family, catalogue)
        if any(name in stageable for name in best_named):
            score += OBJECT_WEIGHT
        if room is not None and room in sampler_for(family).rooms:
            score += ROOM_WEIGHT
        if family in CAUSAL_FAMILIES and len(kinds) > 1:
            score += CHAIN_WEIGHT
        scores[family] = round(score, 6)
    return scores


def read(text: str, index: RiskIndex, catalogue: Catalogue | None = None) -> Reading:
    catalogue = catalogue if catalogue is not None else default_catalogue()
    plain = normalise(text)
    hits = index.search(text, TOP_K)
    objects = named_objects(plain, catalogue)
    rooms = [room for room, words in ROOM_WORDS.items() if re.search(words, plain)]
    room = rooms[0] if rooms else None
    scores = _family_scores(plain, hits, objects, room, catalogue)
    cued = any(re.search(cue, plain) for cues in FAMILY_CUES.values() for cue in cues)
    if not objects and not cued and hits[0].score < MIN_RELEVANCE:
        raise SelectionError(
            f"the description matches no household hazard the risk-memory bank documents "
            f"(best match {hits[0].score:.2f}, {hits[0].unit.id!r}): describe, in English, an "
            "object and what it does, e.g. 'a cast-iron pan slides off the counter'"
        )
    # The best reading that can be staged: a family that can stage the object named most
    # fully (else the best overall, whose error then says why).
    longest = max(objects.values(), default=0)
    named = [name for name, words in objects.items() if words == longest]
    stageable = [
        f for f in Family if not named or any(n in pinnable_objects(f, catalogue) for n in named)
    ]
    family = max(stageable or list(Family), key=lambda f: (scores[f], -list(Family).index(f)))
    return Reading(family, scores, hits, objects, room)


def _choose_object(
    reading: Reading, plain: str, catalogue: Catalogue, family_units: list[Hit]
) -> str:
    family = reading.family
    stageable = pinnable_objects(family, catalogue)
    # The objects named most fully ("foam bowling ball", not the "bowling ball" inside it).
    longest = max(reading.objects.values(), default=0)
    named = sorted(name for name, words in reading.objects.items() if words == longest)
    for name in named:
        if name in stageable:
            return name
    if named:
        name = named[0]
        raise SelectionError(
            f"{family.value} (what the description reads as) cannot stage {name!r}; it stages "
            + ", ".join(sorted(stageable))
        )
    subject = SUBJECT.search(plain)
    if subject is not None:
        words = subject.group(1).split()
        if not set(words) & GENERIC_SUBJECTS:
            raise SelectionError(
                f"the catalogue has no {subject.group(1)!r}; the nearest objects it has are "
                + ", ".join(nearest_objects(subject.group(1), catalogue))
                + " (name one of them, or add the object to the catalogue)"
            )
    votes: dict[str, float] = {}
    for hit in family_units:
        for obj in hit.unit.objects:
            if obj in stageable:
                votes[obj] = votes.get(obj, 0.0) + hit.score
    if votes:
        return max(sorted(votes), key=lambda name: votes[name])
    return stageable[0]


def plan(
    description: str, index: RiskIndex, catalogue: Catalogue | None = None
) -> tuple[Selection, list[Hit]]:
    """The selection for ``description`` and the units retrieved for it (the closest ones,
    and the closest of the chosen family's when none of those stages it)."""
    catalogue = catalogue if catalogue is not None else default_catalogue()
    text = check_description(description)
    plain = normalise(text)
    reading = read(text, index, catalogue)
    family = reading.family
    sampler = sampler_for(family)
    supporting = [hit for hit in reading.hits if family in hit.unit.families]
    if not supporting:  # the family came from words and objects: its closest units
        ranked = index.search(text, len(index.bank.units))
        supporting = [hit for hit in ranked if family in hit.unit.families]
    supporting = supporting[:CHAIN_UNITS]
    obj = _choose_object(reading, plain, catalogue, supporting)
    room = reading.room
    if room is None:
        room = _room_from_units(supporting, sampler.rooms)
    speed = None
    if not sampler.gravity_paced:
        speed = next((band for band, words in SPEED_WORDS if re.search(words, plain)), None)
    lead = supporting[0].unit
    selection = Selection(
        family=family,
        object=obj,
        room=room,
        speed=speed,
        units=[hit.unit.id for hit in supporting],
        causal_chain=causal_chain(lead, catalogue.get(obj), room, text),
        severity=lead.severity,
    )
    retrieved = reading.hits + [hit for hit in supporting if hit not in reading.hits]
    return selection, retrieved


def _room_from_units(units: list[Hit], rooms: tuple[RoomType, ...]) -> RoomType:
    for hit in units:
        for room in hit.unit.rooms:
            if room in rooms:
                return room
    return rooms[0]


def causal_chain(unit: RiskUnit, obj: CatalogueObject, room: RoomType, trigger: str) -> CausalChain:
    """ICAT's initial scene -> trigger -> outcome, from the unit the selection rests on most."""
    where = room.value.replace("_", " ")
    return CausalChain(
        initial_scene=f"In the {where}: {obj.looks_like}. As documented: {unit.conditions}"[:600],
        trigger=trigger[:600],
        outcome=unit.consequence[:600],
    )
