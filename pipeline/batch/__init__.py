"""Batch runs: worker processes or a Dask cluster, resumable, with atomic output."""
