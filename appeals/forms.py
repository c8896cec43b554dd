"""Forms of the appeals pages; the services do every check that matters, the forms only shape the input."""

import re

from django import forms
from django.contrib.auth import get_user_model
from django.utils.html import format_html, format_html_join
from django.utils.translation import gettext_lazy as _

from federation.engine.text import search_key
from tournaments.models import Entry

from .models import Decision, DisciplinaryDecision, Measure, Statement
from .services.attachments import MAX_BYTES
from .services.filing import event_directors

DATE = forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d")
TEXT = forms.Textarea(attrs={"rows": 3})


def entry_choices(event):
    return Entry.objects.filter(event=event, status=Entry.Status.ACTIVE).prefetch_related("members__person")


def _director_label(user):
    return user.get_full_name() or user.email


class DatalistInput(forms.TextInput):
    """A text input with a <datalist> of suggestions the server chose (the caller's scope only)."""

    def __init__(self, *, options, list_id, attrs=None):
        super().__init__({**(attrs or {}), "list": list_id})
        self.options, self.list_id = list(options), list_id

    def render(self, name, value, attrs=None, renderer=None):
        items = format_html_join("", '<option value="{}">', ((o,) for o in self.options))
        return format_html(
            '{}<datalist id="{}">{}</datalist>',
            super().render(name, value, attrs, renderer),
            self.list_id,
            items,
        )


class FileAppealForm(forms.Form):
    session = forms.ModelChoiceField(queryset=None, label=_("Session"))
    board_number = forms.IntegerField(label=_("Board"), min_value=1, max_value=999)
    ns_pair = forms.CharField(label=_("NS pair"), max_length=10, required=False)
    ew_pair = forms.CharField(label=_("EW pair"), max_length=10, required=False)
    appellant_pair = forms.CharField(label=_("Your pair number"), max_length=10, required=False)
    respondent_entry = forms.ModelChoiceField(queryset=None, label=_("Opponents"), required=False)
    director = forms.ModelChoiceField(queryset=None, label=_("Director who ruled"), required=False)
    director_name = forms.CharField(
        label=_("Director's name"), max_length=200, required=False, help_text=_("When not in the list above.")
    )
    ruling = forms.CharField(label=_("The director's ruling"), widget=TEXT)
    request = forms.CharField(label=_("What you ask the committee"), widget=TEXT)
    statement = forms.CharField(label=_("Your statement"), widget=forms.Textarea(attrs={"rows": 6}))
    attachment = forms.FileField(
        label=_("Attachment"),
        required=False,
        help_text=_("A photo of the score card or a PDF (PNG, JPEG or PDF, at most 5 MB)."),
        widget=forms.ClearableFileInput(attrs={"accept": "image/png,image/jpeg,application/pdf"}),
    )

    def __init__(self, *args, event, entry, **kwargs):
        super().__init__(*args, **kwargs)
        self.entry = entry
        self.fields["session"].queryset = event.sessions.filter(appeals_end__isnull=False)
        self.fields["respondent_entry"].queryset = entry_choices(event).exclude(pk=entry.pk)
        self.fields["respondent_entry"].label_from_instance = lambda e: e.display_name
        self.fields["director"].queryset = event_directors(event)
        self.fields["director"].label_from_instance = _director_label
        # The name field suggests the event's directors (a <datalist>: no script needed) and a name that
        # is exactly one of them picks him; any other name stays free text, as before.
        self.fields["director_name"].widget = DatalistInput(
            options=[_director_label(u) for u in self.fields["director"].queryset], list_id="appeal-directors"
        )

    def _director_by_name(self, name):
        # Word order free: "Rehó Lajos" (Hungarian order) finds the account named "Lajos Rehó".
        def key(text):
            return sorted(search_key(text).split())

        wanted = key(name)
        named = [
            u for u in self.fields["director"].queryset if wanted in (key(_director_label(u)), key(u.email))
        ]
        return named[0] if len(named) == 1 else None

    def clean(self):
        data = super().clean()
        if not data.get("director") and data.get("director_name"):
            data["director"] = self._director_by_name(data["director_name"])
        if not data.get("director") and not data.get("director_name"):
            self.add_error("director_name", _("Name the director who ruled."))
        return data


