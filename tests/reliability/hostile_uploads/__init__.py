"""Hostile uploads: a corpus of malformed files posted through the director's upload pages and the API,
and handed to the upload services directly.

Every refusal must be clear (status 400, or 200 with the error shown; the message names the line, board or
table), write nothing (the row count of every model of the result apps is the same before and after), never
be a 500, and never render anything executable back (no unescaped <script> in the response).

The real defects this corpus found (digits that isdigit() accepts but int() refuses, csv module errors,
a cp1250 fallback that could not decode, numbers too large for their database column) each gave a 500;
they are fixed, and the `test_fixed_defect_*` tests keep them fixed.
"""
