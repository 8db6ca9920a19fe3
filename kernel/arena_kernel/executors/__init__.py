"""Executors: where a run's sessions are played (this machine's event loop, a Dask cluster)
and how one is played (its bots brought up and sandboxed, its games refereed), while the
runner alone stores the games."""
