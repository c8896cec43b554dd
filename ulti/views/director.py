"""The director's pages: set up, draw (Swiss or the all-play-all button), publish, edit by hand, table
cards, result upload (web form or CSV), versions, the next stage. Each checks ``ulti.manage_event`` on the
object; a refused action says why and changes nothing."""

from django.contrib import messages
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from results import decision_views
from results.upload_decisions import DecisionsPending
from results.upload_input import UploadInputError

from ..models import RoundUpload, Stage
from ..services import UltiError, draw, pages, setup, uploads
from ..services import recompute as recompute_service
from ..services.decisions import carried_by
from .common import (
    MANAGE,
    event_or_deny,
    group_or_deny,
    round_or_deny,
    show_errors,
    stage_or_deny,
)


@require_POST
def start(request, pk):
    event = event_or_deny(request, pk, MANAGE)
    try:
        unit = _int(request.POST.get("unit_forints"))
        setup.ensure_settings(event, unit_forints=unit)
        stage = setup.start_event(event, request.user)
    except UltiError as error:
        show_errors(request, error)
    else:
        messages.success(
            request,
            _("%(n)s players seated in %(g)s group(s); %(r)s rounds.")
            % {"n": stage.participants.count(), "g": stage.groups.count(), "r": stage.rounds},
        )
    return redirect("ulti_event", event.pk)


def _int(value):
    value = (value or "").strip()
    if not value:
        return None
    if not value.isdigit():
        raise UltiError(_("%(value)s is not a whole number.") % {"value": value})
    return int(value)


@require_POST
def save_settings(request, pk):
    event = event_or_deny(request, pk, MANAGE)
    try:
        setup.ensure_settings(event, unit_forints=_int(request.POST.get("unit_forints")))
    except UltiError as error:
        show_errors(request, error)
    else:
        messages.success(request, _("Settings saved."))
    return redirect("ulti_event", event.pk)


@require_POST
def generate(request, pk):
    group = group_or_deny(request, pk)
    try:
        rnd = draw.generate_round(group, request.user)
    except UltiError as error:
        show_errors(request, error)
        return redirect("ulti_event", group.event_id)
    messages.success(request, _("Round %(n)s drawn: check the tables, then publish.") % {"n": rnd.number})
    return redirect("ulti_round", rnd.pk)


@require_POST
def schedule(request, pk):
    group = group_or_deny(request, pk)
    try:
        rounds = draw.generate_schedule(group, request.user)
    except UltiError as error:
        show_errors(request, error)
        return redirect("ulti_event", group.event_id)
    messages.success(request, _("%(n)s rounds drawn: publish them one by one.") % {"n": len(rounds)})
    return redirect("ulti_round", rounds[0].pk)


@require_POST
def publish(request, pk):
    rnd = round_or_deny(request, pk, MANAGE)
    try:
        draw.publish_round(rnd, request.user)
    except UltiError as error:
        show_errors(request, error)
    else:
        messages.success(request, _("Round %(n)s published.") % {"n": rnd.number})
    return redirect("ulti_round", rnd.pk)


def edit(request, pk):
    rnd = round_or_deny(request, pk, MANAGE)
    participants = list(rnd.group.participants.select_related("person").order_by("number"))
    current = pages.round_tables(rnd)
    count = len(current["tables"])
    byes = len(participants) - 3 * count
    warnings = []
    if request.method == "POST":
        tables = [[_pid(request.POST.get(f"t{t}_{s}")) for s in range(1, 4)] for t in range(1, count + 1)]
        tables = [[pid for pid in t if pid is not None] for t in tables]
        bye_ids = [pid for pid in (_pid(request.POST.get(f"bye{i}")) for i in range(1, byes + 1)) if pid]
        try:
            warnings = draw.edit_round(
                rnd, tables, bye_ids, user=request.user, confirm=bool(request.POST.get("confirm"))
            )
        except UltiError as error:
            show_errors(request, error)
        else:
            if not warnings or request.POST.get("confirm"):
                messages.success(request, _("Tables of round %(n)s saved.") % {"n": rnd.number})
                return redirect("ulti_round", rnd.pk)
        chosen = {
            **{
                f"t{t}_{s}": request.POST.get(f"t{t}_{s}", "")
                for t in range(1, count + 1)
                for s in range(1, 4)
            },
            **{f"bye{i}": request.POST.get(f"bye{i}", "") for i in range(1, byes + 1)},
        }
    else:
        chosen = {
            f"t{t['table'].number}_{i}": str(seat["participant"].pk)
            for t in current["tables"]
            for i, seat in enumerate(t["seats"], start=1)
        }
        chosen.update({f"bye{i}": str(p.pk) for i, p in enumerate(current["byes"], start=1)})
    slots = [
        {
            "table": t,
            "seats": [{"name": f"t{t}_{s}", "value": chosen.get(f"t{t}_{s}", "")} for s in range(1, 4)],
        }
        for t in range(1, count + 1)
    ]
    bye_slots = [{"name": f"bye{i}", "value": chosen.get(f"bye{i}", "")} for i in range(1, byes + 1)]
    return render(
        request,
        "ulti/round_edit.html",
        {
            "event": rnd.event,
            "round": rnd,
            "participants": participants,
            "slots": slots,
            "bye_slots": bye_slots,
            "warnings": warnings,
            "has_results": RoundUpload.objects.filter(round=rnd).exists(),
        },
    )


