"""Option dictionaries: every generator has documented defaults, and a typo must fail loudly."""

from collections.abc import Mapping


def merge_options(defaults: Mapping[str, object], given: Mapping[str, object] | None) -> dict[str, object]:
    """Defaults overlaid with the given options; an unknown key raises ValueError naming the valid ones."""
    given = dict(given or {})
    unknown = sorted(set(given) - set(defaults))
    if unknown:
        raise ValueError(f"unknown option(s) {', '.join(unknown)}; valid: {', '.join(sorted(defaults))}")
    merged = dict(defaults)
    merged.update(given)
    return merged
