"""What the ulti pages share: loading an object with its permission checked on the server."""

from django.contrib import messages
from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.http import Http404
from django.shortcuts import get_object_or_404

from tournaments.models import Event

from ..models import Group, Round, Stage, Table

VIEW, MANAGE = "ulti.view_results", "ulti.manage_event"


class LoginNeeded(Exception):
    pass


def check(request, perm, obj, event):
    """Allowed, or 404 for what the user may not even know exists, login for anonymous, else 403."""
    if request.user.has_perm(perm, obj):
        return
    if not event.is_public and not request.user.has_perm(MANAGE, event):
        raise Http404
    if perm == VIEW and isinstance(obj, Round | Table) and not request.user.has_perm(MANAGE, event):
        raise Http404  # a draft round does not exist for the public
    if not request.user.is_authenticated:
        raise LoginNeeded
    raise PermissionDenied


def event_or_deny(request, pk, perm=VIEW) -> Event:
    event = get_object_or_404(
        Event.objects.select_related("federation", "club"), pk=pk, format__in=Event.ULTI_FORMATS
    )
    check(request, perm, event, event)
    return event


def round_or_deny(request, pk, perm=VIEW) -> Round:
    rnd = get_object_or_404(
        Round.objects.select_related("group__stage__event__federation", "group__stage__event__club"), pk=pk
    )
    check(request, perm, rnd, rnd.event)
    return rnd


def table_or_deny(request, pk, perm=VIEW) -> Table:
    table = get_object_or_404(Table.objects.select_related("round__group__stage__event__federation"), pk=pk)
    check(request, perm, table, table.event)
    return table


def group_or_deny(request, pk, perm=MANAGE) -> Group:
    group = get_object_or_404(Group.objects.select_related("stage__event__federation"), pk=pk)
    check(request, perm, group, group.event)
    return group


def stage_or_deny(request, pk, perm=MANAGE) -> Stage:
    stage = get_object_or_404(Stage.objects.select_related("event__federation"), pk=pk)
    check(request, perm, stage, stage.event)
    return stage


def login_or_raise(view):
    """Anonymous visitors of a page they may not see go to the login page instead of a 403."""

    def wrapped(request, *args, **kwargs):
        try:
            return view(request, *args, **kwargs)
        except LoginNeeded:
            return redirect_to_login(request.get_full_path())

    wrapped.__name__ = view.__name__
    wrapped.__doc__ = view.__doc__
    return wrapped


def show_errors(request, error):
    for message in error.messages:
        messages.error(request, message)
