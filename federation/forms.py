from django import forms
from django.contrib.auth import get_user_model, password_validation
from django.utils.translation import gettext_lazy as _

from .models import (
    ErasureRequest,
    Federation,
    MailPreference,
    MemberRequest,
    Membership,
    Person,
    QualifiedDirector,
)

User = get_user_model()


class RegistrationForm(forms.Form):
    email = forms.EmailField(label=_("E-mail"))
    first_name = forms.CharField(label=_("First name"), max_length=100)
    last_name = forms.CharField(label=_("Last name"), max_length=100)
    password1 = forms.CharField(label=_("Password"), widget=forms.PasswordInput, strip=False)
    password2 = forms.CharField(label=_("Password again"), widget=forms.PasswordInput, strip=False)
    privacy_consent = forms.BooleanField(
        label=_("I have read the privacy notice and consent to the processing of my data it describes."),
        error_messages={"required": _("Registration needs your consent to the privacy notice.")},
    )

    def clean_email(self):
        # No "already registered" error: the answer must not tell whether an address has an account
        # (federation.services.accounts.register mails the owner a notice instead).
        return self.cleaned_data["email"].strip().lower()

    def clean(self):
        data = super().clean()
        p1, p2 = data.get("password1"), data.get("password2")
        if p1 and p2 and p1 != p2:
            self.add_error("password2", _("The two passwords differ."))
        if p1:
            probe = User(
                username=data.get("email", ""),
                email=data.get("email", ""),
                first_name=data.get("first_name", ""),
                last_name=data.get("last_name", ""),
            )
            try:
                password_validation.validate_password(p1, probe)
            except forms.ValidationError as error:
                self.add_error("password1", error)
        return data


class LinkMemberForm(forms.Form):
    """Link the account to a member record: member number plus birth date must match."""

    federation = forms.ModelChoiceField(label=_("Federation"), queryset=Federation.objects.all())
    member_number = forms.CharField(label=_("Member number"), max_length=20)
    birth_date = forms.DateField(label=_("Birth date"), widget=forms.DateInput(attrs={"type": "date"}))

    # One message for every failure: unknown number, wrong birth date, a record linked to somebody else.
    NO_MATCH = _("No member matches this member number and birth date, or the record cannot be linked.")

    def matching_membership(self):
        """The membership to link (call after is_valid() and the throttle), or None with the one error."""
        data = self.cleaned_data
        membership = (
            Membership.objects.select_related("person", "federation", "club")
            .filter(federation=data["federation"], member_number=data["member_number"].strip())
            .first()
        )
        if (
            membership is None
            or membership.person.birth_date != data["birth_date"]
            or membership.person.user_id
        ):
            self.add_error(None, self.NO_MATCH)
            return None
        return membership


class VerifyEmailForm(forms.Form):
    password = forms.CharField(label=_("Password"), widget=forms.PasswordInput, strip=False)

    def __init__(self, *args, user, **kwargs):
        super().__init__(*args, **kwargs)
        self.user = user

    def clean_password(self):
        if not self.user.check_password(self.cleaned_data["password"]):
            raise forms.ValidationError(_("This is not the password given at registration."))
        return self.cleaned_data["password"]


class ResendVerificationForm(forms.Form):
    email = forms.EmailField(label=_("E-mail"))

    def clean_email(self):
        return self.cleaned_data["email"].strip().lower()


class MemberRequestForm(forms.ModelForm):
    class Meta:
        model = MemberRequest
        fields = ["federation", "club", "last_name", "first_name", "birth_date", "gender", "note"]
        widgets = {"birth_date": forms.DateInput(attrs={"type": "date"})}


class MailAddressForm(forms.ModelForm):
    """Which address the portal's e-mail goes to: the login's (default) or the member record's."""

    class Meta:
        model = Person
        fields = ["mail_to"]
        widgets = {"mail_to": forms.RadioSelect}

    def clean_mail_to(self):
        choice = self.cleaned_data["mail_to"]
        if choice == Person.MAIL_TO_MEMBER and not self.instance.email:
            raise forms.ValidationError(_("Your member record has no e-mail address."))
        return choice


class QualificationForm(forms.Form):
    """A new entry of the directors' register (VSz 9); the person is chosen from the member search."""

    person = forms.IntegerField(widget=forms.HiddenInput)
    level = forms.ChoiceField(label=_("Qualification"), choices=QualifiedDirector.LEVELS)
    valid_from = forms.DateField(label=_("Valid from"), widget=forms.DateInput(attrs={"type": "date"}))
    valid_until = forms.DateField(label=_("Valid until"), widget=forms.DateInput(attrs={"type": "date"}))


class RenewForm(forms.Form):
    level = forms.ChoiceField(label=_("Qualification"), choices=QualifiedDirector.LEVELS)
    valid_until = forms.DateField(label=_("Valid until"), widget=forms.DateInput(attrs={"type": "date"}))


class RevokeForm(forms.Form):
    reason = forms.CharField(label=_("Reason"), max_length=500)


class DataBasisForm(forms.ModelForm):
    """Why the portal may keep a member record of somebody who has no account (recorded by his club)."""

    class Meta:
        model = Person
        fields = ["data_basis"]
        widgets = {"data_basis": forms.RadioSelect}

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["data_basis"].required = True


class MailPreferenceForm(forms.Form):
    receive = forms.MultipleChoiceField(
        label=_("Send me these e-mails"),
        choices=MailPreference.OPTIONAL,
        widget=forms.CheckboxSelectMultiple,
        required=False,
    )


class ErasureRequestForm(forms.ModelForm):
    class Meta:
        model = ErasureRequest
        fields = ["reason"]
        widgets = {"reason": forms.Textarea(attrs={"rows": 3})}


class ErasureConfirmForm(forms.Form):
    """The person carries out his own erasure: his password and an explicit tick."""

    password = forms.CharField(label=_("Password"), widget=forms.PasswordInput, strip=False)
    understood = forms.BooleanField(
        label=_("I understand that my name and data are erased for good and my account is closed.")
    )

    def __init__(self, *args, user, **kwargs):
        super().__init__(*args, **kwargs)
        self.user = user

    def clean_password(self):
        if not self.user.check_password(self.cleaned_data["password"]):
            raise forms.ValidationError(_("Wrong password."))
        return self.cleaned_data["password"]


class ErasureDecisionForm(forms.Form):
    decision = forms.ChoiceField(choices=[("carry_out", _("carry out")), ("reject", _("refuse"))])
    note = forms.CharField(label=_("Note"), required=False, widget=forms.Textarea(attrs={"rows": 2}))


class LicenceIssueForm(forms.Form):
    member_number = forms.CharField(label=_("Member number"), max_length=20)
    year = forms.IntegerField(label=_("Year"), min_value=2000, max_value=2100)
    number = forms.CharField(label=_("Licence number"), max_length=30, required=False)


class LicenceRevokeForm(forms.Form):
    reason = forms.CharField(label=_("Reason of revocation"), widget=forms.Textarea(attrs={"rows": 2}))


class MemberRequestDecisionForm(forms.Form):
    decision = forms.ChoiceField(choices=[("approve", _("approve")), ("reject", _("reject"))])
    member_number = forms.CharField(
        label=_("Member number"),
        max_length=20,
        required=False,
        help_text=_("Empty: the next free number."),
    )
