"""Testing kit shipped with the kernel: the pytest plugin, a scripted bot, and two tiny
games (Nim and rock-paper-scissors) that exercise every seam of the referee without any
real game installed. Register them with ``plugins = ["arena_kernel.testing.games"]`` in a
match file, or with the ``arena_register`` fixture in tests.
"""
