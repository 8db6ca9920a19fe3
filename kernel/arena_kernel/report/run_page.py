"""A run's page: its settings, every scorer's table with its estimates drawn, the games
lost to faults, each bot's reply times, the cross-table, the ranking scorer's figures
over the games, and the games list (drawn by ``run.js`` from its data file).

The page is a sequence of sections (:data:`SECTIONS`), each a function of the run's
figures (:class:`RunFigures`, worked out once): a new section is one more function there.
"""

from __future__ import annotations

import datetime
import json
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from arena_kernel.match.standings import run_standings
from arena_kernel.model import RunInfo, Standings
from arena_kernel.report.analysis import cross_table, rating_history
from arena_kernel.report.charts import estimate_chart, history_chart, llr_chart
from arena_kernel.report.game_list import PAGE, first_page_file, list_file
from arena_kernel.report.html import esc, page, table
from arena_kernel.report.league import LeagueView, league_section
from arena_kernel.report.stats import BotStats, fault_kinds
from arena_kernel.scoring.base import Scorer, roster
from arena_kernel.scoring.sprt import bounds
from arena_kernel.scoring.sprt_run import SprtStep, settings_of
from arena_kernel.store.runs import sandbox_counts
from arena_kernel.store.sqlite import RunRecord, StoredGame


@dataclass(frozen=True)
class RunView:
    """Everything the page shows of one run, read from the store once: its stored
    results (``games``) and its bots' figures."""

    run: RunInfo
    spec: Mapping[str, Any]
    games: Sequence[StoredGame]
    stats: Sequence[BotStats]
    created: float | None = None
    finished: float | None = None
    sprt_steps: Sequence[SprtStep] = ()
    """The run's SPRT a pair at a time, as stored (none without ``[sprt]``)."""
    league: LeagueView | None = None
    """A league's ladder and ratings over time (None: the run is no league)."""


@dataclass(frozen=True)
class RunFigures:
    """A run's figures, worked out once for every section of its page."""

    view: RunView
    games: Sequence[StoredGame]
    """In schedule order."""
    bots: Sequence[str]
    scorers: Sequence[str]
    ranking: str
    tables: Sequence[Standings]
    faults: Standings | None
    sprt: Standings | None
    format: Standings | None
    scorer_class: Callable[[str], type[Scorer]]


def scorers_of(spec: Mapping[str, Any]) -> tuple[list[str], str]:
    """The run's scorers and the one that ranks: ``ranking`` in its stored spec, the first
    scorer for a run stored before the key existed."""
    scorers = [str(name) for name in spec.get("scorers") or ["wins"]]
    return scorers, str(spec.get("ranking") or scorers[0])


def run_bots(view: RunView) -> list[str]:
    """The run's bots: the match file's in its order, then any other seated in its games."""
    return roster(view.games, [str(b["name"]) for b in view.spec.get("bots", [])])


def run_figures(view: RunView, scorer_class: Callable[[str], type[Scorer]]) -> RunFigures:
    """Every scorer's table, the faults table, the SPRT and the format's table of ``view``."""
    games = sorted(view.games, key=lambda g: g.index)
    bots = run_bots(view)
    scorers, ranking = scorers_of(view.spec)
    tables, faults, sprt, own = run_standings(
        games, bots, scorers, scorer_class, view.spec, view.sprt_steps
    )
    return RunFigures(view, games, bots, scorers, ranking, tables, faults, sprt, own, scorer_class)


