"""Services: load models, call the pure engines (eligibility, fees), write the result in one transaction."""
