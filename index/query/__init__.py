"""Read paths: where-else and entity lookups, plain and multi-hop retrieval, the entity graph
and bridges, and the relationship review (which records a decision and re-derives its chunk).
"""
