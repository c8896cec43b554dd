"""Pages of ulti events: thin views that check permissions on the object, call a service and render."""
