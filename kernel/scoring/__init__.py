"""Scorers: turning stored game outcomes into standings tables."""

from kernel.scoring.base import GameResult, Scorer, Standings
from kernel.scoring.elo import EloScorer, Rating, fit_elo
from kernel.scoring.multiplayer import OpenSkillScorer
from kernel.scoring.wins import WinsScorer

__all__ = [
    "EloScorer",
    "GameResult",
    "OpenSkillScorer",
    "Rating",
    "Scorer",
    "Standings",
    "WinsScorer",
    "fit_elo",
]
