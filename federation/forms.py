from django import forms
from django.contrib.auth import get_user_model, password_validation
from django.db import transaction
from django.utils.translation import gettext_lazy as _

from .models import Federation, MemberRequest, Membership, Person

User = get_user_model()


class RegistrationForm(forms.Form):
    email = forms.EmailField(label=_("E-mail"))
    first_name = forms.CharField(label=_("First name"), max_length=100)
    last_name = forms.CharField(label=_("Last name"), max_length=100)
    password1 = forms.CharField(label=_("Password"), widget=forms.PasswordInput, strip=False)
    password2 = forms.CharField(label=_("Password again"), widget=forms.PasswordInput, strip=False)

    def clean_email(self):
        email = self.cleaned_data["email"].strip().lower()
        if User.objects.filter(username__iexact=email).exists():
            raise forms.ValidationError(_("An account with this e-mail address already exists."))
        return email

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

    def save(self):
        d = self.cleaned_data
        return User.objects.create_user(
            username=d["email"],
            email=d["email"],
            password=d["password1"],
            first_name=d["first_name"],
            last_name=d["last_name"],
        )


class LinkMemberForm(forms.Form):
    """Link the account to a member record: member number plus birth date must match."""

    federation = forms.ModelChoiceField(label=_("Federation"), queryset=Federation.objects.all())
    member_number = forms.CharField(label=_("Member number"), max_length=20)
    birth_date = forms.DateField(label=_("Birth date"), widget=forms.DateInput(attrs={"type": "date"}))

    def __init__(self, *args, user, **kwargs):
        super().__init__(*args, **kwargs)
        self.user = user
        self.membership = None

    def clean(self):
        data = super().clean()
        if self.errors:
            return data
        membership = (
            Membership.objects.select_related("person")
            .filter(federation=data["federation"], member_number=data["member_number"].strip())
            .first()
        )
        # One message for both failures, so the form cannot be used to probe birth dates.
        if membership is None or membership.person.birth_date != data["birth_date"]:
            raise forms.ValidationError(_("No member matches this member number and birth date."))
        person = membership.person
        if person.user_id and person.user_id != self.user.pk:
            raise forms.ValidationError(_("This member record is already linked to another account."))
        existing = getattr(self.user, "person", None)
        if existing is not None and existing.pk != person.pk:
            raise forms.ValidationError(_("Your account is already linked to another member record."))
        self.membership = membership
        return data

    @transaction.atomic
    def save(self):
        person = Person.objects.select_for_update().get(pk=self.membership.person_id)
        person.user = self.user
        if not person.email:
            person.email = self.user.email
        person.save(update_fields=["user", "email"])
        return person


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
