"""API viewsets of the tournaments app; `register(router)` is called from config/api.py."""


def register(router):
    pass
