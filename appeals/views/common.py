"""Helpers the appeals views share: finding a case or an event the user may act on, showing refusals."""

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.shortcuts import redirect

from federation.access import object_or_deny
from tournaments.models import Event

from ..models import Appeal

APPEAL_VISIBLE = "appeals.view_appeal"


def appeal_or_404(request, pk, perm=APPEAL_VISIBLE) -> Appeal:
    """The case if the user may `perm` on it; a case he may not see is a 404 (its existence does not leak)."""
    appeals = Appeal.objects.select_related(
        "event__federation", "session", "entry", "respondent_entry", "director"
    )
    return object_or_deny(request, appeals, perm, visible=APPEAL_VISIBLE, pk=pk)


def event_is_public(user, event) -> bool:
    """Who may know an event exists, for the appeals pages: anybody when it is public."""
    return event.is_public


def event_or_404(request, pk, perm) -> Event:
    """The event if the user may `perm` on it; an event not public is a 404 for those who may not."""
    events = Event.objects.select_related("federation", "club")
    return object_or_deny(request, events, perm, visible=event_is_public, pk=pk)


def error_by_field(error: ValidationError) -> dict[str, list[str]]:
    """A service's refusal by field ("__all__" for the whole form)."""
    if hasattr(error, "error_dict"):
        return {
            field: [str(m) for e in errors for m in e.messages] for field, errors in error.error_dict.items()
        }
    return {"__all__": [str(m) for m in error.messages]}


def show_errors(request, error: ValidationError):
    for message in error.messages:
        messages.error(request, message)


def form_errors(request, form):
    for field, errors in form.errors.items():
        label = form.fields[field].label if field in form.fields else ""
        for error in errors:
            messages.error(request, f"{label}: {error}" if label else error)


def act(request, form, call, done, to, *args):
    """Run one step from a posted form: errors of the form or refusals of the service become messages;
    then redirect to the URL named `to` with `args`."""
    if form is not None and not form.is_valid():
        form_errors(request, form)
    else:
        try:
            call()
        except ValidationError as error:
            show_errors(request, error)
        else:
            messages.success(request, done)
    return redirect(to, *args)
