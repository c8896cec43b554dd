"""API viewsets of the bridge app; `register(router)` is called from config/api.py."""


def register(router):
    pass
