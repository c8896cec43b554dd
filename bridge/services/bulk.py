"""The bulk row writers, shared by every result pipeline (results.bulk)."""

from results.bulk import execute_all, gc_paused, insert_rows, write_all

__all__ = ["execute_all", "gc_paused", "insert_rows", "write_all"]
