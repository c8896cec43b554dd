"""Plain-Python helpers of the teams app (no Django): standings by round, knockout places, Butler, rights.

The match scoring, VP scales and pairing generators themselves live in `bridge.teams`; these modules only
combine their results the way a whole event needs.
"""
