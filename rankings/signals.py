"""A licence granted or withdrawn changes the current ulti lists: a licensed player comes back.

The signal writes nothing itself; it publishes one task per federation after the commit (however many
licences the transaction touched), and nothing for rolled-back work.
"""

from django.db.models.signals import post_delete, post_save
from django.dispatch import receiver

from config.celery import enqueue_once_on_commit
from federation.models import ErasureRequest, Licence

from . import tasks


def _schedule(federation_id):
    # A broker outage is logged, not raised: the licence is saved (the daily list refresh catches up).
    enqueue_once_on_commit(tasks.licences_changed, federation_id)


@receiver([post_save, post_delete], sender=Licence, dispatch_uid="rankings_licence_changed")
def licence_changed(sender, instance, raw=False, **kwargs):
    if not raw:
        _schedule(instance.federation_id)


@receiver(post_save, sender=ErasureRequest, dispatch_uid="rankings_person_erased")
def person_erased(sender, instance, raw=False, **kwargs):
    # The current lists carry the players' names in their rows: an erased name leaves them at once, not
    # with the next daily refresh.
    if not raw and instance.state == ErasureRequest.DONE:
        enqueue_once_on_commit(tasks.refresh_current_lists)
