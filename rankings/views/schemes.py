"""The award scheme page: the current rules with examples, its versions, and the staff's edit form."""

from django.contrib import messages
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from federation.access import deny
from federation.models import Federation
from tournaments.models import Event

from ..engine import awards as award_engine
from ..forms import ClassRuleFormSet, QualificationFormSet, SchemeMetaForm, rules_from_forms, scheme_initial
from ..models import AwardScheme
from ..services.schemes import change_scheme, current_scheme, scheme_note

CLASS_LABELS = dict(Event.EventClass.choices)


@require_http_methods(["GET", "POST"])
def scheme(request, code):
    federation = get_object_or_404(Federation, code=code)
    current = current_scheme(federation)
    can_edit = request.user.has_perm("rankings.change_scheme", federation)
    classes, levels = scheme_initial(current)
    class_formset = qualification_formset = meta = None
    if can_edit:
        data = request.POST if request.method == "POST" else None
        class_formset = ClassRuleFormSet(
            data, initial=classes, prefix="cls", form_kwargs={"game": federation.game}
        )
        qualification_formset = QualificationFormSet(data, initial=levels, prefix="qual")
        meta = SchemeMetaForm(data)
        if request.method == "POST":
            if class_formset.is_valid() and qualification_formset.is_valid() and meta.is_valid():
                rules = rules_from_forms(class_formset, qualification_formset)
                try:
                    new = change_scheme(
                        federation,
                        rules,
                        meta.cleaned_data["valid_from"],
                        meta.cleaned_data["note"],
                        request.user,
                    )
                except award_engine.SchemeError as error:
                    messages.error(request, str(error))
                else:
                    messages.success(
                        request,
                        _("Version %(version)s saved; the events it governs are being re-awarded.")
                        % {"version": new.version},
                    )
                    return redirect("rankings_scheme", code=federation.code)
    elif request.method == "POST":
        deny(request, federation)
    rule_rows = []
    engine_scheme = current.scheme
    for name, rule in sorted(engine_scheme.classes.items()):
        examples = []
        for size in (12, 24, 48):
            k = award_engine.scoring_places(rule, size)
            examples.append((size, k, round(float(award_engine.place_points(rule, size, 1)), 2) if k else 0))
        # The class's translated label, never its key (announced, nub_final, ...).
        rule_rows.append((CLASS_LABELS.get(name, name), rule, examples))
    return render(
        request,
        "rankings/scheme.html",
        {
            "federation": federation,
            "current": current,
            "rule_rows": rule_rows,
            "levels": engine_scheme.qualifications,
            "versions": [
                (v, scheme_note(v))
                for v in AwardScheme.objects.filter(federation=federation).select_related("created_by")
            ],
            "can_edit": can_edit,
            "class_formset": class_formset,
            "qualification_formset": qualification_formset,
            "meta": meta,
        },
    )
