"""``arena report``: a database's runs written as a static site.

``DIR/index.html`` (the run's page, or a list of runs), ``DIR/runs/<run>.html``,
``DIR/game.html`` (every game: ``game.html#<id>``), ``DIR/assets/`` (the report's scripts
and sheet, and each game's drawing under ``assets/draw/``) and ``DIR/data/`` (each run's
games list, and every game's replay, its stderr logs within, in at most
:data:`~arena_kernel.report.replay_files.MOST_FILES` files). Every page works opened from
disk: no server, nothing fetched. However many games, the report is a few dozen files,
and writing it holds a batch of games in memory at a time, not all of them.
"""

from __future__ import annotations

import contextlib
import os
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import replace
from importlib.resources import files
from pathlib import Path
from typing import Any

from arena_kernel.errors import ArenaError
from arena_kernel.model import RunInfo
from arena_kernel.registries.manager import get_plugin_manager, load_registries, register_plugin
from arena_kernel.registries.registry import Registries
from arena_kernel.registries.report import one_line, warn
from arena_kernel.report.game_list import GameList, first_page_file, list_file
from arena_kernel.report.game_record import Log, game_record, read_log
from arena_kernel.report.league import league_view
from arena_kernel.report.renderer import Renderer
from arena_kernel.report.replay import render_steps, replay_of
from arena_kernel.report.replay_files import FOLDER, ReplayFiles
from arena_kernel.report.run_page import RunView, index_page, run_bots, run_pages
from arena_kernel.report.stats import bot_stats
from arena_kernel.report.viewer_page import VIEWER, viewer_page
from arena_kernel.store.sqlite import GameDetail, RunRecord, Store

ASSETS = ("report.css", "report.js", "viewer.js", "run.js")
"""The report's own files, copied into ``DIR/assets/``."""


def write_report(
    database: str | os.PathLike[str],
    out_dir: str | os.PathLike[str],
    *,
    run: int | str | None = None,
    plugins: Iterable[str | object] = (),
    shown_as: str | os.PathLike[str] | None = None,
) -> Path:
    """Write the report of ``database`` (every run, or only ``run``, an id or key) into
    ``out_dir``; return the path of its ``index.html``. The renderers are the installed
    plugins', ``plugins``' and those of the plugin modules the runs' match files named.
    Raise :class:`ArenaError` (one line, naming the database, or ``shown_as``: the file
    the database was made from) for a missing or foreign database, an unknown run, or a
    folder that cannot be written.

    The report holds the games stored when it began: a run still playing (``arena run
    --report``) shows the games after them in the next report."""
    database, out = Path(database), Path(out_dir)
    if not database.is_file():
        raise ArenaError(f"{database}: no such database file")
    with Store(database) as store:
        records = {record.info.run_id: record for record in store.run_records()}
        if shown_as is not None:
            records = {
                run_id: replace(record, info=record.info.replace(database=str(shown_as)))
                for run_id, record in records.items()
            }
        chosen = [_chosen(store, run, shown_as)] if run is not None else list(records)
        if not chosen:
            raise ArenaError(f"{database}: no runs stored yet")
        specs = {run_id: store.spec(run_id) for run_id in chosen}
        site = Site(out, _registries(plugins, specs))
        last = store.last_game_id(chosen)
        bots = {}
        for run_id in chosen:
            # One run's results at a time, let go once its pages are written.
            view = RunView(
                records[run_id].info,
                specs[run_id],
                [g for g in store.results(run_id) if g.game_id <= last],
                bot_stats(store, run_id),
                created=records[run_id].created,
                finished=records[run_id].finished,
                sprt_steps=store.sprt_steps(run_id),
                league=league_view(store, run_id)
                if specs[run_id].get("format") == "league"
                else None,
            )
            site.run_pages(view, alone=len(chosen) == 1)
            bots[run_id] = (run_bots(view), len(view.games))
        site.games(store, {run_id: records[run_id].info for run_id in chosen}, specs, bots, last)
    return site.finish([records[run_id] for run_id in chosen])


def _chosen(store: Store, run: int | str, shown_as: str | os.PathLike[str] | None) -> int:
    """The id of run ``run``, an error naming ``shown_as`` if there is none."""
    if shown_as is None:
        return store.run(run).run_id
    try:
        return store.run(run).run_id
    except ArenaError:
        raise ArenaError(f'no run "{run}" in {shown_as}') from None


def _registries(
    plugins: Iterable[str | object], specs: Mapping[int, Mapping[str, Any]]
) -> Registries:
    """The installed plugins and ``plugins`` (their failure is an error), and the plugin
    modules the runs named (one that no longer loads is a warning: its games are shown
    as transcripts)."""
    pm = get_plugin_manager(extra=plugins)
    named = dict.fromkeys(str(p) for spec in specs.values() for p in spec.get("plugins") or ())
    for module in named:
        try:
            register_plugin(pm, module)
        except ArenaError as exc:
            warn(f"{exc}; the report shows that run's games without it")
    return load_registries(pm)


def _safe(name: str) -> str:
    """A game's name as a file name (a plugin's name is not trusted to be one)."""
    return re.sub(r"[^A-Za-z0-9_.-]", "_", name).lstrip(".") or "game"


