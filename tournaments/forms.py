"""Forms of the announcement, the workflow steps and the entries."""

import re

from django import forms
from django.db.models import Q
from django.forms import inlineformset_factory
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from federation.engine.text import search_key
from federation.models import Club, Federation, QualifiedDirector, Role

from . import scoring_programs
from .models import Division, Entry, Event, Session
from .results_pages import scored_formats
from .rule_sets import rule_set_choices
from .services import directors as director_picks

DATE = forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d")
DATETIME = forms.DateTimeInput(attrs={"type": "datetime-local"}, format="%Y-%m-%dT%H:%M")


# The announcement form's fieldsets, in the order of VSz 4.
EVENT_SECTIONS = [
    (_("The event"), ["federation", "club", "title", "event_class", "format", "in_federation_calendar"]),
    (_("Date and venue"), ["start_date", "end_date", "venue", "venue_address"]),
    (_("Structure"), ["movement", "boards", "capacity", "season", "qualifier_number", "region", "rule_set"]),
    (
        _("Organiser and director"),
        ["organiser_name", "organiser_address", "organiser_phone", "director"],
    ),
    (
        _("Entry and fees"),
        [
            "entry_deadline",
            "entry_fee",
            "junior_entry_fee",
            "meal_fee",
            "meal_compulsory",
            "lodging",
            "masterpoint_multiplier",
            "scoring_program",
            "earns_rating",
            "prizes",
        ],
    ),
    (
        _("Who may enter"),
        [
            "members_only",
            "citizens_only",
            "residency_required",
            "gender_restriction",
            "age_restriction",
            "licence_required",
        ],
    ),
    (_("Appeals and other information"), ["appeal_deadline_minutes", "appeal_deposit", "notes"]),
]


def director_label(row: QualifiedDirector) -> str:
    # The id closes the label: the browser's list puts the whole label into the field, and two directors
    # may share a name.
    return f"{row.person} · {row.get_level_display()} · {row.valid_until:%Y.%m.%d.} #{row.pk}"


class DirectorPickField(forms.ModelChoiceField):
    """The director from the register, typed with the browser's list of names (a name search)."""

    widget = forms.TextInput(attrs={"list": "director-register", "autocomplete": "off"})
    ID = re.compile(r"#(\d+)\s*$")

    def prepare_value(self, value):
        if isinstance(value, QualifiedDirector):
            return director_label(value)
        # The initial value is the stored pk; a bound form shows back what was typed.
        if isinstance(value, int) or (isinstance(value, str) and value.isdigit()):
            row = QualifiedDirector.objects.select_related("person").filter(pk=int(value)).first()
            return director_label(row) if row else value
        return value

    def to_python(self, value):
        value = (value or "").strip()
        if not value:
            return None
        found = self.ID.search(value)
        if found:
            row = self.queryset.filter(pk=int(found.group(1))).first()
        else:
            rows = list(self.queryset.filter(person__search_name=search_key(value))[:2])
            if len(rows) > 1:
                raise forms.ValidationError(
                    _("Several directors of the register have this name: choose one from the list.")
                )
            row = rows[0] if rows else None
        if row is None:
            raise forms.ValidationError(_("Choose a director from the register."))
        return row


# Help that differs by game: the bridge rules are the MBSz VSz, the ulti rules the MAUSZ regulations. A field
# not named here keeps the model's help.
HELP_BY_GAME = {
    Federation.BRIDGE: {
        "entry_fee": _("Per player, in whole forints; the junior fee and the meals are set below (VSz 7)."),
        "members_only": _(
            "Championships admit MBSz members only, foreigners only if resident in Hungary (VSz 2)."
        ),
        "region": "",
        "qualifier_number": "",
        "rule_set": _("Bridge events need none."),
        "licence_required": "",
    },
    Federation.ULTI: {
        "scoring_program": "",
        "entry_fee": _(
            "Per player. NUB qualifiers (1,200 Ft) and semifinals (2 x 1,500 Ft) have the federation's fixed "
            "fee; the team championship has none."
        ),
        "members_only": _("Only players of MAUSZ member clubs."),
        "residency_required": "",
        "junior_entry_fee": _("Empty: no junior discount."),
        "meal_compulsory": _("Charged to every player with the fee."),
        "boards": _("Deals per round (MAUSZ regional qualifier: 12; Szolnok rules: 18)."),
        "earns_rating": _(
            "A club tournament outside the federation calendar with fewer than 20 players does not count for "
            "the rating (MAUSZ III)."
        ),
    },
}


