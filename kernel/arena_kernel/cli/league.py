"""What the commands show and take of a league: ``arena run``'s ``--until TIME``, the final
of ``arena run --from-league DB --top N``, the ladder of ``arena standings`` and the
ladder and ratings over time of ``arena export``."""

from __future__ import annotations

import datetime
import re
from collections.abc import Callable, Iterable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

import click

from arena_kernel.errors import ArenaError

if TYPE_CHECKING:
    from arena_kernel.model import Standings
    from arena_kernel.runner.api import Prepared
    from arena_kernel.runner.league import Sitting
    from arena_kernel.store.sqlite import Store

Command = TypeVar("Command", bound=Callable[..., Any])


def league_options(f: Command) -> Command:
    """``arena run``'s options for a league and its final."""
    options = [
        click.option(
            "--games",
            type=click.IntRange(min=1),
            metavar="N",
            help="A league: stop once N more games are stored.",
        ),
        click.option(
            "--until",
            metavar="TIME",
            help="A league: start no game after TIME: a duration (90m, 2h), a time of day "
            "(18:30) or a date and time (2025-06-01 18:00).",
        ),
        click.option(
            "--new-rating",
            "new_ratings",
            multiple=True,
            metavar="NAME",
            help='A league: bot NAME runs a new version; rate it afresh as "NAME v2" '
            "(the old one retires) instead of refusing it (repeatable).",
        ),
        click.option(
            "--from-league",
            type=click.Path(path_type=Path, dir_okay=False),
            metavar="DB",
            help="Play the final of the league stored in DB among its --top N bots, as its "
            "[league] final says (a round robin or a knockout), instead of a MATCH_FILE.",
        ),
        click.option(
            "--top",
            type=click.IntRange(min=2),
            metavar="N",
            help="With --from-league: how many of the ladder's best bots play the final.",
        ),
    ]
    for option in reversed(options):
        f = option(f)
    return f


def prepared_run(
    match_file: Path | None,
    plugins: tuple[str, ...],
    from_league: Path | None,
    top: int | None,
    **overrides: Any,
) -> Prepared:
    """What ``arena run`` plays: MATCH_FILE, or the final of ``--from-league DB``."""
    from arena_kernel.runner.api import prepare

    if from_league is None:
        if top is not None:
            raise _usage("--top N goes with --from-league DB")
        if match_file is None:
            raise _usage("missing argument 'MATCH_FILE' (or --from-league DB --top N)")
        return prepare(match_file, plugins, **overrides)
    if match_file is not None:
        raise _usage(
            "--from-league DB plays the final of the league in DB, from the league's own "
            "match file: give no MATCH_FILE"
        )
    if top is None:
        raise _usage("--from-league DB needs --top N, the number of bots in the final")
    return prepare_final(from_league, top, plugins, **overrides)


def sitting_of(games: int | None, until: str | None, new_ratings: tuple[str, ...]) -> Sitting:
    """A league's sitting as ``arena run`` was told it."""
    from arena_kernel.runner.league import Sitting

    return Sitting(games, None if until is None else parse_until(until), new_ratings)


_UNITS = {"s": 1, "m": 60, "h": 3600, "d": 86400}
_DURATION = re.compile(r"(\d+(?:\.\d+)?)([smhd])")


def parse_until(text: str, now: datetime.datetime | None = None) -> float:
    """``--until TIME`` as a Unix time: a duration from now (``90m``, ``2h``, ``1d12h``),
    a time of day (``18:30``, the next one to come), or a date and time in ISO form
    (``2025-06-01 18:00``), in the machine's time zone unless it says its own. Raise
    :class:`ArenaError` for anything else, or for a date and time already past."""
    now = now or datetime.datetime.now().astimezone()
    words = text.strip().replace(" ", "")
    parts = _DURATION.findall(words)
    if parts and "".join(f"{n}{u}" for n, u in parts) == words:
        return now.timestamp() + sum(float(n) * _UNITS[u] for n, u in parts)
    try:
        clock = datetime.time.fromisoformat(text.strip())
    except ValueError:
        clock = None
    if clock is not None:
        moment = datetime.datetime.combine(now.date(), clock, tzinfo=clock.tzinfo or now.tzinfo)
        if moment <= now:
            moment += datetime.timedelta(days=1)
        return moment.timestamp()
    try:
        moment = datetime.datetime.fromisoformat(text.strip())
    except ValueError:
        raise ArenaError(
            f"--until {text}: not a time: give a duration (90m, 2h, 1d), a time of day "
            "(18:30) or a date and time (2025-06-01 18:00)"
        ) from None
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=now.tzinfo)
    if moment <= now:
        raise ArenaError(f"--until {text}: that time has passed")
    return moment.timestamp()


