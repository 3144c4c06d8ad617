"""Operating the service: health and readiness probes, Prometheus metrics, task failures."""
