"""Pairing generators for team events (VSz 33), one module per format.

Every generator takes plain `TeamStanding` objects and an options dict (unknown keys are errors) and
returns a `RoundPairing`, so they run and are tested without a database.
"""
