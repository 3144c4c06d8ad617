"""The floor below every app: the service's error type and the REST API's shared plumbing.

Nothing here imports an app (accounts, games, notifications, ...); the apps import it
(docs/architecture.md "The floors"; `lint-imports` enforces it).
"""
