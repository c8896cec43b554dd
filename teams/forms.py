"""Forms of the director's pages; parsing and checking against the match happen in the services."""

from django import forms
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from .engine.parsed import ParsedBoard, ParsedResult, UploadError
from .engine.scores import room_score
from .models import TeamEvent
from .services.uploads import reason


class SetupForm(forms.ModelForm):
    class Meta:
        model = TeamEvent
        fields = [
            "pairing_format",
            "first_round",
            "rounds",
            "swiss_rounds",
            "boards_per_match",
            "match_form",
            "tiebreak",
            "bye_vp",
            "knockout_teams",
            "knockout_boards",
            "consolation",
        ]


class FileUploadForm(forms.Form):
    KINDS = [("pbn", _("PBN file (both rooms)")), ("csv", _("CSV file")), ("usebio", _("USEBIO file (XML)"))]
    # Left empty, the file's name decides (.csv, .xml USEBIO, else PBN), as for pair events and the API.
    kind = forms.ChoiceField(
        label=_("format"), choices=[("", _("from the file's name"))] + KINDS, required=False
    )
    file = forms.FileField(label=_("file"))
    note = forms.CharField(label=_("note"), required=False, max_length=500)


class ImpsForm(forms.Form):
    home_imps = forms.DecimalField(label=_("home team's IMPs"), min_value=0, max_digits=7, decimal_places=2)
    away_imps = forms.DecimalField(label=_("away team's IMPs"), min_value=0, max_digits=7, decimal_places=2)
    boards_played = forms.IntegerField(label=_("boards played"), min_value=1, required=False)
    note = forms.CharField(label=_("note"), required=False, max_length=500)


def _room(board: int, text: str):
    """A score ("420", "-100") or a contract, declarer and result ("4S N =", "3NT W -1")."""
    parts = text.split()
    if len(parts) == 3:
        return room_score(board, contract=parts[0], declarer=parts[1], result=parts[2])
    if len(parts) == 1 and parts[0].upper() in ("PASS", "AP", "PASSZ"):
        return room_score(board, contract="PASS")
    return room_score(board, score=text)


class ScorecardForm(forms.Form):
    """One row per board: the board number and each room's NS score or contract."""

    note = forms.CharField(label=_("note"), required=False, max_length=500)

    def __init__(self, *args, boards: int, first_board: int = 1, **kwargs):
        super().__init__(*args, **kwargs)
        self.rows = []
        for i in range(boards):
            self.fields[f"board_{i}"] = forms.IntegerField(min_value=1, initial=first_board + i)
            self.fields[f"open_{i}"] = forms.CharField(max_length=30)
            self.fields[f"closed_{i}"] = forms.CharField(max_length=30)
            self.rows.append((f"board_{i}", f"open_{i}", f"closed_{i}"))

    def board_rows(self):
        return [(self[b], self[o], self[c]) for b, o, c in self.rows]

    def parsed(self) -> ParsedResult:
        boards, errors = [], []
        for b, o, c in self.rows:
            number = self.cleaned_data[b]
            try:
                open_ns, open_shown = _room(number, self.cleaned_data[o])
                closed_ns, closed_shown = _room(number, self.cleaned_data[c])
            except ValueError as error:
                errors.append(
                    gettext("board %(board)s: %(message)s") % {"board": number, "message": reason(error)}
                )
                continue
            boards.append(ParsedBoard(number, open_ns, closed_ns, open_shown, closed_shown))
        numbers = [b.board for b in boards]
        if len(set(numbers)) != len(numbers):
            errors.append(gettext("a board number appears twice"))
        if errors:
            raise UploadError(errors)
        return ParsedResult(tuple(boards))


class SwapForm(forms.Form):
    team_a = forms.TypedChoiceField(label=_("team"), coerce=int)
    team_b = forms.TypedChoiceField(label=_("swap with"), coerce=int)

    def __init__(self, *args, teams, **kwargs):
        super().__init__(*args, **kwargs)
        choices = [(t.pk, f"{t.start_number}. {t.name}") for t in teams]
        self.fields["team_a"].choices = choices
        self.fields["team_b"].choices = choices


class LineUpForm(forms.Form):
    """Per segment, team and room: the two players who sat there."""

    note = forms.CharField(label=_("note"), required=False, max_length=500)

    def __init__(self, *args, segments: int, teams, rosters, current=None, **kwargs):
        super().__init__(*args, **kwargs)
        self.layout = []
        current = current or {}
        for segment in range(1, segments + 1):
            for team in teams:
                choices = [("", "—")] + [(p.pk, str(p)) for p in rosters[team.pk]]
                for room in ("open", "closed"):
                    names = []
                    for slot in (1, 2):
                        name = f"s{segment}_{team.pk}_{room}_{slot}"
                        seated = current.get((segment, team.pk, room), [])
                        self.fields[name] = forms.TypedChoiceField(
                            choices=choices,
                            coerce=int,
                            initial=seated[slot - 1] if len(seated) >= slot else None,
                        )
                        names.append(name)
                    self.layout.append((segment, team, room, names))

    def rows(self):
        return [(segment, team, room, [self[n] for n in names]) for segment, team, room, names in self.layout]

    def seats(self):
        return [
            (segment, team.pk, room, self.cleaned_data[name])
            for segment, team, room, names in self.layout
            for name in names
        ]


class DecisionForm(forms.Form):
    """The director's decision on a match: one board changed (its scores or an adjusted IMP score) or the
    match's IMP result; a new version, kept by every later upload unless set aside."""

    KINDS = [
        ("adjustment", _("adjusted score")),
        ("correction", _("correction")),
        ("appeal", _("appeal decision")),
    ]
    source = forms.ChoiceField(label=_("kind"), choices=KINDS)
    board = forms.IntegerField(label=_("board"), min_value=1, max_value=999, required=False)
    open_ns = forms.IntegerField(label=_("open room NS score"), required=False)
    closed_ns = forms.IntegerField(label=_("closed room NS score"), required=False)
    adjusted_imps = forms.DecimalField(
        label=_("adjusted IMPs (home team's view)"), max_digits=5, decimal_places=2, required=False
    )
    home_imps = forms.DecimalField(
        label=_("home team's IMPs"), min_value=0, max_digits=7, decimal_places=2, required=False
    )
    away_imps = forms.DecimalField(
        label=_("away team's IMPs"), min_value=0, max_digits=7, decimal_places=2, required=False
    )
    reason = forms.CharField(label=_("reason"), max_length=500)

    def ruling(self) -> dict:
        """The service's keywords: ``boards`` or ``imps``; a form error when neither or both."""
        data = self.cleaned_data
        board_fields = {
            k: data[k] for k in ("open_ns", "closed_ns", "adjusted_imps") if data.get(k) is not None
        }
        match_imps = data.get("home_imps") is not None or data.get("away_imps") is not None
        if match_imps and (data.get("home_imps") is None or data.get("away_imps") is None):
            raise UploadError(gettext("Give both teams' IMPs."))
        if match_imps == bool(board_fields or data.get("board")):
            raise UploadError(gettext("Give the changed boards or the match's IMP result."))
        if match_imps:
            return {"imps": (data["home_imps"], data["away_imps"])}
        if not data.get("board") or not board_fields:
            raise UploadError(gettext("Give the board and what changes on it."))
        return {"boards": {data["board"]: board_fields}}
