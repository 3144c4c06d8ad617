"""Piratz: one game, one Django app (label ``piratz``). Its service side (words, table page,
API shapes, mail grammar, replay, refusal sentences, self-play) is in one spec,
``SPEC`` (``games.catalogue``, built in ``spec.py``); its own model (``BuriedCard``),
admin, template tags and migrations live here too. The engine is ``games.kinds.piratz.rules``.

``SPEC`` is imported on first use, not with the package: Django imports every app's
package before its models are ready, and the spec's pieces import models.
"""


def __getattr__(name: str):
    if name == "SPEC":
        # deferred: the spec's pieces import models, which Django loads after this package.
        from .spec import SPEC

        return SPEC
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
