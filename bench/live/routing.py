"""Which gunicorn pool the reverse proxy sends a request to: the `$pool` map of deploy/nginx.conf, read
from that file, so the live load test (bench/live/locustfile.py) routes its requests as production does
and a test can check the map against the registered live fragment URLs."""

import re
from pathlib import Path

CONF = Path(__file__).resolve().parents[2] / "deploy" / "nginx.conf"
_MAP = re.compile(r'map\s+"\$request_method:\$uri"\s+\$pool\s*\{(.*?)\}', re.S)
_ENTRY = re.compile(r'^\s*(?:"([^"]*)"|(\S+))\s+(\w+)\s*;', re.M)


def rules(conf: Path = CONF) -> tuple[str, list[tuple[re.Pattern, str]]]:
    """The map's default pool and its (regex, pool) entries, in order (nginx takes the first match)."""
    found = _MAP.search(conf.read_text(encoding="utf-8"))
    if found is None:
        raise ValueError(f"no $pool map in {conf}")
    default, entries = None, []
    for quoted, bare, pool in _ENTRY.findall(found.group(1)):
        key = quoted or bare
        if key == "default":
            default = pool
        elif key.startswith("~"):
            entries.append((re.compile(key[1:]), pool))
        else:
            raise ValueError(f"{conf}: only regex entries are read here, not {key!r}")
    if default is None:
        raise ValueError(f"{conf}: the $pool map has no default")
    return default, entries


def pool(method: str, path: str, table=None) -> str:
    """The pool (an upstream name: "web" or "live") for a request (the path without its query string)."""
    default, entries = table or rules()
    key = f"{method}:{path}"
    for pattern, name in entries:
        if pattern.search(key):
            return name
    return default
