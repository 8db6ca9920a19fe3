"""Running a match: the schedule, sessions of bots, many games at once, storing results."""
