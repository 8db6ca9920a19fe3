"""Match files: reading and validating them, starter files, and the schedule of games."""
