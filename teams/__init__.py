"""Bridge team events (VSz 33) on the portal: the event's options, its teams (from the tournaments
entries), rounds paired by the `teams.engine.pairing` generators (Danish, Swiss, Danish-Swiss, round robin,
knockout with an optional consolation bracket), versioned match results, line-ups, and the standings,
boards played per player and Butler of the pairs that the recompute task stores.

Flow: the director saves the options (`TeamEvent`), generates round 1 (secure draw with a recorded
seed, or seeding) as a preview, publishes it, uploads each match's result (PBN with both rooms, CSV,
score card or just the IMPs; all through `teams.services.uploads.upload_match`) and line-ups; every
upload marks the event's results stale and asks for `teams.tasks.recompute_event` (through
`results.tasks.request_recompute`), which scores the matches (IMPs, WBF VPs), rebuilds the standings and says
whether the next round may be generated. A bye scores the event's `bye_vp` (12 VP unless the
announcement says otherwise) and no IMPs. When the last round is scored the event is final and the
rankings app is told (`rankings.services.results_changed`).

Layout: `engine/` (pure: pairing, scoring, the PBN / CSV readers), `models.py`, `services/`, `tasks.py`,
`views/` (common, public, director, bracket, charts), `api.py`, `permissions.py`.
"""
