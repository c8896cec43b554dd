def portal(request):
    """Values every page needs for its navigation."""
    user = request.user
    person = getattr(user, "person", None) if user.is_authenticated else None
    return {"portal_person": person}
