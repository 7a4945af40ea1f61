"""What every stage uses: settings, errors, the JSON-shaped models, name normalization,
domain packs, token counting, titles, chunking and Markdown repair. Imports nothing of crossbook's.
"""
