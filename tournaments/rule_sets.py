"""The rule sets an announcement may name, offered as suggestions on the form (the field accepts any key).

A game app with rule sets (ulti: its engine's built-in ones) registers a function returning their keys in its
AppConfig.ready(), so tournaments imports no game app.
"""

_sources = []


def register_rule_sets(keys) -> None:
    """`keys()` -> the keys of the rule sets a game app knows."""
    if keys not in _sources:
        _sources.append(keys)


def known_rule_sets() -> tuple[str, ...]:
    return tuple(sorted({key for keys in _sources for key in keys()}))
