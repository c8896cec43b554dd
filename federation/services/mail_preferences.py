"""Which kinds of mail an address gets, and the signed link in every mail that leads to the choice.

The link carries the address signed (no expiry: a mail read a year later must still unsubscribe), so the
page needs no login; anybody holding the mail may change its own address's choice, nothing else."""

from django.core import signing
from django.db import transaction

from ..models import MailPreference

SALT = "federation.mail-preferences"


def token_for(address: str) -> str:
    return signing.dumps(address.strip().lower(), salt=SALT, compress=True)


def address_from(token: str) -> str | None:
    try:
        address = signing.loads(token, salt=SALT)
    except signing.BadSignature:
        return None
    return address if isinstance(address, str) and address else None


def opted_out(address: str) -> set[str]:
    pref = MailPreference.objects.filter(address=address.strip().lower()).first()
    return set(pref.opted_out) if pref else set()


def wants(address: str, category: str) -> bool:
    if category == MailPreference.ESSENTIAL:
        return True
    return category not in opted_out(address)


@transaction.atomic
def save(address: str, receive: set[str]):
    """Keep `receive` (optional categories ticked); the others are unsubscribed."""
    optional = [code for code, _label in MailPreference.OPTIONAL]
    out = [code for code in optional if code not in receive]
    pref, _created = MailPreference.objects.update_or_create(
        address=address.strip().lower(), defaults={"opted_out": out}
    )
    return pref
