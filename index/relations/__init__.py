"""Typed relationships between entities: the ontology (index/ontology/*.toml), the pure
normalization and validation of extracted relationships, and their derivation into
``entity_relationships`` (two-phase: claims are stored with the book, endpoints are
resolved against the current index in ``derived.refresh`` (index/changes/derived.py)).

``svo.py`` (the offline spaCy candidate finder) is optional: when it is missing the
offline path finds no relationships.
"""
