"""Derived state of the shelf: entity resolution, links, relationships and vectors kept a
function of the stored books; `derived.change` is the one door a change of the shelf goes through.
"""
