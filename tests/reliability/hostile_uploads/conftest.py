"""The hostile-upload tests run in English with an English client (the refusals are matched by text)."""

from .helpers import client, english  # noqa: F401 (fixtures)
