"""Linking text to names: the linker (a book's text against the shelf's names), its match
view, and the link state an index records. Imports core, storage and extract's text helpers.
"""