class IntentionForm(forms.Form):
    session = forms.ModelChoiceField(queryset=None, label=_("Session"))
    entry = forms.ModelChoiceField(queryset=None, label=_("Entry"))
    board_number = forms.IntegerField(label=_("Board"), min_value=1, required=False)
    note = forms.CharField(label=_("Note"), max_length=300, required=False)

    def __init__(self, *args, event, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["session"].queryset = event.sessions.all()
        self.fields["entry"].queryset = entry_choices(event)
        self.fields["entry"].label_from_instance = lambda e: e.display_name


class CommitteeMemberForm(forms.Form):
    email = forms.EmailField(label=_("Login e-mail of the member"))
    is_alternate = forms.BooleanField(label=_("Alternate"), required=False)

    def clean_email(self):
        user = get_user_model().objects.filter(username__iexact=self.cleaned_data["email"].strip()).first()
        if user is None:
            raise forms.ValidationError(_("No user with this e-mail address."))
        return user


class StatementForm(forms.ModelForm):
    class Meta:
        model = Statement
        fields = ["speaker", "speaker_name", "text"]
        widgets = {"text": forms.Textarea(attrs={"rows": 4})}


class ForintsField(forms.CharField):
    """An ulti table's forint results as "start number: forint" pairs -> {"12": 300, "5": -100, ...}."""

    PAIR = re.compile(r"(\d+)\s*[:=]\s*([+-]?\d+)")

    def prepare_value(self, value):
        if isinstance(value, dict):
            return ", ".join(f"{number}: {forint}" for number, forint in value.items())
        return value

    def to_python(self, value):
        if isinstance(value, dict):
            return value
        text = super().to_python(value)
        out = {}
        for part in filter(None, (p.strip() for p in re.split(r"[,;\n]+", text or ""))):
            match = self.PAIR.fullmatch(part)
            if match is None:
                raise forms.ValidationError(
                    _('Write "start number: forint" for each player, e.g. 12: 300, 5: -100, 31: -200.')
                )
            number = str(int(match[1]))
            if number in out:
                raise forms.ValidationError(_("Start number %(n)s is given twice.") % {"n": number})
            out[number] = int(match[2])
        return out


class DecisionForm(forms.ModelForm):
    """The fields of the appeal's game: bridge names the board and pairs, ulti the round and table."""

    ulti_forints = ForintsField(
        label=_("forint results of the table"),
        required=False,
        help_text=_(
            "Start number and forints of each of the table's three players, e.g. 12: 300, 5: -100, 31: -200."
        ),
    )

    class Meta:
        model = Decision
        fields = Decision.INPUT_FIELDS
        widgets = {"text": forms.Textarea(attrs={"rows": 5})}

    def __init__(self, *args, appeal=None, **kwargs):
        super().__init__(*args, **kwargs)
        if appeal is None:
            return
        self.instance.appeal = appeal
        ulti = appeal.event.federation.game == "ulti"
        for name in Decision.BRIDGE_FIELDS if ulti else Decision.ULTI_FIELDS:
            self.fields.pop(name, None)
        if not self.is_bound and not ulti:
            self.initial.update(
                board_number=appeal.board_number, ns_pair=appeal.ns_pair, ew_pair=appeal.ew_pair
            )

    def values(self):
        return {name: self.cleaned_data[name] for name in self.Meta.fields if name in self.cleaned_data}


class VoteForm(forms.Form):
    agrees = forms.TypedChoiceField(
        label=_("Your vote"),
        choices=[("1", _("I agree")), ("0", _("I disagree"))],
        coerce=lambda v: v == "1",
        widget=forms.RadioSelect,
    )
    comment = forms.CharField(label=_("Comment"), max_length=500, required=False)


class WithdrawProposalForm(forms.Form):
    reason = forms.CharField(label=_("Why the proposal is withdrawn"), max_length=300, required=False)
    confirm = forms.BooleanField(
        label=_("I withdraw the proposal: its votes no longer count and the panel votes again."),
        required=True,
    )


class LeaveForm(forms.Form):
    reason = forms.CharField(label=_("Why you leave"), max_length=300, required=False)


class SecondAppealForm(forms.Form):
    statement = forms.CharField(label=_("Your written appeal"), widget=forms.Textarea(attrs={"rows": 6}))


class AttachmentForm(forms.Form):
    file = forms.FileField(
        label=_("Attachment"),
        help_text=_("PNG, JPEG or PDF, at most 5 MB."),
        widget=forms.ClearableFileInput(attrs={"accept": "image/png,image/jpeg,application/pdf"}),
    )

    def clean_file(self):
        upload = self.cleaned_data["file"]
        if upload.size > MAX_BYTES:
            raise forms.ValidationError(_("The file is larger than 5 MB."))
        return upload


class MeasureForm(forms.Form):
    person = forms.ChoiceField(label=_("Player"))
    kind = forms.ChoiceField(label=_("Measure"), choices=Measure.Kind.choices)
    session = forms.ModelChoiceField(queryset=None, label=_("Session"), required=False)
    percent = forms.DecimalField(
        label=_("Deduction (percent of the top)"), min_value=0, max_value=100, required=False
    )
    points = forms.IntegerField(label=_("Deduction (table points)"), min_value=1, required=False)
    reason = forms.CharField(label=_("Reason"), widget=TEXT)

    def __init__(self, *args, event, **kwargs):
        super().__init__(*args, **kwargs)
        # Bridge deducts a percentage of the top (VSz 32), ulti table points.
        self.fields.pop("percent" if event.federation.game == "ulti" else "points")
        self.fields["session"].queryset = event.sessions.all()
        people = {}
        for entry in entry_choices(event):
            for member in entry.members.all():
                people[member.person.pk] = member.person
        self.people = people
        self.fields["person"].choices = [
            (pk, str(p)) for pk, p in sorted(people.items(), key=lambda i: str(i[1]))
        ]

    def clean_person(self):
        return self.people[int(self.cleaned_data["person"])]


class DisciplineDecisionForm(forms.Form):
    outcome = forms.ChoiceField(label=_("Decision"), choices=DisciplinaryDecision.Outcome.choices)
    text = forms.CharField(label=_("Decision text"), widget=TEXT)
    starts_on = forms.DateField(label=_("Suspended from"), required=False, widget=DATE)
    ends_on = forms.DateField(label=_("Suspended until"), required=False, widget=DATE)
