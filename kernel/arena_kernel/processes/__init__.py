"""Supervising the processes the arena starts: reading ``/proc``, measuring their CPU time,
ending whole trees of them, sweeping up what a bot left behind, and the warden that ends
a run's bots if the arena dies."""
