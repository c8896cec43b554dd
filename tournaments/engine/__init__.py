"""Tournament engines: plain Python, nothing from Django (eligibility, fees, entry shapes per format)."""
