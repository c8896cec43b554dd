"""The rule sets an announcement may name, offered as suggestions on the form (the field accepts any key).

A game app with rule sets (ulti: its engine's built-in ones) registers a function returning their keys in its
AppConfig.ready(), so tournaments imports no game app, and with it a function returning each key's name as
shown to people ("MAUSZ 2013"): pages show the name, never the key.
"""

_sources = []
_namers = []


def register_rule_sets(keys, names=None) -> None:
    """`keys()` -> the keys of the rule sets a game app knows; `names()` -> {key: translated name}."""
    if keys not in _sources:
        _sources.append(keys)
    if names is not None and names not in _namers:
        _namers.append(names)


def known_rule_sets() -> tuple[str, ...]:
    return tuple(sorted({key for keys in _sources for key in keys()}))


def rule_set_name(key: str) -> str:
    """The name of a known rule set (case and spaces around the key ignored), else the text as entered."""
    normal = (key or "").strip().lower()
    for names in _namers:
        found = names().get(normal)
        if found:
            return str(found)
    return key


def rule_set_choices() -> list[tuple[str, str]]:
    """(key, name) of every known rule set, for the form's suggestions."""
    return [(key, rule_set_name(key)) for key in known_rule_sets()]
