"""The report's one game page, ``game.html``: ``game.html#<id>`` shows game ``id``.

The page holds no game of its own: ``viewer.js`` finds the replay file that holds the id
(the index below), loads it as a script and draws the game from its record (see
:mod:`arena_kernel.report.replay_files` and :mod:`arena_kernel.report.game_record`): who
sat where, how it ended, its faults and stderr logs, and the replay viewer. Every game's
drawing script and sheet is on the page, so one page shows the games of every run.
"""

from __future__ import annotations

from collections.abc import Sequence

from arena_kernel.report.html import json_script, page

VIEWER = "game.html"
"""The game page's file, in the report's folder."""


def game_href(root: str, game_id: int) -> str:
    """The link to game ``game_id`` from a page ``root`` away from the report's folder."""
    return f"{root}{VIEWER}#{game_id}"


def viewer_page(
    files: Sequence[tuple[int, str]], scripts: Sequence[str], styles: Sequence[str]
) -> str:
    """``game.html``: ``files`` are the replay files (the first game id each holds, and
    its name), ``scripts`` and ``styles`` the games' drawings (paths in the report)."""
    body = (
        '<header class="top"><div class="bar"><a class="brand" href="index.html">'
        'arena report</a><a id="run-link" href="index.html"></a><span id="game-name"></span>'
        "</div></header>"
        '<main><h1 id="title">game</h1><p class="subtitle" id="result"></p>'
        '<p id="missing" hidden></p>'
        '<div id="game" hidden>'
        '<section class="panel"><div class="standings"><div><dl class="facts" id="facts">'
        '</dl></div><div><table id="seats"><thead><tr><th class="num">seat</th><th>bot</th>'
        '<th class="num">rank</th><th class="num score">score</th><th>stderr log</th></tr>'
        "</thead><tbody></tbody></table></div></div>"
        '<div id="faults-part" hidden><h3>Faults</h3><ul class="faults" id="faults"></ul></div>'
        '<div id="log-part" hidden><h3 id="log-title"></h3><pre id="log"></pre></div>'
        "</section>"
        '<section class="panel"><h2>Replay</h2><p id="problem" hidden></p>'
        '<div class="viewer"><nav><ol id="steplist" aria-label="steps"></ol></nav><div>'
        '<div class="controls">'
        '<button type="button" id="first" title="first step (Home)">&laquo;</button>'
        '<button type="button" id="prev" title="previous step (Left)">&lsaquo;</button>'
        '<button type="button" id="play" title="play from here (Space)">play</button>'
        '<input type="range" id="slider" min="0" max="0" value="0" aria-label="step">'
        '<button type="button" id="next" title="next step (Right)">&rsaquo;</button>'
        '<button type="button" id="last" title="last step (End)">&raquo;</button>'
        '<label class="speed">steps/s<select id="speed">'
        '<option value="0.5">0.5</option><option value="1">1</option>'
        '<option value="2" selected>2</option><option value="5">5</option>'
        '<option value="10">10</option></select></label>'
        '<span id="position"></span></div>'
        '<h3 id="label"></h3><p id="caption"></p>'
        '<div id="picture" class="picture"></div>'
        '<div class="views"><div><h3>Referee: every message of this step</h3>'
        '<table id="messages"><thead><tr><th class=num>t (s)</th><th>seat</th><th>what</th>'
        "<th>message</th><th class=num>reply (ms)</th></tr></thead><tbody></tbody></table>"
        '<p id="no-messages" class="note" hidden>no message at this step</p></div>'
        '<div><h3><label>Seat view<select id="seat-view"></select></label></h3>'
        '<p class="note">what this bot was sent and answered up to this step (this '
        "step's in bold)</p>"
        '<div class="seat-scroll"><table id="seat-messages"><thead><tr>'
        "<th class=num>t (s)</th><th>what</th><th>message</th></tr></thead><tbody></tbody>"
        "</table></div></div></div>"
        '<p class="keys" id="keys"></p>'
        "</div></div></section></div></main>"
        + json_script("replay-files", [[first, name] for first, name in files])
    )
    return page(
        "game",
        body,
        root="",
        scripts=["assets/report.js", *scripts, "assets/viewer.js"],
        styles=styles,
    )