def _pid(value):
    return int(value) if value and value.isdigit() else None


def cards(request, pk):
    """Printable table cards: one per table with the three players' seats."""
    rnd = round_or_deny(request, pk, MANAGE)
    return render(request, "ulti/cards.html", {"event": rnd.event, "round": rnd, **pages.round_tables(rnd)})


def upload(request, pk):
    rnd = round_or_deny(request, pk, MANAGE)
    current = pages.round_tables(rnd)
    values = {}
    if request.method == "POST" and "csv" in request.POST:
        upload_file = request.FILES.get("file")
        data = upload_file if upload_file is not None else request.POST.get("text", "")
        upload = {
            "kind": "csv",
            "file_name": getattr(upload_file, "name", ""),
            "note": request.POST.get("note", ""),
        }
        try:
            uploads.receive(
                rnd,
                uploads.Format.CSV,
                data,
                user=request.user,
                file_name=upload["file_name"],
                note=upload["note"],
            )
        except DecisionsPending as pending:
            return _ask(request, rnd, {**upload, "text": pending.text}, pending)
        except (UltiError, UploadInputError) as error:
            show_errors(request, error)
        else:
            messages.success(request, _("Results uploaded; the standings are being recomputed."))
            return redirect("ulti_round", rnd.pk)
    elif request.method == "POST":
        results, errors = {}, []
        for t in current["tables"]:
            table = t["table"]
            got = {}
            for seat in t["seats"]:
                p = seat["participant"]
                name = f"f{table.pk}_{p.pk}"
                raw = (request.POST.get(name) or "").strip().replace(" ", "").replace("\u00a0", "")
                values[name] = raw
                if raw == "":
                    continue
                try:
                    got[p.pk] = int(raw)
                except ValueError:
                    errors.append(
                        _("Table %(t)s: %(value)s is not a forint amount.")
                        % {"t": table.number, "value": raw}
                    )
            results[table.number] = got
        try:
            if errors:
                raise UltiError(errors)
            upload = {"kind": "form", "results": results, "note": request.POST.get("note", "")}
            _store(rnd, upload, request.user)
        except DecisionsPending as pending:
            return _ask(request, rnd, upload, pending)
        except UltiError as error:
            show_errors(request, error)
        else:
            messages.success(request, _("Results saved; the standings are being recomputed."))
            return redirect("ulti_round", rnd.pk)
    else:
        for t in current["tables"]:
            for seat in t["seats"]:
                if seat["forint"] is not None:
                    values[f"f{t['table'].pk}_{seat['participant'].pk}"] = str(seat["forint"])
    rows = [
        {
            "table": t["table"],
            "seats": [
                {
                    "participant": s["participant"],
                    "name": f"f{t['table'].pk}_{s['participant'].pk}",
                    "value": values.get(f"f{t['table'].pk}_{s['participant'].pk}", ""),
                }  # fmt: skip
                for s in t["seats"]
            ],
        }
        for t in current["tables"]
    ]
    return render(
        request,
        "ulti/upload.html",
        {"event": rnd.event, "round": rnd, "rows": rows, "processing": pages.processing(rnd.event_id)},
    )


PENDING = "ulti-round"


def _store(rnd, upload: dict, user, **resolution):
    """The waiting (or new) upload of the round, through the one upload seam; ``resolution``: the
    director's choices on the decisions it covers."""
    if upload["kind"] == "csv":
        data = upload["text"]
    else:
        data = {
            str(t): {int(pid): forint for pid, forint in got.items()} for t, got in upload["results"].items()
        }
    return uploads.receive(
        rnd,
        upload["kind"],
        data,
        user=user,
        file_name=upload.get("file_name", ""),
        note=upload["note"],
        **resolution,
    )


