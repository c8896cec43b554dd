"""Services of the rankings app: load models, call an engine, write the result in one transaction.

Modules: ``event_results`` (what follows an event's result), ``ledger`` (award versions, prize payments),
``schemes`` (award schemes), ``rating`` (ulti rating), ``lists`` (stored lists), ``season`` (NUB season),
``history`` (a player's history), ``state`` (the federation's data version and stale lists), ``jobs`` (the
registry through which services publish the Celery tasks of ``rankings.tasks``).

Entry points other apps use, re-exported here:

* ``results_changed(event_id, reason)`` - an event's results became final or changed (a correction, an
  appeal decision): re-award, re-rate and recompute the season and the lists, in Celery after the commit.
* ``live_ratings(person_ids)`` - the current rating of each player, for round-1 seeding of ulti events.
"""

from .event_results import results_changed
from .rating import live_ratings

__all__ = ["live_ratings", "results_changed"]
