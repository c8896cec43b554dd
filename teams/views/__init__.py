"""Pages of a team event: `public` (overview, rounds, score cards, standings, bracket, players, Butler),
`director` (setup, rounds, uploads, line-ups, decisions), `common` (loading with the one access rule, the
tabs' context), `bracket` and `charts` (what the bracket and standings pages draw).
"""
