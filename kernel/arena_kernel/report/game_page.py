"""A game's page: who sat where and how it ended, its faults, its bots' stderr logs, and
the replay viewer stepping through the renderer's steps."""

from __future__ import annotations

import datetime
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from arena_kernel.model import RunInfo
from arena_kernel.report.html import esc, json_script, page
from arena_kernel.report.renderer import Replay
from arena_kernel.report.replay import RenderedSteps
from arena_kernel.store.sqlite import UNKNOWN_SANDBOX, GameDetail


@dataclass(frozen=True)
class Log:
    """A seat's stderr log as the page links it: ``href`` under the report's folder, or
    None when the run recorded a log that is no longer on disk (``source`` says where)."""

    source: str
    href: str | None


@dataclass(frozen=True)
class Drawing:
    """The game's drawing in the report's assets: the drawer's name (the game's) and its
    script and sheet, paths under the report's folder (None: the renderer has none)."""

    game: str
    script: str | None
    style: str | None


def game_page(
    run: RunInfo,
    detail: GameDetail,
    replay: Replay,
    rendered: RenderedSteps,
    drawing: Drawing | None,
    logs: Mapping[int, Log],
    root: str = "../",
) -> str:
    """The page of one game, ``root`` being the way from it to the report's folder."""
    title = f"game {detail.game_id}: {' vs '.join(detail.seating)}"
    started = datetime.datetime.fromtimestamp(detail.started_at).isoformat(" ", "seconds")
    head = (
        f'<header class="top"><div class="bar"><a class="brand" href="{root}index.html">'
        f"arena report</a>"
        f'<a href="{root}runs/{run.run_id}.html">run {run.run_id}: {esc(run.name)}</a>'
        f"<span>game {detail.game_id}</span></div></header>"
    )
    facts = [
        ("run", f'<a href="{root}runs/{run.run_id}.html">{run.run_id} ({esc(run.name)})</a>'),
        ("game", f"{esc(run.game)}, #{detail.index} of the schedule"),
        ("seed", str(detail.seed)),
        ("started", f"{esc(started)}, lasted {detail.duration:.3f} s"),
        ("sandbox", esc(detail.sandbox or UNKNOWN_SANDBOX)),
        (
            "result",
            esc(detail.reason) + (' <span class="badge warn">void</span>' if detail.void else ""),
        ),
    ]
    body = [
        head,
        "<main>",
        f"<h1>{esc(title)}</h1>",
        f'<p class="subtitle">{esc(_result_line(replay))}</p>',
        '<section class="panel"><div class="standings"><div>',
        _facts(facts),
        "</div><div>",
        _seats(detail, logs),
        "</div></div>",
        _faults(detail),
        "</section>",
        _viewer(rendered, len(replay.events), replay.game),
        "</main>",
        json_script("replay-data", _data(replay, rendered, drawing)),
    ]
    scripts = ["assets/report.js"]
    styles = []
    if drawing is not None and drawing.script:
        scripts.append(drawing.script)
    if drawing is not None and drawing.style:
        styles.append(drawing.style)
    scripts.append("assets/viewer.js")
    return page(title, "".join(body), root=root, scripts=scripts, styles=styles)


def _result_line(replay: Replay) -> str:
    winners = replay.winners()
    if replay.void:
        return f"void: {replay.reason}"
    if len(winners) == 1:
        return f"{winners[0]} won: {replay.reason}"
    if winners:
        return f"{' and '.join(winners)} shared first place: {replay.reason}"
    return replay.reason


def _facts(facts: Sequence[tuple[str, str]]) -> str:
    """Pairs of a name and HTML already escaped."""
    return '<dl class="facts">' + "".join(f"<dt>{k}</dt><dd>{v}</dd>" for k, v in facts) + "</dl>"


