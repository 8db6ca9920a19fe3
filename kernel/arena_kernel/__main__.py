"""``python -m arena_kernel ...`` is the ``arena`` command (for a venv whose scripts are not
on PATH)."""

from arena_kernel.cli.main import main

main()
