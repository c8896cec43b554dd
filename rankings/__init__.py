"""Masterpoints, ulti rating (értékszám), ranking lists and the National Ulti Championship season."""
