from django.apps import AppConfig


class DemoConfig(AppConfig):
    """Demo data and its `seed_demo` command; production apps never import it."""

    name = "demo"
