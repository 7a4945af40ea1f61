"""What every stage uses: settings, errors, the JSON-shaped models, name normalization,
domain packs, token counting and titles. Imports nothing of crossbook's.
"""
