"""scripts/postgres.sh keeps one cluster per run: stopping one never stops another run's
(issue 22, section 6). Starts two throwaway clusters of its own."""

from __future__ import annotations

import glob
import os
import subprocess
from pathlib import Path

import pytest

SCRIPT = Path(__file__).resolve().parents[1] / "scripts" / "postgres.sh"
pytestmark = pytest.mark.skipif(not glob.glob("/usr/lib/postgresql/*/bin/initdb"),
                                reason="no PostgreSQL server binaries")
# no state file: each run names its own cluster (never the shared one of a test session)
ENV = {k: v for k, v in os.environ.items() if k != "PALIO_PG_STATE"}


def script(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(["bash", str(SCRIPT), *args], capture_output=True, text=True,
                          env=ENV, timeout=120)


def answers(url: str) -> bool:
    import psycopg

    try:
        with psycopg.connect(url.replace("postgresql+psycopg", "postgresql"), connect_timeout=3):
            return True
    except psycopg.OperationalError:
        return False


def test_two_runs_keep_their_own_clusters():
    first = script("start")
    assert first.returncode == 0, first.stderr
    second = script("start")
    try:
        assert second.returncode == 0, second.stderr
        url_a, url_b = first.stdout.strip(), second.stdout.strip()
        dir_b = second.stderr.split("cluster in ")[1].split()[0]
        # no argument and no state file of its own: it stops nothing, and says what to give
        lone = script("stop")
        assert lone.returncode == 2 and "URL or dir" in lone.stderr
        assert answers(url_a) and answers(url_b)
        # one run stops its own by URL; the other run's cluster keeps running
        assert script("stop", url_a).returncode == 0
        assert not answers(url_a) and answers(url_b)
        assert script("stop", dir_b).returncode == 0
        assert not answers(url_b) and not Path(dir_b).exists()
    finally:
        for done in (first, second):
            if done.returncode == 0 and done.stdout.strip():
                script("stop", done.stdout.strip())
