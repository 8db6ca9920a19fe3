-- The tables as arena wrote them at schema version 5 (kernel/arena_kernel/store/schema.py's SCHEMA
-- then): runs and their games, with the CPU times of each seat's replies, and no league.
-- test_migration_v5.py fills them as that arena's save_game did.
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
    outcome     TEXT    NOT NULL DEFAULT '',
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
    reply_times  BLOB    NOT NULL DEFAULT x'',
    late_replies INTEGER NOT NULL DEFAULT 0,
    reply_cpu    BLOB    NOT NULL DEFAULT x'',
    PRIMARY KEY (game_id, seat)
) WITHOUT ROWID;
CREATE INDEX seats_by_bot ON seats (bot);
CREATE INDEX seats_disqualified ON seats (bot) WHERE disqualified;
CREATE TABLE faults (
    game_id INTEGER NOT NULL REFERENCES games(id) ON DELETE CASCADE,
    seat    INTEGER,
    kind    TEXT    NOT NULL,
    detail  TEXT    NOT NULL,
    at      REAL    NOT NULL
);
CREATE INDEX faults_by_game ON faults (game_id);
CREATE TABLE event_logs (
    game_id INTEGER PRIMARY KEY REFERENCES games(id) ON DELETE CASCADE,
    events  BLOB    NOT NULL
);
PRAGMA application_id = 1634887022;
PRAGMA user_version = 5;
COMMIT;
