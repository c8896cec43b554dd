"""API viewsets of the ulti app; `register(router)` is called from config/api.py."""


def register(router):
    pass
