"""Federation engines: plain Python, nothing from Django (age groups)."""
