"""Figures of the load tests' locustfiles (bench/load/, bench/live/), kept from every request rather than
from locust's bucketed percentiles."""

import math


def percentile(values: list[float], p: float) -> float:
    """Nearest-rank percentile."""
    if not values:
        return 0.0
    ordered = sorted(values)
    return ordered[max(0, math.ceil(p / 100 * len(ordered)) - 1)]


def figures(values: list[float], errors: int = 0) -> dict:
    """requests, errors, p50 / p95 / p99 / max of one group's response times (ms)."""
    return {
        "requests": len(values),
        "errors": errors,
        "p50": round(percentile(values, 50), 1),
        "p95": round(percentile(values, 95), 1),
        "p99": round(percentile(values, 99), 1),
        "max": round(max(values), 1) if values else 0.0,
    }