class EventForm(forms.ModelForm):
    SECTIONS = EVENT_SECTIONS
    director = DirectorPickField(
        queryset=QualifiedDirector.objects.filter(revoked_at__isnull=True).select_related("person"),
        required=False,
        label=_("Tournament director"),
        help_text=_(
            "From the federation's register of qualified directors (VSz 9): type a name and choose; only "
            "qualifications valid on the event's days are accepted. The director gets the event's director role."
        ),
    )

    class Meta:
        model = Event
        fields = [name for _title, names in EVENT_SECTIONS for name in names]
        widgets = {
            "start_date": DATE,
            "end_date": DATE,
            "entry_deadline": DATETIME,
            "lodging": forms.Textarea(attrs={"rows": 2}),
            "prizes": forms.Textarea(attrs={"rows": 2}),
            "notes": forms.Textarea(attrs={"rows": 3}),
            "rule_set": forms.TextInput(attrs={"list": "rule-sets"}),
            "scoring_program": forms.TextInput(attrs={"list": "scoring-programs"}),
        }

    def __init__(self, *args, user, **kwargs):
        super().__init__(*args, **kwargs)
        self.user = user
        roles = Role.objects.filter(user=user)
        staff_feds = set(roles.filter(kind=Role.FEDERATION_STAFF).values_list("federation_id", flat=True))
        admin_clubs = set(roles.filter(kind=Role.CLUB_ADMIN).values_list("club_id", flat=True))
        if user.is_superuser:
            feds, clubs = Federation.objects.all(), Club.objects.filter(is_active=True)
        else:
            clubs = Club.objects.filter(
                Q(pk__in=admin_clubs) | Q(federation_id__in=staff_feds, is_active=True)
            )
            feds = Federation.objects.filter(Q(pk__in=staff_feds) | Q(clubs__in=admin_clubs)).distinct()
        self.staff_feds = staff_feds
        self.fields["federation"].queryset = feds
        self.fields["club"].queryset = clubs.select_related("federation")
        self.fields["club"].help_text = _("Empty only for the federation's own events.")
        self.fields["event_class"].required = True
        if not self.instance.pk:
            # The usual case, a club admin of one club: nothing to choose.
            if len(feds) == 1:
                self.initial["federation"] = self.initial.get("federation") or feds[0].pk
            if len(admin_clubs) == 1 and not staff_feds:
                self.initial["club"] = self.initial.get("club") or next(iter(admin_clubs))
        if self.instance.pk and self.instance.status in (Event.Status.APPROVED, Event.Status.PROPOSED):
            # Dates of a published event change only through "move", which tells the entrants.
            for name in ("start_date", "end_date"):
                self.fields[name].disabled = True
                self.fields[name].help_text = _("Use 'Move date' to change it; entrants are notified.")
        self.game = self._game(feds)
        for name, text in HELP_BY_GAME.get(self.game, {}).items():
            self.fields[name].help_text = text
        self.rule_sets = rule_set_choices()
        federation_id = self.instance.federation_id or self.initial.get("federation")
        self.scoring_programs = scoring_programs.offered(getattr(federation_id, "pk", federation_id))
        self.director_choices = [
            director_label(row) for row in director_picks.offered([f.pk for f in feds], timezone.localdate())
        ]
        # Only the formats something scores (tournaments.results_pages): a format no game registers a
        # results page for is not offered; an existing event keeps its own format.
        offered = set(scored_formats())
        if self.instance.pk:
            offered.add(self.instance.format)
        self.fields["format"].choices = [
            c for c in self.fields["format"].choices if not c[0] or c[0] in offered
        ]

    def _game(self, feds) -> str | None:
        """The game whose rules the help explains: the event's, the chosen federation's, or the only one."""
        if self.instance.pk:
            return self.instance.federation.game
        chosen = self.data.get(self.add_prefix("federation")) or self.initial.get("federation")
        games = {f.pk: f.game for f in feds}
        try:
            return games.get(int(getattr(chosen, "pk", chosen)))
        except (TypeError, ValueError):
            return next(iter(set(games.values()))) if len(set(games.values())) == 1 else None

    def sections(self):
        return [(title, [self[name] for name in names]) for title, names in self.SECTIONS]

    def clean(self):
        data = super().clean()
        federation, club = data.get("federation"), data.get("club")
        if federation and club and club.federation_id != federation.pk:
            self.add_error("club", _("The club belongs to another federation."))
        if federation and not club and not (self.user.is_superuser or federation.pk in self.staff_feds):
            self.add_error("club", _("Choose the organising club."))
        director = data.get("director")
        if director and federation and data.get("start_date"):
            planned = Event(
                federation=federation,
                start_date=data["start_date"],
                end_date=data.get("end_date"),
                event_class=data.get("event_class") or "",
            )
            problem = director_picks.pick_problem(planned, director)
            if problem:
                self.add_error("director", problem)
        if data.get("event_class") == Event.EventClass.CHAMPIONSHIP:
            data["members_only"] = data["residency_required"] = True
        return data


class SessionForm(forms.ModelForm):
    class Meta:
        model = Session
        fields = ["name", "starts_at"]
        widgets = {"starts_at": DATETIME}


SessionFormSet = inlineformset_factory(Event, Session, form=SessionForm, extra=2, can_delete=True)
DivisionFormSet = inlineformset_factory(Event, Division, fields=["name", "order"], extra=2, can_delete=True)


