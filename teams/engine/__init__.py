"""Team-event engines (VSz 33): plain Python, nothing from Django.

Match scoring and VP scales (`match`, `vp`), the match options, the five pairing formats (`pairing/`), parsed
match results (`parsed`), the upload readers (`csv_reader`, `pbn_reader`, one room's score in `scores`; their
refusals are `problems.Problem`s, translated by the caller), standings by round, knockout places, Butler and
qualification rights.
"""
