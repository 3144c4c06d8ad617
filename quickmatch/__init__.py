"""Quick match: seeks paired into games by a worker (docs/quickmatch.md)."""
