"""The rankings' background jobs, published by name so that no service imports ``rankings.tasks``.

``rankings.apps.RankingsConfig.ready()`` registers each Celery task of ``rankings/tasks.py`` here; the
tasks call the services, the services publish through this registry: tasks -> services is the only
direction between the two.
"""

from config.celery import enqueue_on_commit, publish

# job name -> Celery task, e.g. "recompute_lists" -> rankings.tasks.recompute_lists
JOBS: dict = {}


def register(**tasks) -> None:
    """Register tasks by job name (from AppConfig.ready())."""
    JOBS.update(tasks)


def enqueue(job: str, *args) -> None:
    """Publish the job's task after the surrounding transaction commits."""
    enqueue_on_commit(JOBS[job], *args)


def publish_now(job: str, *args) -> bool:
    """Publish the job's task now; False when the broker could not take it."""
    return publish(JOBS[job], *args)
