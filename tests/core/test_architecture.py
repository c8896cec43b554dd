"""The architecture contracts (.importlinter) hold, and they do catch a violation.

`.ci/run` runs `lint-imports` on the project itself; here a copy of the project's Python files gets one
deliberate violation of each kind, and import-linter must refuse every one of them.
"""

import configparser
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
LINT_IMPORTS = Path(sys.executable).with_name("lint-imports")


def root_packages() -> list[str]:
    config = configparser.ConfigParser()
    config.read(ROOT / ".importlinter")
    return config["importlinter"]["root_packages"].split()


@pytest.fixture(scope="module")
def project_copy(tmp_path_factory):
    copy = tmp_path_factory.mktemp("project")
    for package in root_packages():
        shutil.copytree(ROOT / package, copy / package, ignore=shutil.ignore_patterns("*.pyc", "__pycache__"))
    shutil.copy(ROOT / ".importlinter", copy / ".importlinter")
    return copy


def lint(directory: Path) -> subprocess.CompletedProcess:
    return subprocess.run(
        [str(LINT_IMPORTS), "--no-cache"],
        cwd=directory,
        capture_output=True,
        text=True,
        env={"PYTHONPATH": str(directory), "PATH": "/usr/bin:/bin"},
        timeout=120,
    )


def test_the_project_keeps_its_contracts():
    result = lint(ROOT)
    assert result.returncode == 0, result.stdout + result.stderr


@pytest.mark.parametrize(
    "module, line, broken, reported",
    [
        # an engine reaching for Django
        (
            "bridge/engine/scoring/contract.py",
            "import django.db",
            "Engines are plain Python",
            "bridge.engine.scoring.contract -> django",
        ),
        # a lower app importing a higher one
        (
            "federation/engine/age.py",
            "import tournaments.models",
            "Apps depend downwards only",
            "federation.engine.age -> tournaments.models",
        ),
        # a service importing its own app's tasks
        ("ulti/services/__init__.py", "import ulti.tasks", "Inside every app", "ulti.services -> ulti.tasks"),
    ],
)
def test_a_deliberate_violation_is_refused(project_copy, module, line, broken, reported):
    target = project_copy / module
    original = target.read_text()
    target.write_text(original + f"\n{line}  # deliberate violation\n")
    try:
        result = lint(project_copy)
    finally:
        target.write_text(original)
    assert result.returncode == 1, result.stdout
    assert f"{broken}" in result.stdout
    assert reported in result.stdout
