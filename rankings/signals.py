"""A licence granted or withdrawn changes the current ulti lists: a licensed player comes back.

The signal writes nothing itself; it publishes one task per federation after the commit (however many
licences the transaction touched), and nothing for rolled-back work.
"""

from django.db import connection, transaction
from django.db.models.signals import post_delete, post_save
from django.dispatch import receiver

from federation.models import Licence


def _schedule(federation_id):
    if connection.in_atomic_block:
        for _sids, func, *_rest in connection.run_on_commit:
            if getattr(func, "rankings_licences_of", None) == federation_id:
                return  # already scheduled for this transaction

    def publish():
        from . import tasks

        tasks.licences_changed.delay(federation_id)

    publish.rankings_licences_of = federation_id
    transaction.on_commit(publish)


@receiver([post_save, post_delete], sender=Licence, dispatch_uid="rankings_licence_changed")
def licence_changed(sender, instance, raw=False, **kwargs):
    if not raw:
        _schedule(instance.federation_id)
