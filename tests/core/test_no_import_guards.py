"""No function-local `except ImportError` guard in the portal's code (issue #14).

Such a guard around the hand-off to rankings (teams / ulti recompute, the ulti source and setup) turned a
broken import into silently skipped masterpoint updates. Every app is installed together, so an import
either works or must fail loudly at start-up.
"""

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
APPS = ["config", "federation", "tournaments", "results", "bridge", "teams", "ulti", "rankings", "appeals"]
GUARDED = {"ImportError", "ModuleNotFoundError"}


def _caught(handler):
    if handler.type is None:
        return set()
    nodes = handler.type.elts if isinstance(handler.type, ast.Tuple) else [handler.type]
    return {n.id for n in nodes if isinstance(n, ast.Name)}


def _swallows(handler):
    """Catches a failed import and carries on (a handler that re-raises what it does not expect is fine)."""
    return bool(_caught(handler) & GUARDED) and not any(isinstance(n, ast.Raise) for n in ast.walk(handler))


def _guards():
    found = []
    for app in APPS:
        for path in (ROOT / app).rglob("*.py"):
            if "migrations" in path.parts:
                continue
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                if isinstance(node, ast.Try) and any(_swallows(h) for h in node.handlers):
                    found.append(f"{path.relative_to(ROOT)}:{node.lineno}")
    return found


def test_no_import_is_guarded_so_the_rankings_hand_off_cannot_be_switched_off_silently():
    assert _guards() == []


def test_the_game_apps_bind_the_rankings_hand_off_at_import_time():
    import rankings.services
    import rankings.sources
    from teams.services import recompute as teams_recompute
    from ulti.services import recompute as ulti_recompute
    from ulti.services import setup as ulti_setup
    from ulti.services import source as ulti_source

    assert teams_recompute.results_changed is rankings.services.results_changed
    assert ulti_recompute.results_changed is rankings.services.results_changed
    assert ulti_setup.rankings_live_ratings is rankings.services.live_ratings
    assert ulti_source.register_source is rankings.sources.register_source
