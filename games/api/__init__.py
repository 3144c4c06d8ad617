"""The REST API under /api/: serializers, views, errors and URLs."""
