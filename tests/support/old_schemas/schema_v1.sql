-- A database as arena wrote it before it recorded each game's sandbox: schema version 1
-- (kernel/arena_kernel/store/sqlite.py's _SCHEMA then), and a run of three games of which two are stored.
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
PRAGMA user_version = 1;

INSERT INTO runs VALUES (1, 'old-key', 'league', 'nim', '{"bots": [{"name": "alice"}, {"name": "bob"}], "scorers": ["wins"]}', 3, 1700000000.0, NULL);
INSERT INTO games VALUES (1, 1, 0, 0, 11, 1700000001.0, 0.5, 'took the last stone', 0, '{}', '{}');
INSERT INTO games VALUES (2, 1, 1, 0, 12, 1700000002.0, 0.25, 'no reply', 0, '{}', '{}');
INSERT INTO seats VALUES (1, 0, 'alice', 1, NULL, 0, NULL);
INSERT INTO seats VALUES (1, 1, 'bob', 2, NULL, 0, NULL);
INSERT INTO seats VALUES (2, 0, 'bob', 1, NULL, 0, NULL);
INSERT INTO seats VALUES (2, 1, 'alice', 2, NULL, 0, 'logs/run-1/game-1/1-alice.stderr');
INSERT INTO faults VALUES (2, 1, 'timeout', 'no reply in 1 s', 0.2);
INSERT INTO events VALUES (1, 0, 0.0, 'send', 0, 'pile 3', NULL);
INSERT INTO events VALUES (1, 1, 0.1, 'recv', 0, 'take 3', 0.1);
INSERT INTO events VALUES (2, 0, 0.0, 'send', 0, 'pile 3', NULL);
COMMIT;