class ReasonForm(forms.Form):
    reason = forms.CharField(label=_("Reason"), widget=forms.Textarea(attrs={"rows": 3}))


class MoveForm(ReasonForm):
    start_date = forms.DateField(label=_("New start date"), widget=DATE)
    end_date = forms.DateField(label=_("New end date"), widget=DATE, required=False)

    field_order = ["start_date", "end_date", "reason"]


class DirectorForm(forms.Form):
    email = forms.EmailField(label=_("E-mail address of the director's account"))


class PlayerField(forms.CharField):
    """A person picker: a member number, an exact name, or a pick from the name search (the script in
    static/js/person-picker.js fills a <datalist> from the event's pick endpoint)."""

    def __init__(self, *args, event, **kwargs):
        kwargs.setdefault("max_length", 200)
        kwargs.setdefault("help_text", _("Member number or name; type at least two letters to search."))
        super().__init__(*args, **kwargs)
        self.widget.attrs.update(
            {"data-person-picker": reverse("player_pick", args=[event.pk]), "autocomplete": "off"}
        )


class EntryForm(forms.Form):
    """An entry: the entrant plays as player 1 (captain, line A); an organiser names every player."""

    def __init__(self, *args, event, by_organiser=False, **kwargs):
        super().__init__(*args, **kwargs)
        self.event = event
        self.by_organiser = by_organiser
        shape = event.shape
        if event.divisions.exists():
            self.fields["division"] = forms.ModelChoiceField(
                label=_("Division"), queryset=event.divisions.all(), empty_label=None
            )
        if shape.is_team:
            self.fields["team_name"] = forms.CharField(
                label=_("Team name"), max_length=100, required=shape.team_name_required
            )
        for i in range(1 if by_organiser else 2, shape.max_players + 1):
            self.fields[f"player_{i}"] = PlayerField(
                label=self._player_label(shape, i), required=i <= shape.min_players, event=event
            )
        if by_organiser:
            self.fields["over_capacity"] = forms.BooleanField(
                label=_("Give it a place even if the event is full"), required=False
            )
        if event.federation.game == Federation.ULTI:
            fee = event.federation.licence_fee
            self.fields["buy_licences"] = forms.BooleanField(
                label=_("Buy this year's licence (versenyengedély) for the players who have none"),
                help_text=_("%(fee)s Ft each, owed to the federation until paid (MAUSZ V.11 (3)).")
                % {"fee": fee},
                required=False,
            )
        if event.federation.game == Federation.BRIDGE:
            self.fields["seating_request"] = forms.ChoiceField(
                label=_("Seating request"),
                choices=[("", _("none"))] + Entry.SeatingRequest.choices,
                required=False,
                help_text=_("Shown to the director, not to the other players (VSz 10)."),
            )
            self.fields["seating_note"] = forms.CharField(
                label=_("Seating note"), max_length=200, required=False
            )

    def clean(self):
        data = super().clean()
        if (
            data.get("seating_request") == Entry.SeatingRequest.OTHER
            and not data.get("seating_note", "").strip()
        ):
            self.add_error("seating_note", _("Say in a few words what you ask for."))
        return data

    def seating(self):
        """The create_entry keywords for the seating request (empty on an ulti event)."""
        return {
            "seating_request": self.cleaned_data.get("seating_request", ""),
            "seating_note": self.cleaned_data.get("seating_note", ""),
        }

    @staticmethod
    def _player_label(shape, i):
        if shape.lines:
            return _("Player on line %(line)s") % {"line": shape.lines[i - 1]}
        if shape.max_players == 2 and i == 2:
            return _("Partner")
        if shape.max_players == 1 or (shape.is_team and i == 1):
            return _("Captain") if shape.is_team else _("Player")
        return _("Player %(n)s") % {"n": i}

    def member_numbers(self):
        return [
            self.cleaned_data[name].strip()
            for name in sorted((n for n in self.fields if n.startswith("player_")), key=lambda n: int(n[7:]))
            if self.cleaned_data.get(name, "").strip()
        ]


class DivisionMoveForm(forms.Form):
    division = forms.ModelChoiceField(label=_("Division"), queryset=Division.objects.none(), empty_label=None)

    def __init__(self, *args, event, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["division"].queryset = event.divisions.all()


class ReplacementForm(forms.Form):
    """Who leaves the entry (one of its players; the entrant only for the organiser) and who comes."""

    member = forms.ModelChoiceField(label=_("Player to replace"), queryset=None, empty_label=None)

    def __init__(self, *args, entry, by_organiser=False, **kwargs):
        super().__init__(*args, **kwargs)
        members = entry.members.select_related("person").order_by("position")
        if not by_organiser:
            members = members.exclude(position=1)
        self.fields["member"].queryset = members
        self.fields["member"].label_from_instance = lambda m: (
            f"{m.line}: {m.person.full_name}" if m.line else m.person.full_name
        )
        self.fields["newcomer"] = PlayerField(label=_("New player"), event=entry.event)
