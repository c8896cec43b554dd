"""Team events (VSz 33): match scoring, victory points and pairing. Plain Python, no Django."""
