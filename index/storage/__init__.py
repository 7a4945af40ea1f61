"""SQLite: opening and migrating the index, the writer lock, row reads and writes, index
metadata and the LLM response cache. Imports core only.
"""
