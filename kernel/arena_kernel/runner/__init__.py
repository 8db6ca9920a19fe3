"""Running a match: the schedule's sessions handed to an executor, each game it plays
stored, the run's standings."""
