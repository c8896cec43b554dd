"""Payment pages: an entry's payments (and the form that books one), the bank statement import with its
preview and confirmation, and the monthly settlement between the federation and its clubs (page, CSV)."""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core import signing
from django.db.models import Prefetch
from django.http import Http404, HttpResponse
from django.shortcuts import redirect, render
from django.utils import formats, timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from config.query import DATE_PART_RANGES
from federation import spreadsheet
from federation.access import check, object_or_deny
from federation.models import Club, Federation
from results.upload_input import UploadInputError, read_upload_text

from ..models import Entry, EntryMember, Payment
from ..payment_forms import PaymentForm, StatementForm
from ..refusals import Refused
from ..services import payments as service
from .common import show_refusal

SIGNING_SALT = "tournaments.bank-statement"
# The statement travels from the preview to the confirmation signed, so the page books exactly what it
# showed; an hour is plenty to read a preview.
STATEMENT_MAX_AGE = 3600


def _entry_visible(user, entry):
    return user.has_perm("tournaments.view_event", entry.event)


@login_required
@require_http_methods(["GET", "POST"])
def entry_payments(request, pk):
    entries = Entry.objects.select_related("event__federation", "event__club").prefetch_related(
        Prefetch("members", queryset=EntryMember.objects.select_related("person"))
    )
    entry = object_or_deny(request, entries, "tournaments.view_entry_payments", visible=_entry_visible, pk=pk)
    event = entry.event
    may_record = request.user.has_perm("tournaments.record_payment", event)
    staff = request.user.has_perm("tournaments.import_bank_statement", event.federation)
    form = PaymentForm(request.POST or None, federation_staff=staff) if may_record else None
    if request.method == "POST":
        check(request, "tournaments.record_payment", event)
        if form.is_valid():
            data = form.cleaned_data
            try:
                service.record_payment(
                    entry.pk,
                    request.user,
                    amount=data["amount"],
                    method=data["method"],
                    paid_on=data["paid_on"],
                    note=data["note"],
                    refund=data["kind"] == PaymentForm.REFUND,
                    payee=data.get("payee") or Payment.Payee.ORGANISER,
                )
            except Refused as refused:
                show_refusal(request, refused)
            else:
                messages.success(request, _("The payment is recorded."))
                return redirect("entry_payments", entry.pk)
        status = 400
    else:
        status = 200
    return render(
        request,
        "tournaments/entry_payments.html",
        {"entry": entry, "event": event, "row": service.entry_payments(entry), "form": form},
        status=status,
    )


def _scope(request, *, club_pk=None, code=None):
    if club_pk is not None:
        return object_or_deny(
            request,
            Club.objects.select_related("federation"),
            "tournaments.import_bank_statement",
            pk=club_pk,
        )
    return object_or_deny(request, Federation, "tournaments.import_bank_statement", code=code)


@login_required
@require_http_methods(["GET", "POST"])
def bank_statement(request, pk=None, code=None):
    """Upload a statement: the preview lists every line, matched or not (with its line number); the
    confirmation books the matched ones that were not booked before."""
    scope = _scope(request, club_pk=pk, code=code)
    context = {"scope": scope, "is_club": isinstance(scope, Club)}
    if request.method == "POST" and request.POST.get("signed"):
        try:
            text = signing.loads(request.POST["signed"], salt=SIGNING_SALT, max_age=STATEMENT_MAX_AGE)
        except signing.BadSignature:
            messages.error(request, _("The preview has expired; upload the statement again."))
            return redirect(request.path)
        try:
            booked = service.book_statement(scope, text, request.user)
        except Refused as refused:
            show_refusal(request, refused)
            return redirect(request.path)
        messages.success(
            request,
            _("%(count)s transfers booked, %(amount)s Ft in all.")
            % {
                "count": len(booked),
                "amount": formats.number_format(sum(p.amount for p in booked), force_grouping=True),
            },
        )
        return redirect(request.path)
    form = StatementForm(request.POST or None, request.FILES or None)
    status = 200
    if request.method == "POST":
        status = 400
        if form.is_valid():
            try:
                text = read_upload_text(form.cleaned_data["statement"])
                preview = service.preview_statement(scope, text, request.user)
            except UploadInputError as error:
                form.add_error("statement", error.message)
            except Refused as refused:
                for message in refused.messages:
                    form.add_error("statement", message)
            else:
                context.update(
                    preview=preview,
                    signed=signing.dumps(text, salt=SIGNING_SALT, compress=True),
                    file_name=form.cleaned_data["statement"].name,
                )
                status = 200
    context["form"] = form
    return render(request, "tournaments/bank_statement.html", context, status=status)