def run_pages(
    view: RunView, scorer_class: Callable[[str], type[Scorer]], roots: Sequence[str]
) -> list[str]:
    """The page of one run once per way to the report's folder in ``roots`` (``"../"``
    for ``runs/<id>.html``, ``""`` for an index.html that is the run's page), its figures
    computed once."""
    figures = run_figures(view, scorer_class)
    run = view.run
    title = f"run {run.run_id}: {run.name}"
    stored = f"{run.done_games} of {run.total_games} games stored"
    if view.finished is None and run.done_games < run.total_games:
        stored += " (not finished)"
    middle = "".join(
        [
            f"<h1>{esc(title)}</h1>",
            f'<p class="subtitle">{esc(run.game)}: {esc(stored)}</p>',
            *(section(figures) for section in SECTIONS),
        ]
    )
    return [
        page(
            title,
            f"{_top(root)}<main>{middle}{_games(figures, root)}</main>",
            root=root,
            scripts=["assets/report.js", "assets/run.js"],
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


def _settings(figures: RunFigures) -> str:
    view, scorers, ranking = figures.view, figures.scorers, figures.ranking
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
    size = (
        _count(spec["games"], "game")
        if spec.get("games")
        else _count(spec.get("rounds", 1), "round")
    )
    if spec.get("format") == "league":
        block = (spec.get("league") or {}).get("block")
        size = f"blocks of {block} games" if block else "blocks of a game per bot"
    challenger = f", challenger {spec['challenger']}" if spec.get("challenger") else ""
    return f"{spec.get('format', '-')}{challenger}, {seats_text} seats, {size}"


def _count(number: Any, noun: str) -> str:
    """``1 round``, ``2 rounds``."""
    return f"{number} {noun}" if number == 1 else f"{number} {noun}s"


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


def _standings(figures: RunFigures) -> str:
    ranking, bots = figures.ranking, figures.bots
    parts = ['<section class="panel"><h2>Standings</h2>']
    for name, standings in zip(figures.scorers, figures.tables, strict=True):
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


def _format_table(figures: RunFigures) -> str:
    return _panel(figures.format, "format")


def _league(figures: RunFigures) -> str:
    return league_section(figures.view.league)


def _sprt(figures: RunFigures) -> str:
    return _panel(figures.sprt, "sprt", _llr_chart(figures.view))


def _llr_chart(view: RunView) -> str:
    """The run's SPRT drawn a pair at a time, or nothing for a run without one."""
    test = view.spec.get("sprt")
    if not test or not view.sprt_steps:
        return ""
    lower, upper = bounds(settings_of(test))
    decided = next((step.seq for step in view.sprt_steps if step.decision), None)
    return llr_chart([step.llr for step in view.sprt_steps], lower, upper, decided)


def _faults(figures: RunFigures) -> str:
    faults = figures.faults
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


def _stats(figures: RunFigures) -> str:
    """The table of every bot's faults and reply times; with its replies' CPU times when
    some bot's were measured (a run on a CPU-time clock), else no column for them."""
    stats = figures.view.stats
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


def _cross(figures: RunFigures) -> str:
    bots = figures.bots
    pairs = cross_table(figures.games, bots)
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


def _history(figures: RunFigures) -> str:
    bots, ranking = figures.bots, figures.ranking
    scorer = figures.scorer_class(ranking)
    points = rating_history(figures.games, bots, scorer)
    label = f"{ranking} over the games played"
    chart = history_chart(points, bots, label) if points else ""
    if not chart:
        chart = (
            f'<p class="note">no plot: {esc(ranking)} gives no estimates, '
            "or fewer than two games count</p>"
        )
    return f'<section class="panel"><h2>{esc(label.capitalize())}</h2>{chart}</section>'


SECTIONS: tuple[Callable[[RunFigures], str], ...] = (
    _settings,
    _standings,
    _format_table,
    _league,
    _sprt,
    _faults,
    _stats,
    _cross,
    _history,
)
"""The run page's sections in order, each drawn from the run's figures; the games list
comes last (:func:`_games`)."""


def _games(figures: RunFigures, root: str) -> str:
    """The games list's frame: its filters, its table's head and pager; ``run.js`` fills
    it from the run's list file (:mod:`arena_kernel.report.game_list`)."""
    view = figures.view
    bot_options = "".join(f'<option value="{esc(b)}">{esc(b)}</option>' for b in figures.bots)
    head = "".join(
        f'<th{cls}><button type="button" data-sort="{key}">{name}</button></th>'
        if key
        else f"<th{cls}>{name}</th>"
        for key, name, cls in (
            ("id", "id", ' class="num"'),
            ("index", "#", ' class="num"'),
            ("", "seats (rank)", ""),
            ("winner", "winner", ""),
            ("reason", "reason", ""),
            ("faults", "faults", ""),
            ("seconds", "seconds", ' class="num"'),
        )
    )
    return (
        '<section class="panel" id="games-panel"><h2>Games</h2><div class="filters">'
        '<label>game id<input id="search-id" type="search" inputmode="numeric" '
        'placeholder="id" size="8"></label>'
        f'<label>bot<select id="filter-bot"><option value="">any</option>{bot_options}'
        "</select></label>"
        '<label>result<select id="filter-result"><option value="">any</option>'
        '<option value="won">won</option><option value="drawn">drawn</option>'
        '<option value="lost">lost</option><option value="void">void</option>'
        "</select></label>"
        '<label>fault<select id="filter-fault"><option value="">any</option>'
        '<option value="none">none</option><option value="any">some fault</option>'
        "</select></label>"
        f'<span id="games-shown" class="note">{len(view.games)} games</span></div>'
        '<p class="note">result: of the bot chosen (won: ranked first alone; drawn: first '
        "with others; lost: not first), or, with any bot, whether the game had one winner</p>"
        f'<div class="scroll"><table id="games" data-run="{view.run.run_id}" '
        f'data-list="{esc(root + list_file(view.run.run_id))}" '
        f'data-first="{esc(root + first_page_file(view.run.run_id))}" data-page="{PAGE}" '
        f'data-root="{esc(root)}">'
        f"<thead><tr>{head}</tr></thead><tbody></tbody></table></div>"
        '<div class="pager"><button type="button" id="page-first">&laquo;</button>'
        '<button type="button" id="page-prev">&lsaquo;</button>'
        '<span id="page-at" class="note"></span>'
        '<button type="button" id="page-next">&rsaquo;</button>'
        '<button type="button" id="page-last">&raquo;</button></div></section>'
    )


def index_page(runs: Sequence[RunRecord], root: str = "") -> str:
    """The report's front page when it holds several runs: one line per run."""
    rows = "".join(
        f'<tr><td class="num">{r.info.run_id}</td>'
        f'<td><a href="{root}runs/{r.info.run_id}.html">{esc(r.info.name)}</a></td>'
        f"<td>{esc(r.info.game)}</td>"
        f'<td class="num">{r.info.done_games} of {r.info.total_games}</td>'
        f"<td>{esc(_when(r.created))}</td></tr>"
        for r in runs
    )
    body = (
        f"{_top(root)}<main><h1>Runs</h1>"
        f'<p class="subtitle">{esc(runs[0].info.database) if runs else ""}</p>'
        '<section class="panel"><table><thead><tr><th class="num">run</th><th>name</th>'
        '<th>game</th><th class="num">games stored</th><th>created</th></tr></thead>'
        f"<tbody>{rows}</tbody></table></section></main>"
    )
    return page("arena report", body, root=root)
