"""The dependency split: runtime dependencies in pyproject.toml, hash-locked; tools only in the dev lock."""

import re
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PIN = re.compile(r"^([A-Za-z0-9_.-]+)==(\S+)", re.M)
TOOLS = {"pytest", "locust", "selenium", "schemathesis", "flask", "ruff", "hypothesis", "uv", "gevent"}


def _norm(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def _pins(path: Path) -> dict[str, str]:
    return {_norm(name): version for name, version in PIN.findall(path.read_text())}


def _requirement_name(spec: str) -> str:
    return _norm(re.split(r"[\[<>=!~; ]", spec, maxsplit=1)[0])


def test_runtime_lock_has_no_test_dev_or_load_tool():
    runtime = _pins(ROOT / "requirements" / "runtime.lock")
    assert "django" in runtime and "celery" in runtime
    assert not TOOLS & set(runtime), TOOLS & set(runtime)


def test_every_pin_is_hash_locked():
    for lock in ("runtime.lock", "dev.lock"):
        text = (ROOT / "requirements" / lock).read_text()
        blocks = re.split(r"\n(?=[A-Za-z0-9_.-]+==)", text.strip())
        pinned = [b for b in blocks if PIN.match(b)]
        assert pinned, lock
        for block in pinned:
            assert "--hash=sha256:" in block, (lock, block.splitlines()[0])


def test_runtime_and_dev_locks_agree_and_groups_are_declared():
    runtime = _pins(ROOT / "requirements" / "runtime.lock")
    dev = _pins(ROOT / "requirements" / "dev.lock")
    assert {name: dev.get(name) for name in runtime} == runtime
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    declared = {_requirement_name(spec) for spec in project["dependencies"]}
    assert declared <= set(runtime)
    assert not TOOLS & declared
    for group in ("test", "dev", "load"):
        names = {_requirement_name(spec) for spec in project["optional-dependencies"][group]}
        assert names <= set(dev), (group, names - set(dev))


def test_production_image_installs_the_runtime_lock_only():
    dockerfile = (ROOT / "Dockerfile").read_text()
    assert "requirements/runtime.lock" in dockerfile and "--require-hashes" in dockerfile
    assert "dev.lock" not in dockerfile
