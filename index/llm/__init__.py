"""The LLM transport extraction and relations share: one chat completion with its retries,
backoff and escalation (completion.py), the pool of requests a run keeps in flight
(request_pool.py), and the error an unusable answer raises (answer.py). Prompts, schemas and
what an answer means stay with their callers (extract/, relations/)."""
