"""Forms of the bridge result pages (input checks only; the services decide)."""

from django import forms
from django.utils.translation import gettext_lazy as _

from bridge.engine.scoring.adjusted import LATENESS_AWARDS, PENALTY_CATALOGUE

from ..models import Exclusion, Pair, PairEvent, Section, SessionPair
from ..services import adjustments

AWARDS = [
    ("", "—"),
    ("A+", _("A+ (average-plus) both")),
    ("A", _("A (average) both")),
    ("A-", _("A- (average-minus) both")),
    ("A+/A-", "A+ / A-"),
    ("A-/A+", "A- / A+"),
    ("A+/A", "A+ / A"),
    ("A/A+", "A / A+"),
    ("A/A-", "A / A-"),
    ("A-/A", "A- / A"),
]


class SettingsForm(forms.ModelForm):
    class Meta:
        model = PairEvent
        fields = ["method", "scale", "rounding", "tie_break"]


class SessionForm(forms.Form):
    announced = forms.ModelChoiceField(queryset=None, required=False, label=_("announced session"))
    movement = forms.ChoiceField(choices=Section.Movement.choices, label=_("movement"))
    sections = forms.IntegerField(min_value=1, max_value=26, initial=1, label=_("sections"))
    boards_per_round = forms.IntegerField(min_value=1, max_value=8, initial=2, label=_("boards per round"))
    rounds = forms.IntegerField(min_value=1, required=False, label=_("rounds (empty: all)"))
    even_method = forms.ChoiceField(choices=Section.EvenMethod.choices, label=_("even number of tables"))
    arrow_switch_rounds = forms.CharField(required=False, label=_("arrow-switched rounds"), help_text="3, 6")
    seat_entries = forms.BooleanField(initial=True, required=False, label=_("seat the entered pairs"))

    def __init__(self, *args, event, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["announced"].queryset = event.sessions.filter(pair_session__isnull=True)


class UploadForm(forms.Form):
    FORMATS = [("pbn", _("PBN file")), ("usebio", _("USEBIO file (XML)")), ("csv", _("CSV file"))]
    format = forms.ChoiceField(choices=FORMATS, label=_("file format"))
    file = forms.FileField(label=_("file"))
    note = forms.CharField(max_length=500, required=False, label=_("note"))


class TravellerLineForm(forms.Form):
    ns = forms.CharField(max_length=6, required=False, label=_("N-S"))
    ew = forms.CharField(max_length=6, required=False, label=_("E-W"))
    contract = forms.CharField(max_length=10, required=False, label=_("contract"))
    declarer = forms.CharField(max_length=6, required=False, label=_("declarer"))
    lead = forms.CharField(max_length=4, required=False, label=_("lead"))
    result = forms.CharField(max_length=3, required=False, label=_("result"))
    score = forms.CharField(max_length=6, required=False, label=_("N-S score"))

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        for field in self.fields.values():
            field.widget.attrs.update({"class": "form-control form-control-sm", "autocomplete": "off"})

    def has_content(self) -> bool:
        data = getattr(self, "cleaned_data", {}) or {}
        return any((data.get(name) or "").strip() for name in self.fields)


TravellerFormSet = forms.formset_factory(TravellerLineForm, extra=0)


class TravellerNoteForm(forms.Form):
    note = forms.CharField(max_length=500, required=False, label=_("note"))


LATENESS = [
    ("", "—"),
    ("NS", _("N-S came late (A- to them, A+ to E-W)")),
    ("EW", _("E-W came late (A- to them, A+ to N-S)")),
    ("NS+", _("N-S came late through vis major (A to them, A+ to E-W)")),
    ("EW+", _("E-W came late through vis major (A to them, A+ to N-S)")),
]


def offence_choices():
    """The VSz 32 catalogue with each offence's range; "other" is the free percentage (VSz 32 h)."""
    return [("", "—")] + [
        (code, adjustments.offence_text(code))
        for code in PENALTY_CATALOGUE
        if code not in adjustments.AUTOMATIC
    ]


class AdjustForm(forms.Form):
    board = forms.IntegerField(min_value=1, required=False, label=_("board"))
    ns = forms.ModelChoiceField(queryset=None, required=False, label=_("N-S pair"))
    ew = forms.ModelChoiceField(queryset=None, required=False, label=_("E-W pair"))
    award = forms.ChoiceField(choices=AWARDS, required=False, label=_("artificial score (N-S / E-W)"))
    lateness = forms.ChoiceField(
        choices=LATENESS,
        required=False,
        label=_("or lateness (VSz 30): a board the late pair could not play"),
    )
    score = forms.IntegerField(required=False, label=_("or assigned N-S score"))
    penalty_pair = forms.ModelChoiceField(queryset=None, required=False, label=_("penalty: pair"))
    penalty_offence = forms.ChoiceField(choices=(), required=False, label=_("penalty: offence (VSz 32)"))
    penalty_percent = forms.DecimalField(
        min_value=0, max_value=100, decimal_places=2, required=False, label=_("penalty: percent of the top")
    )
    penalty_on_board = forms.BooleanField(
        required=False, label=_("on this board (otherwise from the session total)")
    )
    reason = forms.CharField(max_length=500, label=_("reason"))

    def __init__(self, *args, session, **kwargs):
        super().__init__(*args, **kwargs)
        seats = SessionPair.objects.filter(section__session=session).select_related("section", "pair")
        for name in ("ns", "ew", "penalty_pair"):
            self.fields[name].queryset = seats
            self.fields[name].label_from_instance = lambda s: f"{s.code} {s.pair.display_name}"
        self.fields["penalty_offence"].choices = offence_choices()

    def clean(self):
        data = super().clean()
        late = data.get("lateness")
        if late:
            if data.get("award") or data.get("score") is not None:
                raise forms.ValidationError(
                    _("Give lateness, an artificial score or an assigned score: one.")
                )
            data["award"] = LATENESS_AWARDS[(late.rstrip("+"), late.endswith("+"))]
        if data.get("award") and data.get("score") is not None:
            raise forms.ValidationError(_("Give an artificial score or an assigned score, not both."))
        if bool(data.get("penalty_pair")) != (data.get("penalty_percent") is not None):
            raise forms.ValidationError(_("A penalty needs both the pair and the percentage."))
        if data.get("penalty_pair") and not data.get("penalty_offence"):
            raise forms.ValidationError(
                _('Choose the offence from the catalogue (VSz 32), or "other" for a free percentage.')
            )
        return data


class PsychForm(forms.Form):
    board = forms.IntegerField(min_value=1, label=_("board"))
    pair = forms.ModelChoiceField(queryset=None, label=_("pair"))
    call = forms.CharField(
        max_length=40, label=_("psychic call"), help_text=_("e.g. 1♥ opened with a singleton")
    )
    note = forms.CharField(max_length=500, required=False, label=_("note"))

    def __init__(self, *args, session, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["pair"].queryset = SessionPair.objects.filter(section__session=session).select_related(
            "section", "pair"
        )
        self.fields["pair"].label_from_instance = lambda s: f"{s.code} {s.pair.display_name}"


class SubstitutionForm(forms.Form):
    pair = forms.ModelChoiceField(queryset=None, label=_("pair"))
    replaced = forms.ChoiceField(
        choices=[("1", _("first player")), ("2", _("second player"))], label=_("replaced")
    )
    substitute = forms.CharField(max_length=20, label=_("substitute's member number"))
    boards = forms.CharField(max_length=200, label=_("boards the substitute played"), help_text="1-9, 13")
    note = forms.CharField(max_length=300, required=False, label=_("note"))

    def __init__(self, *args, session, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["pair"].queryset = Pair.objects.filter(seats__section__session=session).select_related(
            "player1", "player2"
        )


class WithdrawalForm(forms.Form):
    pair = forms.ModelChoiceField(queryset=None, label=_("pair"))
    reason = forms.CharField(max_length=300, required=False, label=_("reason"))

    def __init__(self, *args, session, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["pair"].queryset = Pair.objects.filter(
            seats__section__session=session, withdrawal__isnull=True
        ).select_related("player1", "player2")


class ExclusionForm(forms.Form):
    """VSz 23: the director excludes a pair from the session, a part of it, or the whole event."""

    pair = forms.ModelChoiceField(queryset=None, label=_("pair"))
    scope = forms.ChoiceField(choices=Exclusion.SCOPES, label=_("excluded"))
    boards = forms.CharField(
        max_length=200,
        required=False,
        label=_("boards it no longer plays"),
        help_text=_("Like 15-21; empty: the whole session."),
    )
    reason = forms.CharField(widget=forms.Textarea(attrs={"rows": 2}), max_length=2000, label=_("reason"))
    committee_consent = forms.CharField(
        max_length=300,
        required=False,
        label=_("consent of the Appeals Committee"),
        help_text=_("Needed to exclude from the whole event: the committee's decision or who gave it."),
    )

    def __init__(self, *args, session, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["pair"].queryset = Pair.objects.filter(seats__section__session=session).select_related(
            "player1", "player2"
        )


class CorrectionForm(forms.Form):
    board = forms.IntegerField(min_value=1, label=_("board"))
    contract = forms.CharField(max_length=10, required=False, label=_("contract"))
    declarer = forms.CharField(max_length=6, required=False, label=_("declarer"))
    lead = forms.CharField(max_length=4, required=False, label=_("lead"))
    result = forms.CharField(max_length=3, required=False, label=_("result"))
    score = forms.CharField(max_length=6, required=False, label=_("N-S score"))
    reason = forms.CharField(widget=forms.Textarea(attrs={"rows": 2}), label=_("what was written wrong"))
    opponents_agree = forms.BooleanField(required=False, label=_("the opponents agree"))


class DecisionForm(forms.Form):
    note = forms.CharField(max_length=500, required=False, label=_("note"))


class DealingForm(forms.Form):
    boards = forms.IntegerField(min_value=1, max_value=99, label=_("boards"))


class DealsFileForm(forms.Form):
    file = forms.FileField(label=_("PBN file with deals"))


class ProgramCheckForm(forms.Form):
    program = forms.CharField(max_length=100, required=False, label=_("program and version"))
    file = forms.FileField(label=_("PBN or USEBIO file scored by the program"))
    accept = forms.BooleanField(
        required=False, label=_("record the program as accepted, with this report (only if it passes)")
    )


class IndividualDecisionForm(forms.Form):
    """The director's decision on one table's result of an individual event (services.individual)."""

    KINDS = [
        ("correction", _("correction of a clerical error (VSz 12)")),
        ("adjustment", _("adjusted score (VSz 29)")),
        ("appeal", _("appeal decision")),
    ]
    kind = forms.ChoiceField(choices=KINDS, label=_("decision"))
    board = forms.IntegerField(min_value=1, max_value=999, label=_("board"))
    table = forms.IntegerField(min_value=1, max_value=999, label=_("table"))
    contract = forms.CharField(max_length=8, required=False, label=_("contract"))
    declarer = forms.CharField(max_length=2, required=False, label=_("declarer"))
    lead = forms.CharField(max_length=4, required=False, label=_("lead"))
    result = forms.CharField(max_length=4, required=False, label=_("result"))
    score = forms.CharField(
        max_length=8,
        required=False,
        label=_("N-S score or artificial score"),
        help_text=_("For example 420, -100, or A+/A- (N-S/E-W), A, A-."),
    )
    reason = forms.CharField(max_length=400, label=_("reason"), widget=forms.Textarea(attrs={"rows": 2}))


class IndividualSubstitutionForm(forms.Form):
    """VSz 25: who played some boards under a player's number in an individual event."""

    number = forms.IntegerField(min_value=1, max_value=999, label=_("player number"))
    substitute = forms.CharField(max_length=20, label=_("substitute's member number"))
    boards = forms.CharField(max_length=200, label=_("boards the substitute played"), help_text="1-9, 13")
    note = forms.CharField(max_length=300, required=False, label=_("note"))


class IndividualUploadForm(forms.Form):
    """An individual event's results file: the CSV or PBN with player numbers (engine.individual_readers)."""

    FORMATS = [("csv", _("CSV file")), ("pbn", _("PBN file"))]
    format = forms.ChoiceField(choices=FORMATS, label=_("file format"))
    file = forms.FileField(label=_("file"))
    note = forms.CharField(max_length=500, required=False, label=_("note"))
