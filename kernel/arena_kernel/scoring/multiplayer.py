"""Ratings for games of any number of players: openskill's Plackett-Luce model.

Plackett-Luce reads a whole finishing order (ties included), where pairwise Elo would
have to break a four-player game into made-up duels. It is an online Bayesian update, so
games are rated in schedule order, which keeps the ratings reproducible.
"""

from __future__ import annotations

from collections.abc import Sequence

from arena_kernel.model import Estimate, Standings
from arena_kernel.scoring.base import GameResult, Scorer, plural


class OpenSkillScorer(Scorer):
    """openskill Plackett-Luce ratings (mu, sigma) with default parameters, ranked by the
    conservative ordinal ``mu - 3 sigma``, so a bot with few games is not ranked on luck.

    Each seat is a one-bot team; tied ranks are passed as ties. Games without two different
    bots are skipped: a bot cannot be rated against itself.
    """

    name = "openskill"
    summary = "Plackett-Luce ratings for any number of players (ranked by mu - 3 sigma)"

    def score(self, games: Sequence[GameResult], bots: Sequence[str]) -> Standings:
        from openskill.models import PlackettLuce  # a fifth of a command's start: on use

        model = PlackettLuce()
        ratings = {bot: model.rating(name=bot) for bot in bots}
        played = dict.fromkeys(bots, 0)
        skipped = 0
        for game in games:
            if len(set(game.seating)) != len(game.seating) or len(game.seating) < 2:
                skipped += 1
                continue
            teams = model.rate([[ratings[bot]] for bot in game.seating], ranks=list(game.ranks))
            for bot, (rating,) in zip(game.seating, teams, strict=True):
                ratings[bot] = rating
                played[bot] += 1
        order = sorted(bots, key=lambda bot: (-ratings[bot].ordinal(), bot))
        rows = [
            (
                bot,
                round(ratings[bot].mu, 2),
                round(ratings[bot].sigma, 2),
                round(ratings[bot].ordinal(), 2),
                played[bot],
            )
            for bot in order
        ]
        notes = []
        if skipped:
            notes.append(f"{plural(skipped, 'game')} without distinct bots in every seat skipped")
        return Standings(
            title="OpenSkill (Plackett-Luce)",
            columns=("bot", "mu", "sigma", "ordinal", "games"),
            rows=rows,
            notes=notes,
            estimate="mu, from mu - 3 sigma (the ordinal it ranks by) to mu + 3 sigma",
            estimates={
                bot: Estimate(r.mu, r.mu - 3 * r.sigma, r.mu + 3 * r.sigma)
                for bot, r in ratings.items()
                if played[bot]
            },
        )
