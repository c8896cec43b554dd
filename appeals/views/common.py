"""Helpers the appeals views share: finding a case or an event the user may act on, showing refusals."""

from django.contrib import messages
from django.core.exceptions import PermissionDenied, ValidationError
from django.http import Http404
from django.shortcuts import get_object_or_404, redirect

from tournaments.models import Event

from ..models import Appeal


def appeal_or_404(request, pk, perm="appeals.view_appeal") -> Appeal:
    """The case if the user may see it (else 404, so a case's existence does not leak), and act (else 403)."""
    appeal = get_object_or_404(
        Appeal.objects.select_related(
            "event__federation", "session", "entry", "respondent_entry", "director"
        ),
        pk=pk,
    )
    if not request.user.has_perm("appeals.view_appeal", appeal):
        raise Http404
    if perm != "appeals.view_appeal" and not request.user.has_perm(perm, appeal):
        raise PermissionDenied
    return appeal


def event_or_404(request, pk, perm) -> Event:
    event = get_object_or_404(Event.objects.select_related("federation", "club"), pk=pk)
    if not request.user.has_perm(perm, event):
        if event.is_public:
            raise PermissionDenied
        raise Http404
    return event


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
