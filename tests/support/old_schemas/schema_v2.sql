-- The tables as arena wrote them at schema version 2 (kernel/arena_kernel/store/sqlite.py's _SCHEMA
-- then): one row per event, clustered by game. test_migration.py fills them as that
-- arena's save_game did.
PRAGMA journal_mode = WAL;
BEGIN;
CREATE TABLE runs (
    id          INTEGER PRIMARY KEY,
    key         TEXT    NOT NULL UNIQUE,
    name        TEXT    NOT NULL,
    game        TEXT    NOT NULL,
    spec        TEXT    NOT NULL,
    total_games INTEGER NOT NULL,
    created     REAL    NOT NULL,
    finished    REAL
);
CREATE TABLE games (
    id          INTEGER PRIMARY KEY,
    run_id      INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
    idx         INTEGER NOT NULL,
    session     INTEGER NOT NULL,
    seed        INTEGER NOT NULL,
    started_at  REAL    NOT NULL,
    duration    REAL    NOT NULL,
    reason      TEXT    NOT NULL,
    void        INTEGER NOT NULL,
    details     TEXT    NOT NULL,
    extra       TEXT    NOT NULL,
    sandbox     TEXT,
    UNIQUE (run_id, idx)
);
CREATE TABLE seats (
    game_id      INTEGER NOT NULL REFERENCES games(id) ON DELETE CASCADE,
    seat         INTEGER NOT NULL,
    bot          TEXT    NOT NULL,
    rank         INTEGER NOT NULL,
    score        REAL,
    disqualified INTEGER NOT NULL,
    stderr_log   TEXT,
    PRIMARY KEY (game_id, seat)
) WITHOUT ROWID;
CREATE TABLE faults (
    game_id INTEGER NOT NULL REFERENCES games(id) ON DELETE CASCADE,
    seat    INTEGER,
    kind    TEXT    NOT NULL,
    detail  TEXT    NOT NULL,
    at      REAL    NOT NULL
);
CREATE INDEX faults_by_game ON faults (game_id);
CREATE TABLE events (
    game_id INTEGER NOT NULL REFERENCES games(id) ON DELETE CASCADE,
    seq     INTEGER NOT NULL,
    t       REAL    NOT NULL,
    kind    TEXT    NOT NULL,
    seat    INTEGER,
    text    TEXT    NOT NULL,
    elapsed REAL,
    PRIMARY KEY (game_id, seq)
) WITHOUT ROWID;
PRAGMA application_id = 1634887022;
PRAGMA user_version = 2;
COMMIT;
