from importlib import import_module

from django.core.management.base import BaseCommand

# Each app that has demo data has its module `demo/<app>.py` with `seed(out)`; order matters (dependencies first).
DEMO_MODULES = [
    "demo.federation",
    "demo.tournaments",
    "demo.bridge",
    "demo.bridge_individual",
    "demo.bridge_live",
    "demo.teams",
    "demo.ulti",
    "demo.ulti_live",
    "demo.rankings",
    "demo.appeals",
]


class Command(BaseCommand):
    help = "Create (or top up) the demo data of every app. Safe to run again."

    def handle(self, *args, **options):
        for name in DEMO_MODULES:
            try:
                module = import_module(name)
            except ModuleNotFoundError as error:
                if name == error.name or name.startswith(error.name + "."):
                    continue
                raise
            module.seed(self.stdout)
            self.stdout.write("")
        self.stdout.write(self.style.SUCCESS("Demo data ready."))
