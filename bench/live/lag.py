"""Where the live test's "visible" time goes: how long each new version of the session's event waits until the
Celery worker has computed it. Samples the event's RecomputeState (one indexed row read) every 0.1 s for
SECONDS and writes the figures as JSON: the worker's lag per version (first seen as the latest upload ->
first seen computed; the recompute queue plus the recompute itself, to within the sampling step), and how
many versions one recompute covered (the later ones of a busy moment are computed together).

    DJANGO_SETTINGS_MODULE=config.settings python bench/live/lag.py SESSION_ID SECONDS lag.json
"""

import json
import os
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "load"))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

import django  # noqa: E402

django.setup()

import percentiles  # noqa: E402

from bridge.models import PairSession  # noqa: E402
from bridge.services import SCOPE  # noqa: E402
from results.models import RecomputeState  # noqa: E402

STEP = 0.1


def sample(event_id: int, seconds: float) -> dict:
    uploaded: dict[int, float] = {}  # version -> when first seen as uploaded
    lags: list[float] = []
    steps: list[int] = []  # versions newly computed per sample that saw the computed stamp move
    computed = None
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        row = RecomputeState.objects.filter(event_id=event_id, scope=SCOPE).values_list(
            "latest_version", "computed_version"
        )
        now = time.monotonic()
        for latest, done in row[:1]:
            for version in range(max(uploaded, default=done) + 1, latest + 1):
                uploaded[version] = now
            if computed is not None and done > computed:
                steps.append(done - computed)
                for version in range(computed + 1, done + 1):
                    if version in uploaded:
                        lags.append((now - uploaded.pop(version)) * 1000)
            computed = done
        time.sleep(STEP)
    return {
        "worker_lag": percentiles.figures(lags),
        "versions_per_recompute": round(sum(steps) / len(steps), 1) if steps else 0.0,
        "not_computed_at_end": len(uploaded),
    }


if __name__ == "__main__":
    session_id, seconds, path = int(sys.argv[1]), float(sys.argv[2]), sys.argv[3]
    event_id = PairSession.objects.values_list("event_id", flat=True).get(pk=session_id)
    figures = sample(event_id, seconds)
    with open(path, "w", encoding="utf-8") as out:
        json.dump(figures, out, indent=2)
