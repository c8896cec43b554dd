"""Forms of the payment pages: a payment or refund of an entry, and a bank statement file."""

from django import forms
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from .models import Payment

DATE = forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d")


class PaymentForm(forms.Form):
    PAYMENT, REFUND = "payment", "refund"

    kind = forms.ChoiceField(
        label=_("What"),
        choices=[(PAYMENT, _("payment")), (REFUND, _("refund"))],
        initial=PAYMENT,
    )
    amount = forms.IntegerField(
        label=_("Amount (Ft)"),
        min_value=1,
        max_value=10_000_000,
        help_text=_("Whole forints; a refund is entered as a positive amount."),
    )
    method = forms.ChoiceField(label=_("Method"), choices=Payment.Method.choices)
    paid_on = forms.DateField(label=_("Date"), widget=DATE)
    payee = forms.ChoiceField(label=_("Received by"), choices=Payment.Payee.choices)
    note = forms.CharField(
        label=_("Note"),
        required=False,
        max_length=500,
        widget=forms.Textarea(attrs={"rows": 2}),
        help_text=_("A refund needs its reason."),
    )

    def __init__(self, *args, federation_staff=False, **kwargs):
        kwargs.setdefault("initial", {}).setdefault("paid_on", timezone.localdate())
        super().__init__(*args, **kwargs)
        if not federation_staff:
            # A club or a director books only what the organiser received.
            del self.fields["payee"]

    def clean(self):
        data = super().clean()
        if data.get("kind") == self.REFUND and not (data.get("note") or "").strip():
            self.add_error("note", _("A refund needs its reason."))
        return data


class StatementForm(forms.Form):
    statement = forms.FileField(
        label=_("Bank statement (CSV)"),
        help_text=_(
            "The bank's export: ';'-separated, with the columns Dátum, Összeg, Partner neve and Közlemény."
        ),
    )
