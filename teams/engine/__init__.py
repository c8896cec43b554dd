"""Team-event engines (VSz 33): plain Python, nothing from Django.

Match scoring and VP scales (`match`, `vp`), the match options, the five pairing formats (`pairing/`), parsed
match results (`parsed`), standings by round, knockout places, Butler and qualification rights.
"""