def _month(year, month):
    if not DATE_PART_RANGES["year"][0] <= year <= DATE_PART_RANGES["year"][1] or not 1 <= month <= 12:
        raise Http404
    return year, month


def _settlement_scope(request, pk, code):
    if pk is not None:
        club = object_or_deny(
            request, Club.objects.select_related("federation"), "tournaments.view_settlement", pk=pk
        )
        return club.federation, club
    return object_or_deny(request, Federation, "tournaments.view_settlement", code=code), None


def _default_month():
    today = timezone.localdate()
    return (today.year - 1, 12) if today.month == 1 else (today.year, today.month - 1)


@login_required
def settlement(request, code=None, pk=None, year=None, month=None):
    federation, club = _settlement_scope(request, pk, code)
    year, month = _month(year, month) if year else _default_month()
    clubs = service.settlement(federation, year, month, club=club)
    prev = (year - 1, 12) if month == 1 else (year, month - 1)
    nxt = (year + 1, 1) if month == 12 else (year, month + 1)
    return render(
        request,
        "tournaments/settlement.html",
        {
            "federation": federation,
            "club": club,
            "year": year,
            "month": month,
            "clubs": clubs,
            "prev": prev,
            "next": nxt,
            "totals": service.all_clubs(clubs),
        },
    )


@login_required
def settlement_csv(request, code=None, pk=None, year=None, month=None):
    """The settlement for a spreadsheet (`federation.spreadsheet`: ';'-separated, UTF-8 with a BOM), integer
        forints without grouping; the room rent the club keeps (within "kept by the club") on its own column; with
    more than one club a last row of the all-clubs totals."""
    federation, club = _settlement_scope(request, pk, code)
    year, month = _month(year, month)
    header = [
        _("Club"),
        _("Date"),
        _("Event"),
        _("Event class"),
        _("Paying players"),
        _("Fees owed (Ft)"),
        _("Federation's share (Ft)"),
        _("Kept by the club (Ft)"),
        _("Of which room rent (Ft)"),
        _("Collected by the club (Ft)"),
        _("Received by the federation (Ft)"),
        _("Balance due to the federation (Ft)"),
    ]
    clubs = service.settlement(federation, year, month, club=club)
    rows = [
        (
            row.club.name,
            line.event.start_date.strftime("%Y.%m.%d."),
            line.event.title,
            line.event.get_event_class_display(),
            line.players,
            line.fees,
            line.to_federation,
            line.to_organiser,
            line.room_rent,
            line.collected_by_club,
            line.received_by_federation,
            line.balance,
        )
        for row in clubs
        for line in row.events
    ]
    if len(clubs) > 1:
        total = service.all_clubs(clubs)
        rows.append(
            (
                _("All clubs"),
                "",
                "",
                "",
                total.players,
                total.fees,
                total.to_federation,
                total.to_organiser,
                total.room_rent,
                total.collected_by_club,
                total.received_by_federation,
                total.balance,
            )
        )
    response = HttpResponse(
        spreadsheet.csv_text(header, rows).encode("utf-8"), content_type="text/csv; charset=utf-8"
    )
    label = f"club{club.pk}" if club else federation.code
    response["Content-Disposition"] = f'attachment; filename="settlement-{label}-{year}-{month:02d}.csv"'
    return response
