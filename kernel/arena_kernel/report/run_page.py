"""A run's page: its settings, every scorer's table with its estimates drawn, the games
lost to faults, each bot's reply times, the cross-table, the ranking scorer's figures
over the games, and the list of games with its filters."""

from __future__ import annotations

import datetime
import json
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from arena_kernel.match.standings import run_standings
from arena_kernel.model import RunInfo, Standings
from arena_kernel.report.analysis import cross_table, rating_history, result_kind
from arena_kernel.report.charts import estimate_chart, history_chart, llr_chart
from arena_kernel.report.html import esc, page, table
from arena_kernel.report.league import LeagueView, league_section
from arena_kernel.report.stats import BotStats, fault_kinds
from arena_kernel.scoring.base import Scorer, roster
from arena_kernel.scoring.sprt import bounds
from arena_kernel.scoring.sprt_run import SprtStep, settings_of
from arena_kernel.store.sqlite import GameDetail, sandbox_counts


@dataclass(frozen=True)
class RunView:
    """Everything the page shows of one run, read from the store once."""

    run: RunInfo
    spec: Mapping[str, Any]
    games: Sequence[GameDetail]
    stats: Sequence[BotStats]
    created: float | None = None
    finished: float | None = None
    sprt_steps: Sequence[SprtStep] = ()
    """The run's SPRT a pair at a time, as stored (none without ``[sprt]``)."""
    league: LeagueView | None = None
    """A league's ladder and ratings over time (None: the run is no league)."""


def scorers_of(spec: Mapping[str, Any]) -> tuple[list[str], str]:
    """The run's scorers and the one that ranks: ``ranking`` in its stored spec, the first
    scorer for a run stored before the key existed."""
    scorers = [str(name) for name in spec.get("scorers") or ["wins"]]
    return scorers, str(spec.get("ranking") or scorers[0])


def run_pages(
    view: RunView, scorer_class: Callable[[str], type[Scorer]], roots: Sequence[str]
) -> list[str]:
    """The page of one run once per way to the report's folder in ``roots`` (``"../"``
    for ``runs/<id>.html``, ``""`` for an index.html that is the run's page), its figures
    computed once."""
    run, spec = view.run, view.spec
    games = sorted(view.games, key=lambda g: g.index)
    bots = roster(games, [str(b["name"]) for b in spec.get("bots", [])])
    scorers, ranking = scorers_of(spec)
    tables, faults, sprt, own = run_standings(
        games, bots, scorers, scorer_class, spec, view.sprt_steps
    )
    title = f"run {run.run_id}: {run.name}"
    stored = f"{run.done_games} of {run.total_games} games stored"
    if view.finished is None and run.done_games < run.total_games:
        stored += " (not finished)"
    middle = "".join(
        [
            "<main>",
            f"<h1>{esc(title)}</h1>",
            f'<p class="subtitle">{esc(run.game)}: {esc(stored)}</p>',
            _settings(view, scorers, ranking),
            _standings(tables, scorers, ranking, bots),
            _panel(own, "format"),
            league_section(view.league),
            _panel(sprt, "sprt", _llr_chart(view)),
            _faults(faults),
            _stats(view.stats),
            _cross(games, bots),
            _history(games, bots, ranking, scorer_class),
        ]
    )
    return [
        page(
            title,
            _top(root) + middle + _games(games, bots, root) + "</main>",
            root=root,
            scripts=["assets/run.js"],
        )
        for root in roots
    ]


def _top(root: str) -> str:
    return (
        f'<header class="top"><div class="bar"><a class="brand" href="{root}index.html">'
        "arena report</a></div></header>"
    )


def _when(stamp: float | None) -> str:
    if stamp is None:
        return "-"
    return datetime.datetime.fromtimestamp(stamp).isoformat(" ", "seconds")


