"""Ulti engines: plain Python, nothing from Django (deal scoring, score sheets, tournament rule sets, table points, standings, pairing, schedules, field formats)."""
