"""Markdown text to sections, parent chunks and child chunks (chunking.py), with the heading
repair that finds broken and HTML headings first (markdown_repair.py). Readers split their
Markdown into sections here; ingest cuts the parents the extractors read and the children
the vectors embed. No I/O, no LLM."""
