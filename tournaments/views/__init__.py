"""Pages of the tournaments app: thin views that check permissions, call a service and render."""
