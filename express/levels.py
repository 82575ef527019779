"""The bots' levels: what each weighs and its budget, in counts, never seconds.

:data:`LEVELS` are the levels the site offers (Easy, Medium, Hard); :data:`BY_NAME` finds
a :class:`Level` by its name, ``hard1`` included (the Hard before issue #31, a player of
the tournament command only). How each level decides: :mod:`express.bot`.
"""

from __future__ import annotations

from dataclasses import dataclass

LEVELS = ("easy", "medium", "hard")


@dataclass(frozen=True)
class Level:
    """The budget of one level (counts, never seconds)."""

    name: str
    mistakes: float  # chance of a uniformly random candidate (Easy)
    full_eval: bool  # set and contract progress, time left
    dets: int  # determinizations for the look-ahead (0: none, one-ply only)
    top_k: int  # candidates given the look-ahead
    plan_beam: int  # beam width of the plan search (0: random usable plan)
    plan_all_cards: bool  # the plan search tries cards the engine cannot use yet
    pick_search: bool  # characters chosen by the plan search under each
    rel: float  # weight of the strongest opponent's value
    diverse: bool = False  # the look-ahead also weighs the best turn to each end space
    round_ahead: bool = False  # the look-ahead plays every seat to the end of the round
    likely_plans: bool = False  # others' hidden plan cards drawn among their usable cards
    plan_top: int = 0  # plans shortlisted by the beam, each simulated over plan_dets
    plan_dets: int = 0  # determinizations a shortlisted plan is simulated on (0: none)
    pick_dets: int = 0  # determinizations a character's plans are simulated on (0: none)
    halving: bool = False  # the look-ahead halves its candidates in stages (Bot.halve)
    turn_sims: int = 0  # at most this many look-ahead rounds a turn (0: dets × candidates)
    turn_work: int = 0  # a turn's look-ahead stops after the sample that passes this many
    # candidate turns scored (0: never), once it has 8 samples
    plan_work: int = 0  # the same for the simulated rounds of a plan decision's shortlist


EASY = Level("easy", mistakes=0.6, full_eval=False, dets=0, top_k=0, plan_beam=0,
             plan_all_cards=False, pick_search=False, rel=0.0)
MEDIUM = Level("medium", mistakes=0.0, full_eval=True, dets=0, top_k=0, plan_beam=1,
               plan_all_cards=False, pick_search=True, rel=0.0)
HARD = Level("hard", mistakes=0.0, full_eval=True, dets=48, top_k=10, plan_beam=6,
             plan_all_cards=True, pick_search=True, rel=0.6, diverse=True,
             round_ahead=True, likely_plans=True, plan_top=6, plan_dets=48, pick_dets=24,
             turn_sims=500, turn_work=50_000, plan_work=40_000)
#: The Hard of issue #30 (before #31's search), kept for comparison in the tournament
#: command only (``hard1``); it is not a level of the site (:data:`LEVELS`).
HARD1 = Level("hard1", mistakes=0.0, full_eval=True, dets=3, top_k=5, plan_beam=3,
              plan_all_cards=True, pick_search=True, rel=0.3, diverse=True)
BY_NAME = {lv.name: lv for lv in (EASY, MEDIUM, HARD, HARD1)}
