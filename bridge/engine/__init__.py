"""Bridge engines: plain Python, nothing from Django (scoring, PBN / USEBIO, movements, dealing)."""
