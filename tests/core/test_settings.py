import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
# Variables the test settings put into this process that must not reach a "production" subprocess.
LEAKY = (
    "SECRET_KEY",
    "DEBUG",
    "DJANGO_SETTINGS_MODULE",
    "SECURE_SSL_REDIRECT",
    "DATABASE_URL",
    "CELERY_BROKER_URL",
    "PORTAL_URL",
)


def run_settings(**env):
    clean = {k: v for k, v in os.environ.items() if k not in LEAKY}
    clean.update(env)
    return subprocess.run(
        [
            sys.executable,
            "-c",
            "import django; django.setup(); from django.conf import settings; "
            "print(settings.CELERY_TASK_ALWAYS_EAGER, settings.DATABASES['default']['ENGINE'])",
        ],
        cwd=ROOT,
        env={**clean, "DJANGO_SETTINGS_MODULE": "config.settings"},
        capture_output=True,
        text=True,
    )


def test_production_settings_refuse_to_start_without_a_secret_key():
    result = run_settings(DEBUG="0")
    assert result.returncode != 0
    assert "SECRET_KEY must be set" in result.stderr


def test_production_settings_refuse_to_start_without_the_portal_url():
    result = run_settings(DEBUG="0", SECRET_KEY="x" * 60)
    assert result.returncode != 0
    assert "PORTAL_URL must be set" in result.stderr


def test_development_settings_start_on_the_embedded_default():
    result = run_settings(DEBUG="1", DATABASE_URL="", CELERY_BROKER_URL="")
    assert result.returncode == 0, result.stderr
    assert result.stdout.split() == ["True", "django.db.backends.sqlite3"]


def test_settings_come_from_the_environment():
    result = run_settings(
        DEBUG="0",
        SECRET_KEY="x" * 60,
        DATABASE_URL="postgres://u@db:5432/portal",
        CELERY_BROKER_URL="redis://redis:6379/0",
        ALLOWED_HOSTS="versenyportal.hu",
        PORTAL_URL="https://versenyportal.hu/",
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.split() == ["False", "django.db.backends.postgresql"]


def test_check_deploy_is_clean_with_production_variables():
    env = {k: v for k, v in os.environ.items() if k not in LEAKY}
    env.update(
        DEBUG="0",
        SECRET_KEY="k" * 30 + "-Production-Secret-Key-Value-0987654321",
        ALLOWED_HOSTS="versenyportal.hu",
        PORTAL_URL="https://versenyportal.hu",
        DJANGO_SETTINGS_MODULE="config.settings",
    )
    result = subprocess.run(
        [sys.executable, "manage.py", "check", "--deploy", "--fail-level", "WARNING"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert "no issues" in result.stdout