def _seats(detail: GameDetail, logs: Mapping[int, Log]) -> str:
    """Who sat where, their ranks (and scores, for a game that has them), their logs."""
    scored = detail.scores is not None
    rows = []
    for seat, bot in enumerate(detail.seating):
        score = f"<td class=num>{detail.scores[seat]:g}</td>" if detail.scores is not None else ""
        out = ' <span class="badge warn">disqualified</span>' if seat in detail.disqualified else ""
        log = logs.get(seat)
        if log is None:
            link = '<span class="missing">none</span>'
        elif log.href is None:
            link = f'<span class="missing" title="{esc(log.source)}">missing</span>'
        else:
            link = f'<a href="{esc(log.href)}">stderr</a>'
        rows.append(
            f"<tr><td class=num>{seat}</td><td>{esc(bot)}{out}</td>"
            f"<td class=num>{detail.ranks[seat]}</td>{score}<td>{link}</td></tr>"
        )
    return (
        "<table><thead><tr><th class=num>seat</th><th>bot</th><th class=num>rank</th>"
        + ("<th class=num>score</th>" if scored else "")
        + "<th>stderr log</th></tr></thead>"
        f"<tbody>{''.join(rows)}</tbody></table>"
    )


def _faults(detail: GameDetail) -> str:
    if not detail.faults:
        return ""
    items = "".join(
        f'<li class="fault">{fault.at:.3f} s: '
        f"{esc(_who(detail.seating, fault.seat))}: "
        f"<strong>{esc(fault.kind)}</strong>: {esc(fault.detail)}</li>"
        for fault in detail.faults
    )
    return f'<h3>Faults</h3><ul class="faults">{items}</ul>'


def _who(seating: Sequence[str], seat: int | None) -> str:
    if seat is None or not 0 <= seat < len(seating):
        return "referee"
    return f"seat {seat} ({seating[seat]})"


def _viewer(rendered: RenderedSteps, events: int, game: str) -> str:
    problem = (
        f'<p class="problem">{esc(rendered.problem)}; shown as its transcript</p>'
        if rendered.problem
        else ""
    )
    return (
        '<section class="panel"><h2>Replay</h2>'
        f"{problem}"
        '<div class="viewer"><nav><ol id="steplist" aria-label="steps"></ol></nav><div>'
        '<div class="controls">'
        '<button type="button" id="first" title="first step (Home)">&laquo;</button>'
        '<button type="button" id="prev" title="previous step (Left)">&lsaquo;</button>'
        f'<input type="range" id="slider" min="0" max="{len(rendered.steps) - 1}" value="0" '
        'aria-label="step">'
        '<button type="button" id="next" title="next step (Right)">&rsaquo;</button>'
        '<button type="button" id="last" title="last step (End)">&raquo;</button>'
        f'<span id="position">1 / {len(rendered.steps)}</span></div>'
        '<h3 id="label"></h3><p id="caption"></p>'
        f'<div id="picture" class="picture picture-{esc(game)}"></div>'
        '<table id="messages"><thead><tr><th class=num>t (s)</th><th>seat</th><th>what</th>'
        "<th>message</th><th class=num>reply (ms)</th></tr></thead><tbody></tbody></table>"
        '<p id="no-messages" class="note" hidden>no message at this step</p>'
        f'<p class="keys">Keys: Left and Right step, Home and End jump. {events} messages '
        "in all.</p>"
        "</div></div></section>"
    )


def _data(replay: Replay, rendered: RenderedSteps, drawing: Drawing | None) -> dict[str, object]:
    """What the viewer reads: the steps and the whole event log, as compact lists."""
    return {
        "drawer": drawing.game if drawing is not None and drawing.script else None,
        "seating": list(replay.seating),
        "steps": [
            {
                "label": step.label,
                "caption": step.caption,
                "picture": step.picture,
                "start": step.events[0],
                "stop": step.events[1],
            }
            for step in rendered.steps
        ],
        "events": [
            [round(e.t, 6), e.kind, e.seat, e.text, e.elapsed, e.cpu] for e in replay.events
        ],
    }
