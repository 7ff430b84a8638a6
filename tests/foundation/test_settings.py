import os
import shutil
import subprocess
import sys
from pathlib import Path

import environ
import pytest

ROOT = Path(__file__).resolve().parents[2]

PRODUCTION_ENV = {
    "DEBUG": "false",
    "SECRET_KEY": "x7Q!9vR#2mL$8kP@4nT&6wZ*1bY^3cU(5dE)0fG_hJ+iK=lM-oN~pS",
    "ALLOWED_HOSTS": "annuminas.example.org",
    "SECURE_SSL_REDIRECT": "true",
    "SESSION_COOKIE_SECURE": "true",
    "CSRF_COOKIE_SECURE": "true",
    "SECURE_HSTS_SECONDS": "31536000",
    "SECURE_HSTS_INCLUDE_SUBDOMAINS": "true",
    "SECURE_HSTS_PRELOAD": "true",
}


def _manage(*args: str, extra_env: dict[str, str]) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if not k.startswith("DJANGO_ALLOW")}
    env.update(extra_env)
    return subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_check_deploy_is_clean_with_production_values():
    result = _manage("check", "--deploy", "--fail-level", "WARNING", extra_env=PRODUCTION_ENV)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "no issues" in result.stdout


def test_check_deploy_flags_development_defaults():
    result = _manage(
        "check",
        "--deploy",
        "--fail-level",
        "WARNING",
        extra_env={"DEBUG": "true", "SECRET_KEY": "short"},
    )
    assert result.returncode != 0
    assert "security.W018" in result.stderr + result.stdout  # DEBUG on in deployment


def test_database_url_selects_postgresql_through_psycopg3():
    config = environ.Env.db_url_config("postgres://u@127.0.0.1:5432/annuminas")
    assert config["ENGINE"] == "django.db.backends.postgresql"
    import psycopg

    assert psycopg.__version__.startswith("3.")


def _import_settings(env: dict[str, str]) -> subprocess.CompletedProcess:
    code = (
        "import django, os; os.environ['DJANGO_SETTINGS_MODULE']='annuminas.settings';"
        "django.setup(); from django.conf import settings as s; print(s.SECRET_KEY[:16])"
    )
    return subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True, timeout=60
    )


def _clean_env(**extra: str) -> dict[str, str]:
    """The environment without any Django or deployment switch, plus ``extra``."""
    unset = {"SECRET_KEY", "DEBUG", "DATABASE_URL", "REDIS_URL", "DJANGO_SETTINGS_MODULE"}
    env = {k: v for k, v in os.environ.items() if k not in unset}
    env.update(extra)
    return env


@pytest.mark.parametrize("debug", [None, "false", "0"])
def test_refuses_to_start_without_secret_key_when_debug_is_off(debug):
    extra = {"DEBUG": debug} if debug is not None else {}
    result = _import_settings(_clean_env(**extra))
    assert result.returncode != 0
    assert "ImproperlyConfigured" in result.stderr
    assert "SECRET_KEY" in result.stderr


def test_debug_may_use_the_development_key():
    result = _import_settings(_clean_env(DEBUG="true"))
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "django-insecure-"


def test_a_secret_key_from_the_environment_is_used():
    result = _import_settings(_clean_env(DEBUG="false", SECRET_KEY="s" * 60))
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "s" * 16


@pytest.mark.parametrize(
    "public_key",
    [
        "django-insecure-local-development-key-change-me",
        "set-a-long-random-SECRET_KEY-in-.env-before-deploying",
    ],
)
def test_refuses_a_key_published_in_the_repository_when_debug_is_off(public_key):
    result = _import_settings(_clean_env(DEBUG="false", SECRET_KEY=public_key))
    assert result.returncode != 0
    assert "ImproperlyConfigured" in result.stderr
    assert "public key" in result.stderr


def test_the_test_run_signs_with_a_key_of_its_own():
    from django.conf import settings

    assert settings.SECRET_KEY not in settings.PUBLIC_SECRET_KEYS
    assert os.environ["SECRET_KEY"] == settings.SECRET_KEY  # what a worker it starts inherits


@pytest.mark.skipif(shutil.which("docker-compose") is None, reason="docker-compose not installed")
def test_compose_requires_a_secret_key_of_its_own():
    def config(**extra: str) -> subprocess.CompletedProcess:
        env = {k: v for k, v in os.environ.items() if k != "SECRET_KEY"} | extra
        return subprocess.run(
            ["docker-compose", "config"],  # noqa: S607 - the tool on PATH, fixed arguments
            cwd=ROOT,
            env=env,
            capture_output=True,
            text=True,
            timeout=60,
        )

    missing = config()
    assert missing.returncode != 0
    assert "set SECRET_KEY" in missing.stderr
    given = config(SECRET_KEY="k" * 50)
    assert given.returncode == 0, given.stderr
    assert "k" * 50 in given.stdout
    assert "set-a-long-random" not in given.stdout


def test_embedded_default_in_a_clean_environment():
    code = (
        "import django, os; os.environ['DJANGO_SETTINGS_MODULE']='annuminas.settings';"
        "django.setup(); from django.conf import settings as s;"
        "print(s.DATABASES['default']['ENGINE'], s.CELERY_TASK_ALWAYS_EAGER,"
        " s.CACHES['default']['BACKEND'].rsplit('.',1)[-1], s.LANGUAGE_CODE)"
    )
    env = _clean_env(DEBUG="true")  # what `make run` sets
    result = subprocess.run(
        [sys.executable, "-c", code],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.split() == [
        "django.db.backends.sqlite3",
        "True",
        "LocMemCache",
        "es",
    ]
