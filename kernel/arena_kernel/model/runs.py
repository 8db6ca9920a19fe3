"""A run of a match file as the store keeps it."""

from __future__ import annotations

from arena_kernel.model.values import FrozenValue, set_fields


class RunInfo(FrozenValue):
    """One run of a match file, as stored (``key`` identifies it for resuming)."""

    __slots__ = (  # noqa: RUF023 - the fields, in order
        "run_id",
        "key",
        "name",
        "game",
        "total_games",
        "done_games",
        "database",
        "sandbox",
        "sandbox_note",
        "clock_note",
        "executor_note",
    )

    run_id: int
    key: str
    name: str
    game: str
    total_games: int
    done_games: int
    database: str
    sandbox: str | None
    """While the run plays: what the bots it starts run under, ``"bwrap"`` or ``"none"``.
    None for a run read from the store, one with no game left to play, or one that starts
    no bot (in-process bots and bots that connect by themselves are never sandboxed)."""
    sandbox_note: str | None
    """While the run plays: a warning about its sandbox for the run's header (bots run
    unsandboxed because this machine cannot sandbox them, their processes cannot be capped
    or their system calls cannot be filtered), or None."""
    clock_note: str | None
    """While the run plays: a warning about its clocks for the run's header (wall-clock
    limits with more games at once than a machine has cores), or None."""
    executor_note: str | None
    """While the run plays: a warning about where it plays for the run's header (a
    cluster's settings that the executor relies on set otherwise), or None."""

    def __init__(
        self,
        run_id: int,
        key: str,
        name: str,
        game: str,
        total_games: int,
        done_games: int,
        database: str,
        *,
        sandbox: str | None = None,
        sandbox_note: str | None = None,
        clock_note: str | None = None,
        executor_note: str | None = None,
    ) -> None:
        set_fields(
            self,
            run_id=run_id,
            key=key,
            name=name,
            game=game,
            total_games=total_games,
            done_games=done_games,
            database=database,
            sandbox=sandbox,
            sandbox_note=sandbox_note,
            clock_note=clock_note,
            executor_note=executor_note,
        )
