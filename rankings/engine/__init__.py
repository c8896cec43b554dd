"""Pure engines of the rankings app: no Django imports, plain data in and out."""
