"""`{% no_director_notice event %}`: on an event's pages while nobody holds its director role, who can name one."""

from django import template

from ..services.directors import has_director

register = template.Library()


@register.inclusion_tag("tournaments/_no_director.html", takes_context=True)
def no_director_notice(context, event):
    user = context["request"].user
    return {
        "event": event,
        "missing": event is not None and not has_director(event),
        "can_name": user.has_perm("tournaments.assign_director", event),
        "can_edit": user.has_perm("tournaments.change_event", event),
    }
