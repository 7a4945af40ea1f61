"""Orchestration: finding and identifying books, the ingest/delete/rebuild pipeline, manifests,
the batch (LLM batch API) ingest, cost estimates and the imports made before request threads.
"""