def _ask(request, rnd, upload, pending):
    """Keep the upload in the session (nothing stored) and show the decisions it covers."""
    payload = {"upload": upload, "based_on": pending.based_on, "affected": pending.affected}
    token = decision_views.stash(request, PENDING, rnd.pk, payload)
    return _confirm_page(request, rnd, token, pending.affected)


def _confirm_page(request, rnd, token, affected, errors=(), post=None, back=None, action=None):
    return decision_views.confirm_page(
        request,
        event=rnd.event,
        title=_("Round %(n)s: results") % {"n": rnd.number},
        back_url=back or reverse("ulti_upload", args=[rnd.pk]),
        action_url=action or reverse("ulti_upload_confirm", args=[rnd.pk]),
        token=token,
        affected=affected,
        errors=errors,
        post=post,
    )


def confirm_waiting(request, rnd, kind, owner, store, *, back, action, done):
    """The director's answer to a waiting upload (round form / CSV, or a score sheet): store it with the
    choices, ask again when a choice is refused, start over when the round changed meanwhile."""
    payload = decision_views.waiting(request, kind, owner, request.POST.get("token"))
    if payload is None:
        messages.warning(request, _("This confirmation is out of date: nothing was saved. Upload again."))
        return redirect(back)
    if request.POST.get("cancel"):
        decision_views.drop(request, kind, owner)
        messages.info(request, _("The upload was cancelled: nothing was saved."))
        return redirect("ulti_round", rnd.pk)
    decisions, reasons = decision_views.choices_of(request.POST)
    try:
        store(payload, decisions=decisions, reasons=reasons, based_on=payload["based_on"])
    except DecisionsPending as pending:
        return _confirm_page(request, rnd, payload["token"], pending.affected, (), request.POST, back, action)
    except UltiError as error:
        latest = RoundUpload.objects.filter(round=rnd).order_by("-number").first()
        if (latest.number if latest else 0) != payload["based_on"]:
            decision_views.drop(request, kind, owner)
            show_errors(request, error)
            return redirect(back)
        return _confirm_page(
            request, rnd, payload["token"], payload["affected"], error.messages, request.POST, back, action
        )
    decision_views.drop(request, kind, owner)
    messages.success(request, done)
    return redirect("ulti_round", rnd.pk)


@require_POST
def upload_confirm(request, pk):
    rnd = round_or_deny(request, pk, MANAGE)
    return confirm_waiting(
        request,
        rnd,
        PENDING,
        rnd.pk,
        lambda payload, **resolution: _store(rnd, payload["upload"], request.user, **resolution),
        back=reverse("ulti_upload", args=[rnd.pk]),
        action=reverse("ulti_upload_confirm", args=[rnd.pk]),
        done=_("Results saved; the standings are being recomputed."),
    )


def versions(request, pk):
    rnd = round_or_deny(request, pk, MANAGE)
    history = []
    for version in rnd.uploads.select_related("uploaded_by").order_by("-number"):
        lines = version.lines.select_related("table", "participant__person").order_by("table__number", "pk")
        history.append(
            {
                "version": version,
                "lines": list(lines),
                "sheets": list(version.sheets.all()),
                "carried": list(carried_by(version)),
                "deductions": list(version.deductions.select_related("participant__person")),
            }
        )
    return render(request, "ulti/versions.html", {"event": rnd.event, "round": rnd, "history": history})


@require_POST
def next_stage(request, pk):
    """The next stage; a tie at the cut line (II. 10. (5)) is shown for the director to resolve."""
    stage = stage_or_deny(request, pk)
    system = request.POST.get("system") or None
    try:
        size = _int(request.POST.get("size")) or 0
        if system not in (None, *Stage.System.values):
            raise UltiError(_("Unknown pairing system."))
        admit = request.POST.getlist("admit") if request.POST.get("resolve") else None
        nxt = setup.start_next_stage(stage, size=size, system=system, user=request.user, admit=admit)
    except setup.CutTied as tie:
        context = {"stage": stage, "event": stage.event, "tie": tie, "size": size, "system": system or ""}
        return render(request, "ulti/cut_tie.html", context)
    except UltiError as error:
        show_errors(request, error)
    else:
        messages.success(
            request, _("%(stage)s created with the top %(n)s players.") % {"stage": nxt, "n": nxt.qualified}
        )
    return redirect("ulti_event", stage.event_id)


@require_POST
def recompute(request, pk):
    """Run the recompute again (e.g. after a failure was fixed); it is idempotent."""
    event = event_or_deny(request, pk, MANAGE)
    recompute_service.run_again(event.pk)
    messages.success(request, _("The standings are being recomputed."))
    return redirect("ulti_event", event.pk)
