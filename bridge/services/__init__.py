"""Services of the bridge pair events: load models, call the engines, write in one transaction.

Modules: setup (sessions, sections, seating), uploads (PBN / CSV / traveller form -> a new version;
`uploads.submit` is the one seam the pages and the API call), versions (the append-only version writer),
compute (the recompute behind the Celery tasks: a package, event / boards / standings / hand_records),
corrections (VSz 12), adjustments (director's and appeals' rulings), roster (substitutes and withdrawals, VSz 25),
dealing (sealed computer-dealt sets, VSz 21), handrecords (double-dummy analysis), exports (PBN, USEBIO),
pages (what the pages read), ranking_source (masterpoint rights for the rankings app); individual
(individual events: players' numbers, upload, recompute, publication) and individual_source (their
masterpoints).

Services never import bridge.tasks: they ask for a recompute with
`results.tasks.request_recompute(SCOPE, event_id, ...)` (partial=BOARDS or HAND_RECORDS for the partial
ones), and bridge.apps registers the tasks.
"""

SCOPE = "bridge-pairs"  # the results.RecomputeState scope of bridge pair events
INDIVIDUAL_SCOPE = "bridge-individual"  # and of bridge individual events (services.individual)
# The partial recomputes of the scope (bridge.apps registers their tasks with results.tasks):
BOARDS = "boards"  # one session's changed boards and the standings
HAND_RECORDS = "hand_records"  # the double-dummy analysis of one session's deals
