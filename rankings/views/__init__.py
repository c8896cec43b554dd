"""Pages of the rankings: stored lists (never computed per request), player pages, schemes, seasons.

Modules: ``lists`` (index, list pages, CSV), ``players``, ``schemes``, ``events`` (award versions), ``seasons``.
"""