def _settings(view: RunView, scorers: Sequence[str], ranking: str) -> str:
    spec = view.spec
    sandboxes = sandbox_counts(view.games)
    facts = [
        ("game", esc(view.run.game) + _options(spec.get("game_options") or {})),
        ("format", esc(_format(spec))),
        ("seed", esc(spec.get("seed", "-"))),
        ("clocks (s)", _clocks(spec.get("clock") or {})),
        ("limits", _pairs(spec.get("limits") or {})),
        ("sandbox", esc(", ".join(f"{mode} ({n})" for mode, n in sandboxes.items()) or "-")),
        ("scorers", esc(", ".join(scorers)) + f"; <strong>{esc(ranking)}</strong> ranks"),
        ("created", esc(_when(view.created))),
        ("finished", esc(_when(view.finished))),
        ("database", esc(view.run.database)),
    ]
    items = "".join(f"<dt>{name}</dt><dd>{value}</dd>" for name, value in facts)
    return f'<section class="panel"><h2>Settings</h2><dl class="facts">{items}</dl></section>'


def _options(options: Mapping[str, Any]) -> str:
    if not options:
        return ""
    return " (" + esc(", ".join(f"{k} = {json.dumps(v)}" for k, v in options.items())) + ")"


def _format(spec: Mapping[str, Any]) -> str:
    seats = spec.get("seats")
    seats_text = ", ".join(map(str, seats)) if isinstance(seats, list) else str(seats or "-")
    size = f"{spec['games']} games" if spec.get("games") else f"{spec.get('rounds', 1)} rounds"
    if spec.get("format") == "league":
        block = (spec.get("league") or {}).get("block")
        size = f"blocks of {block} games" if block else "blocks of a game per bot"
    challenger = f", challenger {spec['challenger']}" if spec.get("challenger") else ""
    return f"{spec.get('format', '-')}{challenger}, {seats_text} seats, {size}"


def _pairs(values: Mapping[str, Any]) -> str:
    """``startup 10, reply 3, game none``: a key without a value is not limited."""
    return esc(", ".join(f"{k} {'none' if v is None else v}" for k, v in values.items()) or "-")


def _clocks(clock: Mapping[str, Any]) -> str:
    """The clocks' limits after what they measure: ``wall time: startup 10, reply 3, ...``
    or ``CPU time: ...; wall cap 10 times the limit``. A run stored before CPU-time clocks
    has no mode: its clocks measured wall time."""
    limits = _pairs({k: v for k, v in clock.items() if k not in ("mode", "wall_cap")})
    if (clock.get("mode") or "wall") == "wall":
        return f"wall time: {limits}"
    cap = clock.get("wall_cap")
    return f"CPU time: {limits}" + ("" if cap is None else esc(f"; wall cap {cap} times the limit"))


def _standings(
    tables: Sequence[Standings], scorers: Sequence[str], ranking: str, bots: Sequence[str]
) -> str:
    parts = ['<section class="panel"><h2>Standings</h2>']
    for name, standings in zip(scorers, tables, strict=True):
        badge = ' <span class="badge">ranks the bots</span>' if name == ranking else ""
        notes = "".join(f'<p class="note">note: {esc(n)}</p>' for n in standings.notes)
        order = [str(row[0]) for row in standings.rows]
        chart = estimate_chart(standings.estimates, order, standings.estimate, bots)
        figure = (
            f'<div>{chart}<p class="note">{esc(standings.estimate)}</p></div>'
            if chart
            else '<div><p class="note">this scorer gives no estimates to draw</p></div>'
        )
        parts.append(
            f'<h3 id="scorer-{esc(name)}">{esc(standings.title)}{badge}</h3>'
            f'<div class="standings"><div class="scroll">'
            f"{table(standings.columns, standings.rows)}{notes}</div>{figure}</div>"
        )
    parts.append("</section>")
    return "".join(parts)


def _panel(extra: Standings | None, anchor: str, figure: str = "") -> str:
    """A table beside the scorers' (the run's SPRT, a Swiss's scores, a knockout's
    bracket), with its ``figure`` if any; nothing for a run without it."""
    if extra is None:
        return ""
    notes = "".join(f'<p class="note">{esc(n)}</p>' for n in extra.notes)
    return (
        f'<section class="panel" id="{anchor}"><h2>{esc(extra.title)}</h2>'
        f"{table(extra.columns, extra.rows)}{notes}{figure}</section>"
    )


