"""Executors: where a run's games are played (this machine's event loop, a Dask cluster),
while the runner alone stores them."""
