"""The ``arena`` command line (click)."""