def _llr_chart(view: RunView) -> str:
    """The run's SPRT drawn a pair at a time, or nothing for a run without one."""
    test = view.spec.get("sprt")
    if not test or not view.sprt_steps:
        return ""
    lower, upper = bounds(settings_of(test))
    decided = next((step.seq for step in view.sprt_steps if step.decision), None)
    return llr_chart([step.llr for step in view.sprt_steps], lower, upper, decided)


def _faults(faults: Standings | None) -> str:
    body = (
        table(faults.columns, faults.rows)
        if faults
        else '<p class="note">no bot lost a game to a fault of its own</p>'
    )
    title = faults.title if faults else "Games lost to faults"
    return f'<section class="panel"><h2>{esc(title)}</h2>{body}</section>'


def _ms(seconds: float | None) -> float | None:
    return None if seconds is None else round(seconds * 1000, 1)


def _cpu_cells(s: BotStats) -> tuple[float | None, ...]:
    """A bot's CPU figures as the table shows them: milliseconds, the share in percent."""
    share = None if s.cpu_share is None else round(s.cpu_share * 100, 1)
    return _ms(s.cpu_mean), _ms(s.cpu_p95), _ms(s.cpu_max), share, _ms(s.idle_mean)


def _stats(stats: Sequence[BotStats]) -> str:
    """The table of every bot's faults and reply times; with its replies' CPU times when
    some bot's were measured (a run on a CPU-time clock), else no column for them."""
    cpu = any(s.cpu_replies for s in stats)
    rows = [
        (
            s.bot,
            s.games,
            s.fault_count,
            fault_kinds(s.faults) or "-",
            s.replies,
            _ms(s.reply_mean),
            _ms(s.reply_p95),
            _ms(s.reply_max),
            *(_cpu_cells(s) if cpu else ()),
            s.timeouts,
            s.late,
        )
        for s in stats
    ]
    columns = (
        "bot",
        "games",
        "faults",
        "by kind",
        "replies",
        "mean ms",
        "p95 ms",
        "max ms",
        *(("CPU mean ms", "CPU p95 ms", "CPU max ms", "CPU %", "idle mean ms") if cpu else ()),
        "timeouts",
        "late",
    )
    cpu_note = (
        "; CPU: the CPU time of its processes in the replies that had it measured, CPU %: "
        "that time over their reply time (under 100: it waited for a core, slept or "
        "blocked; over 100: it ran on several cores), idle: reply time less CPU time"
        if cpu
        else ""
    )
    return (
        '<section class="panel"><h2>Bots: faults and reply times</h2><div class="scroll">'
        f"{table(columns, rows)}</div>"
        '<p class="note">reply times of the replies that came in time; p95: the time 95% '
        "of them did not exceed; late: replies that came after their request timed out"
        f"{cpu_note}</p></section>"
    )


def _cross(games: Sequence[GameDetail], bots: Sequence[str]) -> str:
    pairs = cross_table(games, bots)
    head = "".join(f'<th class="num">{esc(b)}</th>' for b in bots)
    rows = []
    for a in bots:
        cells = []
        for b in bots:
            if a == b:
                cells.append('<td class="num self"></td>')
                continue
            p = pairs.get((a, b))
            if p is None:
                cells.append('<td class="num">-</td>')
                continue
            mood = "ahead" if p.wins > p.losses else "behind" if p.wins < p.losses else ""
            cells.append(
                f'<td class="num {mood}" title="{esc(a)} against {esc(b)}: {p.wins} won, '
                f'{p.draws} drawn, {p.losses} lost">{p.wins}-{p.draws}-{p.losses}</td>'
            )
        rows.append(f"<tr><th>{esc(a)}</th>{''.join(cells)}</tr>")
    return (
        '<section class="panel"><h2>Cross-table</h2><div class="scroll">'
        f'<table class="cross"><thead><tr><th></th>{head}</tr></thead>'
        f"<tbody>{''.join(rows)}</tbody></table></div>"
        "<p class=\"note\">wins-draws-losses of the row's bot against the column's, by rank "
        "in the counted games where both sat</p></section>"
    )