def league_run(store: Store, database: Path) -> int:
    """The id of the latest league stored in ``database``."""
    for record in reversed(store.run_records()):
        if store.spec(record.info.run_id).get("format") == "league":
            return record.info.run_id
    raise ArenaError(f'{database}: no league stored (a run of format = "league")')


def prepare_final(
    database: Path, count: int, plugins: tuple[str, ...], **overrides: Any
) -> Prepared:
    """The final of the latest league in ``database`` among its top ``count`` bots
    (:mod:`arena_kernel.match.final`), from the league's match file as it reads now."""
    from arena_kernel.cli.database import open_database
    from arena_kernel.match.final import final_spec
    from arena_kernel.match.ladder import stored_ladder
    from arena_kernel.runner.api import prepare

    with open_database(database) as store:
        run_id = league_run(store, database)
        key = store.run(run_id).key
        path = Path(str(store.spec(run_id).get("path")))
        rungs, _table = stored_ladder(store, run_id)
    prepared = prepare(path, plugins, **overrides)
    if prepared.spec.key() != key:
        raise ArenaError(
            f"{path} no longer describes the league stored as run {run_id} of {database} "
            "(its game, seed or settings changed)"
        )
    prepared.spec = final_spec(prepared.spec, rungs, count, database.absolute())
    return prepared


def ladder_of(store: Store, run_id: int, spec: Mapping[str, Any]) -> Standings | None:
    """The ladder of run ``run_id`` if it is a league (its stored ``spec`` says), else
    None."""
    if spec.get("format") != "league":
        return None
    from arena_kernel.match.ladder import stored_ladder

    return stored_ladder(store, run_id)[1]


LADDER_COLUMNS = (
    "run_id",
    "place",
    "bot",
    "name",
    "version",
    "rating",
    "error",
    "games",
    "status",
    "joined_block",
    "retired_block",
    "identity",
)
RATINGS_COLUMNS = ("run_id", "block", "games", "bot", "rating", "error", "bot_games")


def export_rows(store: Store, run_ids: Iterable[int]) -> dict[str, list[dict[str, Any]]]:
    """The ``ladder`` and ``ratings`` tables of ``arena export``: each league's ladder,
    best first, and every bot's rating after each block (none for other runs)."""
    from arena_kernel.match.ladder import stored_ladder

    tables: dict[str, list[dict[str, Any]]] = {"ladder": [], "ratings": []}
    for run_id in run_ids:
        if store.spec(run_id).get("format") != "league":
            continue
        for rung in stored_ladder(store, run_id)[0]:
            bot = rung.bot
            tables["ladder"].append(
                {
                    "run_id": run_id,
                    "place": rung.place,
                    "bot": bot.seat,
                    "name": bot.name,
                    "version": bot.version,
                    "rating": rung.rating,
                    "error": rung.error,
                    "games": rung.games,
                    "status": rung.status,
                    "joined_block": bot.joined,
                    "retired_block": bot.retired,
                    "identity": bot.identity,
                }
            )
        for point in store.rating_history(run_id):
            tables["ratings"].append(
                {
                    "run_id": run_id,
                    "block": point.block,
                    "games": point.games,
                    "bot": point.bot,
                    "rating": point.rating,
                    "error": point.error,
                    "bot_games": point.bot_games,
                }
            )
    return tables


def _usage(message: str) -> click.UsageError:
    """A mistake on ``arena run``'s command line, shown as click shows its own."""
    return click.UsageError(message, click.get_current_context(silent=True))
