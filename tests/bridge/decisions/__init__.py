"""Decisions survive every upload (issue #14): corrections, appeal rulings, the director's adjusted and
artificial scores, penalties and withdrawals are layers re-applied on each new upload; one the upload touches
waits for the director (keep, re-confirm, set aside with a reason), on the page and in the API (409)."""
