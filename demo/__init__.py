"""Demo data for `make run` (`python manage.py seed_demo`) and for tests and benchmarks: not part of any
production app, which never import it."""
