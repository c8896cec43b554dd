from decimal import Decimal

from django import forms
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from tournaments.models import Event

from .engine import awards as award_engine


def _class_choices(game):
    classes = getattr(Event, "EventClass", None)
    if classes is None:
        return []
    names = getattr(Event, "BRIDGE_CLASSES" if game == "bridge" else "ULTI_CLASSES", None) or list(classes)
    return [(c.value, c.label) for c in names]


class ClassRuleForm(forms.Form):
    event_class = forms.CharField(label=_("Event class"), max_length=20)
    first = forms.DecimalField(label=_("First place"), min_value=0, max_digits=8, decimal_places=2)
    per_entry = forms.DecimalField(
        label=_("Per entry"), min_value=0, max_digits=8, decimal_places=3, initial=0
    )
    max_first = forms.DecimalField(
        label=_("First place at most"), min_value=0, max_digits=8, decimal_places=2, required=False
    )
    share = forms.DecimalField(
        label=_("Share of the field that scores"),
        min_value=Decimal("0.01"),
        max_value=1,
        max_digits=4,
        decimal_places=3,
        initial=Decimal("0.4"),
    )
    min_field = forms.IntegerField(label=_("Smallest field"), min_value=1, initial=3)

    def __init__(self, *args, game=None, **kwargs):
        super().__init__(*args, **kwargs)
        choices = _class_choices(game)
        if choices:
            self.fields["event_class"] = forms.ChoiceField(label=_("Event class"), choices=choices)

    def clean(self):
        data = super().clean()
        first, cap = data.get("first"), data.get("max_first")
        if cap is not None and first is not None and cap < first:
            self.add_error("max_first", _("The cap is below the first place's points."))
        return data


class QualificationForm(forms.Form):
    code = forms.CharField(label=_("Code"), max_length=20)
    name = forms.CharField(label=_("Name"), max_length=60)
    min_points = forms.DecimalField(
        label=_("All-time masterpoints needed"), min_value=Decimal("0.01"), max_digits=10, decimal_places=2
    )


class BaseRowsFormSet(forms.BaseFormSet):
    key = "event_class"

    def clean(self):
        if any(self.errors):
            return
        seen = set()
        for form in self.forms:
            if not form.cleaned_data or form.cleaned_data.get("DELETE"):
                continue
            value = form.cleaned_data.get(self.key)
            if value in seen:
                raise forms.ValidationError(_("%(value)s appears twice.") % {"value": value})
            seen.add(value)


class BaseQualificationFormSet(BaseRowsFormSet):
    key = "code"


ClassRuleFormSet = forms.formset_factory(ClassRuleForm, formset=BaseRowsFormSet, extra=1, can_delete=True)
QualificationFormSet = forms.formset_factory(
    QualificationForm, formset=BaseQualificationFormSet, extra=1, can_delete=True
)


class SchemeMetaForm(forms.Form):
    valid_from = forms.DateField(
        label=_("Valid from"),
        help_text=_("Events on or after this day are re-awarded by the new version."),
        widget=forms.DateInput(attrs={"type": "date"}),
    )
    note = forms.CharField(label=_("Reason for the change"), widget=forms.Textarea(attrs={"rows": 2}))

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["valid_from"].initial = timezone.localdate().replace(month=1, day=1)


def scheme_initial(scheme):
    data = award_engine.scheme_to_dict(scheme.scheme)
    classes = [
        {
            "event_class": name,
            "first": Decimal(r["first"]),
            "per_entry": Decimal(r["per_entry"]),
            "max_first": None if r["max_first"] is None else Decimal(r["max_first"]),
            "share": Decimal(r["share"]),
            "min_field": r["min_field"],
        }
        for name, r in data["classes"].items()
    ]
    levels = [
        {"code": q["code"], "name": q["name"], "min_points": Decimal(q["min_points"])}
        for q in data["qualifications"]
    ]
    return classes, levels


def rules_from_forms(class_formset, qualification_formset) -> dict:
    classes = {}
    for form in class_formset.forms:
        d = form.cleaned_data
        if not d or d.get("DELETE"):
            continue
        classes[d["event_class"]] = {
            "first": str(d["first"]),
            "per_entry": str(d["per_entry"] or 0),
            "max_first": None if d.get("max_first") is None else str(d["max_first"]),
            "share": str(d["share"]),
            "min_field": d["min_field"],
        }
    levels = [
        {
            "code": f.cleaned_data["code"],
            "name": f.cleaned_data["name"],
            "min_points": str(f.cleaned_data["min_points"]),
        }
        for f in qualification_formset.forms
        if f.cleaned_data and not f.cleaned_data.get("DELETE")
    ]
    return {"classes": classes, "qualifications": levels}


class InviteForm(forms.Form):
    stage = forms.ChoiceField(
        label=_("Stage"), choices=[("semifinal", _("semifinal")), ("final", _("final"))]
    )
    deadline = forms.DateTimeField(
        label=_("Confirm by"), widget=forms.DateTimeInput(attrs={"type": "datetime-local"})
    )
