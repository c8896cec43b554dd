"""The scoring programs an announcement may name (VSz 26: a masterpoint event is scored only by a program the
federation has tested). The bridge app registers, in its AppConfig.ready(), a function returning the programs
a federation has accepted, so tournaments imports no game app. The portal itself needs no acceptance: it is
the program the federation's test compares others with.
"""

from django.utils.translation import gettext_lazy as _

PORTAL = "Versenyportál"

_sources = []


def register_accepted_programs(programs) -> None:
    """`programs(federation_id)` -> the names of the programs (with version) the federation accepted."""
    if programs not in _sources:
        _sources.append(programs)


def accepted_programs(federation_id: int) -> list[str]:
    return sorted({name for programs in _sources for name in programs(federation_id)})


def offered(federation_id: int | None) -> list[str]:
    """The form's suggestions: the portal, then the federation's accepted programs."""
    return [PORTAL] + (accepted_programs(federation_id) if federation_id else [])


def problem(federation_id: int, program: str):
    """Why a masterpoint event may not name `program`, or None."""
    program = program.strip()
    if not program or program.casefold() == PORTAL.casefold():
        return None
    accepted = accepted_programs(federation_id)
    if program in accepted:
        return None
    return _(
        "VSz 26: a masterpoint event may be scored only by a program the federation has tested; "
        "%(program)s is not among the accepted ones (%(accepted)s)."
    ) % {"program": program, "accepted": ", ".join([PORTAL] + accepted)}
