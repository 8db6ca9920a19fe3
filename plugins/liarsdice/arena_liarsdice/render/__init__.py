"""Liar's Dice in the HTML report: the steps of a stored game and the script that draws them."""

from __future__ import annotations

from collections.abc import Sequence
from importlib.resources import files

from arena_kernel.plugin import Renderer, Replay, Step
from arena_liarsdice.render.steps import game_steps


class LiarsDiceRenderer(Renderer):
    name = "liarsdice"
    summary = "every player's dice face up, the round's bids, each challenge and who lost a die"

    def steps(self, replay: Replay) -> Sequence[Step]:
        return game_steps(replay)

    def script(self) -> str:
        return files(__package__).joinpath("render.js").read_text(encoding="utf-8")

    def style(self) -> str:
        return files(__package__).joinpath("render.css").read_text(encoding="utf-8")
