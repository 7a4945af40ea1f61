"""Vector commands: search, retrieve, doctor, reembed (registered on the app by import)."""