class Site:
    """The report's folder being written: its assets once, the runs' pages, the game page
    and the data files."""

    def __init__(self, out: Path, registries: Registries) -> None:
        self.out = out
        self.registries = registries
        self.drawings: dict[str, tuple[str | None, str | None]] = {}
        for folder in ("", "assets", "assets/draw", "runs", FOLDER):
            self._mkdir(out / folder)
        source = files("arena_kernel.report").joinpath("assets")
        for name in ASSETS:
            self._write(out / "assets" / name, source.joinpath(name).read_text(encoding="utf-8"))
        self.replays: ReplayFiles | None = None

    # -- writing -------------------------------------------------------------------------

    def _mkdir(self, path: Path) -> None:
        try:
            path.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise ArenaError(
                f"cannot write the report in {self.out}: {exc.strerror or exc}"
            ) from None

    def _write(self, path: Path, text: str) -> None:
        """Write ``path`` whole or not at all: a report refreshed during a run (``arena run
        --report``) may be read by a browser at any moment, and must never show it half a
        page."""
        partial = path.with_name(f".{path.name}.partial")
        try:
            partial.write_text(text, encoding="utf-8")
            os.replace(partial, path)
        except OSError as exc:
            with contextlib.suppress(OSError):
                partial.unlink()
            raise ArenaError(f"cannot write {path}: {exc.strerror or exc}") from None

    # -- games ---------------------------------------------------------------------------

    def renderer(self, game: str) -> type[Renderer] | None:
        return self.registries.renderers[game].cls if game in self.registries.renderers else None

    def drawing(self, game: str) -> tuple[str | None, str | None]:
        """The game's drawing script and sheet, paths in the report (None: it has none),
        written into the assets the first time a game of it is shown."""
        if game in self.drawings:
            return self.drawings[game]
        renderer = self.renderer(game)
        script = style = ""
        if renderer is not None:
            try:
                script, style = renderer().script(), renderer().style()
            except Exception as exc:  # a plugin's bug costs its pictures, not the report
                warn(f"the {game} renderer's drawing failed: {one_line(exc)}")
                script = style = ""
        base = f"assets/draw/{_safe(game)}"
        if script:
            self._write(self.out / f"{base}.js", script)
        if style:
            self._write(self.out / f"{base}.css", style)
        self.drawings[game] = (f"{base}.js" if script else None, f"{base}.css" if style else None)
        return self.drawings[game]

    def games(
        self,
        store: Store,
        runs: Mapping[int, RunInfo],
        specs: Mapping[int, Mapping[str, Any]],
        bots: Mapping[int, tuple[Sequence[str], int]],
        last: int,
    ) -> None:
        """Write every game of ``runs`` with an id up to ``last`` into the replay files, a
        batch at a time, and each run's games list (``bots``: per run, its bots and how
        many games it has)."""
        lists = {run_id: GameList(run_id, names) for run_id, (names, _count) in bots.items()}
        expected = sum(count for _names, count in bots.values())
        replays = self.replays = ReplayFiles(self.out, expected, self._write)
        for detail, events in store.iter_games(list(runs), up_to=last):
            spec = specs[detail.run_id]
            game = str(spec.get("game", runs[detail.run_id].game))
            script, _style = self.drawing(game)
            replay = replay_of(detail, spec, events)
            rendered = render_steps(replay, self.renderer(game))
            drawer = game if script and rendered.problem is None else None
            logs = self.logs(detail)
            replays.add(
                detail.game_id,
                game_record(runs[detail.run_id], detail, replay, rendered, drawer, logs),
            )
            lists[detail.run_id].add(detail)
        replays.close()
        for run_id, games in lists.items():
            whole, first = games.scripts()
            self._write(self.out / list_file(run_id), whole)
            self._write(self.out / first_page_file(run_id), first)

    @staticmethod
    def logs(game: GameDetail) -> dict[int, Log]:
        """The game's stderr logs, read (a log gone from disk is shown as missing)."""
        return {seat: read_log(source) for seat, source in game.stderr_logs.items()}

    # -- runs ----------------------------------------------------------------------------

    def run_pages(self, view: RunView, alone: bool) -> None:
        """Write the page of ``view``'s run; ``alone``: the report's only run, whose page
        is the index too."""
        roots = ["../", ""] if alone else ["../"]
        pages = run_pages(view, self.registries.scorers.cls, roots)
        self._write(self.out / "runs" / f"{view.run.run_id}.html", pages[0])
        if alone:
            self._write(self.out / "index.html", pages[1])

    def finish(self, runs: Sequence[RunRecord]) -> Path:
        """Write the game page, and the index of ``runs`` when there are several; return
        the index's path."""
        index = self.out / "index.html"
        if len(runs) > 1:
            self._write(index, index_page(runs))
        assert self.replays is not None, "games() first"
        scripts = [script for script, _ in self.drawings.values() if script]
        styles = [style for _, style in self.drawings.values() if style]
        self._write(self.out / VIEWER, viewer_page(self.replays.index(), scripts, styles))
        return index
