"""Derived state of the shelf: entity resolution, links, relationships and vectors kept a
function of the stored books (`derived`), and `door.Door`, the one door every change of the shelf goes
through.
"""
