"""``arena report``: a database's runs written as a static site.

``DIR/index.html`` (the run's page, or a list of runs), ``DIR/runs/<run>.html``,
``DIR/games/<game>.html``, ``DIR/assets/`` (the report's scripts and sheet, and each
game's drawing under ``assets/draw/``) and ``DIR/logs/`` (copies of the bots' stderr logs).
Every page works opened from disk: no server, nothing fetched.
"""

from __future__ import annotations

import contextlib
import os
import re
import shutil
from collections.abc import Iterable, Mapping, Sequence
from importlib.resources import files
from pathlib import Path
from typing import Any

from arena_kernel.errors import ArenaError
from arena_kernel.registries.manager import get_plugin_manager, load_registries, register_plugin
from arena_kernel.registries.registry import Registries
from arena_kernel.registries.report import one_line, warn
from arena_kernel.report.game_page import Drawing, Log, game_page
from arena_kernel.report.league import league_view
from arena_kernel.report.renderer import Renderer
from arena_kernel.report.replay import render_steps, replay_of
from arena_kernel.report.run_page import RunView, index_page, run_pages
from arena_kernel.report.stats import bot_stats
from arena_kernel.store.sqlite import GameDetail, Store

ASSETS = ("report.css", "report.js", "viewer.js", "run.js")
"""The report's own files, copied into ``DIR/assets/``."""


def write_report(
    database: str | os.PathLike[str],
    out_dir: str | os.PathLike[str],
    *,
    run: int | str | None = None,
    plugins: Iterable[str | object] = (),
) -> Path:
    """Write the report of ``database`` (every run, or only ``run``, an id or key) into
    ``out_dir``; return the path of its ``index.html``. The renderers are the installed
    plugins', ``plugins``' and those of the plugin modules the runs' match files named.
    Raise :class:`ArenaError` (one line) for a missing or foreign database, an unknown
    run, or a folder that cannot be written."""
    database, out = Path(database), Path(out_dir)
    if not database.is_file():
        raise ArenaError(f"{database}: no such database file")
    with Store(database) as store:
        records = {record.info.run_id: record for record in store.run_records()}
        chosen = [store.run(run).run_id] if run is not None else list(records)
        if not chosen:
            raise ArenaError(f"{database}: no runs stored yet")
        specs = {run_id: store.spec(run_id) for run_id in chosen}
        site = Site(out, _registries(plugins, specs))
        views = []
        for run_id in chosen:
            record = records[run_id]
            view = RunView(
                record.info,
                specs[run_id],
                store.games(run_id),
                bot_stats(store, run_id),
                created=record.created,
                finished=record.finished,
                sprt_steps=store.sprt_steps(run_id),
                league=league_view(store, run_id)
                if specs[run_id].get("format") == "league"
                else None,
            )
            site.games(store, view)
            views.append(view)
    return site.finish(views)


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
    """The report's folder being written: its assets once, a page per game and run."""

    def __init__(self, out: Path, registries: Registries) -> None:
        self.out = out
        self.registries = registries
        self.drawings: dict[str, Drawing | None] = {}
        for folder in ("", "assets", "assets/draw", "games", "runs", "logs"):
            self._mkdir(out / folder)
        source = files("arena_kernel.report").joinpath("assets")
        for name in ASSETS:
            self._write(out / "assets" / name, source.joinpath(name).read_text(encoding="utf-8"))

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

    def drawing(self, game: str) -> Drawing | None:
        """The game's drawing script and sheet, written into the assets the first time a
        game of it is shown; None when it has none (or its renderer cannot give them)."""
        if game in self.drawings:
            return self.drawings[game]
        renderer = self.renderer(game)
        drawing = None
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
            if script or style:
                drawing = Drawing(
                    game, f"{base}.js" if script else None, f"{base}.css" if style else None
                )
        self.drawings[game] = drawing
        return drawing

    def games(self, store: Store, view: RunView) -> None:
        """Write the page of every game of ``view``'s run."""
        spec = view.spec
        game_name = str(spec.get("game", view.run.game))
        renderer = self.renderer(game_name)
        drawing = self.drawing(game_name)
        for game in view.games:
            replay = replay_of(game, spec, store.events(game.game_id))
            rendered = render_steps(replay, renderer)
            html = game_page(view.run, game, replay, rendered, drawing, self.logs(game))
            self._write(self.out / "games" / f"{game.game_id}.html", html)

    def logs(self, game: GameDetail) -> dict[int, Log]:
        """Copy the game's stderr logs into ``logs/``; a log gone from disk is shown as
        missing."""
        found = {}
        for seat, source in game.stderr_logs.items():
            name = f"{game.game_id}-{seat}.txt"
            try:
                shutil.copyfile(source, self.out / "logs" / name)
            except FileNotFoundError:
                found[seat] = Log(source, None)
                continue
            except OSError as exc:
                if Path(source).is_file():
                    raise ArenaError(
                        f"cannot copy {source} into {self.out / 'logs'}: {exc.strerror or exc}"
                    ) from None
                found[seat] = Log(source, None)
                continue
            found[seat] = Log(source, f"../logs/{name}")
        return found

    # -- runs ----------------------------------------------------------------------------

    def finish(self, views: Sequence[RunView]) -> Path:
        """Write the runs' pages and the index; return the index's path."""
        index = self.out / "index.html"
        for view in views:
            roots = ["../", ""] if len(views) == 1 else ["../"]
            pages = run_pages(view, self.registries.scorers.cls, roots)
            self._write(self.out / "runs" / f"{view.run.run_id}.html", pages[0])
            if len(views) == 1:
                self._write(index, pages[1])
        if len(views) > 1:
            self._write(index, index_page(views))
        return index