def _history(
    games: Sequence[GameDetail],
    bots: Sequence[str],
    ranking: str,
    scorer_class: Callable[[str], type[Scorer]],
) -> str:
    scorer = scorer_class(ranking)
    points = rating_history(games, bots, scorer)
    label = f"{ranking} over the games played"
    chart = history_chart(points, bots, label) if points else ""
    if not chart:
        chart = (
            f'<p class="note">no plot: {esc(ranking)} gives no estimates, '
            "or fewer than two games count</p>"
        )
    return f'<section class="panel"><h2>{esc(label.capitalize())}</h2>{chart}</section>'


def _games(games: Sequence[GameDetail], bots: Sequence[str], root: str) -> str:
    kinds = sorted({str(f.kind) for g in games for f in g.faults})
    rows = [_game_row(game, root) for game in games]
    bot_options = "".join(f'<option value="{esc(b)}">{esc(b)}</option>' for b in bots)
    fault_options = "".join(f'<option value="{esc(k)}">{esc(k)}</option>' for k in kinds)
    return (
        '<section class="panel"><h2>Games</h2><div class="filters">'
        f'<label>bot<select id="filter-bot"><option value="">any</option>{bot_options}'
        "</select></label>"
        '<label>result<select id="filter-result"><option value="">any</option>'
        '<option value="win">win</option><option value="draw">draw</option>'
        '<option value="void">void</option></select></label>'
        '<label>fault<select id="filter-fault"><option value="">any</option>'
        '<option value="none">none</option><option value="any">some fault</option>'
        f"{fault_options}</select></label>"
        f'<span id="games-shown" class="note">{len(games)} games</span></div>'
        '<div class="scroll"><table id="games"><thead><tr><th class="num">id</th>'
        '<th class="num">#</th><th>seats (rank)</th><th>result</th><th>faults</th>'
        '<th class="num">seconds</th></tr></thead><tbody>'
        f"{''.join(rows)}</tbody></table></div></section>"
    )


def _game_row(game: GameDetail, root: str) -> str:
    faulted = {f.seat for f in game.faults}
    kinds = list(dict.fromkeys(str(f.kind) for f in game.faults))
    seats = ", ".join(
        f'<span class="fault">{esc(bot)} ({rank})</span>'
        if seat in faulted
        else f"{esc(bot)} ({rank})"
        for seat, (bot, rank) in enumerate(zip(game.seating, game.ranks, strict=True))
    )
    result = result_kind(game)
    cls = ' class="has-fault"' if kinds else ""
    return (
        f"<tr{cls} data-bots='{esc(json.dumps(list(game.seating)))}' data-result=\"{result}\" "
        f'data-faults="{esc(" ".join(kinds))}">'
        f'<td class="num"><a href="{root}games/{game.game_id}.html">{game.game_id}</a></td>'
        f'<td class="num">{game.index}</td><td>{seats}</td>'
        f'<td title="{esc(game.reason)}">{result}</td>'
        f'<td class="faults">{esc(", ".join(kinds))}</td>'
        f'<td class="num">{game.duration:.2f}</td></tr>'
    )


def index_page(runs: Sequence[RunView], root: str = "") -> str:
    """The report's front page when it holds several runs: one line per run."""
    rows = "".join(
        f'<tr><td class="num">{v.run.run_id}</td>'
        f'<td><a href="{root}runs/{v.run.run_id}.html">{esc(v.run.name)}</a></td>'
        f"<td>{esc(v.run.game)}</td>"
        f'<td class="num">{v.run.done_games} of {v.run.total_games}</td>'
        f"<td>{esc(_when(v.created))}</td></tr>"
        for v in runs
    )
    body = (
        f"{_top(root)}<main><h1>Runs</h1>"
        f'<p class="subtitle">{esc(runs[0].run.database) if runs else ""}</p>'
        '<section class="panel"><table><thead><tr><th class="num">run</th><th>name</th>'
        '<th>game</th><th class="num">games stored</th><th>created</th></tr></thead>'
        f"<tbody>{rows}</tbody></table></section></main>"
    )
    return page("arena report", body, root=root)
