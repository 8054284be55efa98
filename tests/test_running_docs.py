"""What a person running Palio reads and meets (issue 22, section 6): the README's test lines
use the venv's pytest, the server's lock file is ignored by git, and docs/server.md says what
the server does with big frames and when it sends score tables."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def test_readme_runs_the_venvs_pytest():
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    commands = re.findall(r"`([^`]*\bpytest\b[^`]*)`", text)
    commands += [line for line in re.findall(r"```sh\n(.*?)```", text, re.S)
                 for line in line.splitlines() if "pytest" in line]
    bare = [c for c in commands if re.match(r"\s*pytest\b", c)]
    assert not bare, f"a bare pytest needs the venv: {bare}"


@pytest.mark.skipif(shutil.which("git") is None, reason="no git")
def test_the_server_lock_beside_a_database_is_ignored_by_git():
    done = subprocess.run(["git", "check-ignore", "-q", "palio.db.serve-lock"], cwd=ROOT)
    assert done.returncode == 0, "palio.db.serve-lock is not ignored by git"


def test_server_doc_says_frame_limit_and_open_score_tables():
    text = (ROOT / "docs" / "server.md").read_text(encoding="utf-8")
    assert re.search(r"frame may be at most 64 KiB.*closes the sender's socket", text, re.S)
    assert re.search(r"`score_table`[^.]*sent during play", text)


# Paths the docs name that a clone does not hold, on purpose: what a command writes.
WRITTEN = {"out/screenshots/": "the browser tests write their screenshots there",
           "models/model-gNNNN.npz": "palio train writes its kept models there (under --out)"}
# Shorthands a doc defines for itself ("Paths: `sg/` = `src/palio/games/san_gimignano/`").
ALIASES = {"sg/": "src/palio/games/san_gimignano/"}
SHARED_SAID = "it is not part of a\nclone of the repository"
FILE_LIKE = re.compile(r"\.(py|md|json|txt|npz|sh|toml|po|js|css|html|yml|yaml|csv)$")


def clone_files() -> set[str]:
    """The files and folders a fresh clone holds (git's list; the working tree without git)."""
    if shutil.which("git") is None:
        return {str(p.relative_to(ROOT)) for p in ROOT.rglob("*") if ".venv" not in p.parts}
    listed = subprocess.run(["git", "ls-files"], cwd=ROOT, capture_output=True, text=True,
                            check=True).stdout.split()
    folders = {str(Path(f).parents[k]) for f in listed for k in range(len(Path(f).parts) - 1)}
    return set(listed) | folders


def named_paths(doc: Path) -> list[tuple[int, str]]:
    """The file and folder paths a document names in code spans, with their lines."""
    text = doc.read_text(encoding="utf-8")
    found = []
    for match in re.finditer(r"`([^`\s]+)`", text):
        token = match.group(1).rstrip(".,:;)").split("::")[0].split(":")[0]
        if "/" not in token or token.startswith(("http", "/", "-", "~", "$", ".venv")):
            continue
        if any(c in token for c in "{*<=?") or not (FILE_LIKE.search(token) or token.endswith("/")):
            continue
        found.append((text[:match.start()].count("\n") + 1, token))
    return found


def test_docs_name_no_file_a_clone_lacks():
    """Every path README.md and docs/ name is in the clone: from the repository root or, as a
    shorthand, from src/, src/palio/, tests/ or the document's own game package. `shared/`
    (the project's sources, outside the repository) only where the document says so."""
    have = clone_files()
    games = [p.name for p in (ROOT / "src" / "palio" / "games").iterdir() if p.is_dir()]
    missing = []
    for doc in [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]:
        text = doc.read_text(encoding="utf-8")
        game = doc.stem.split(".")[0].replace("-", "_")
        bases = ["", "src/", "src/palio/", "tests/", "src/palio/server/", "benchmarks/",
                 *(f"src/palio/games/{g}/" for g in games), f"tests/{game}/"]
        for line, token in named_paths(doc):
            for short, full in ALIASES.items():
                if token.startswith(short) and f"`{short}` = `{full}`" in text:
                    token = full + token[len(short):]
            if token in WRITTEN:
                continue
            if token.startswith("shared/") and SHARED_SAID in text:
                continue
            if not any((base + token).rstrip("/") in have for base in bases):
                missing.append(f"{doc.relative_to(ROOT)}:{line}: {token}")
    assert not missing, missing


def test_the_readmes_learned_bot_figures_name_their_opponent():
    """88.0% and 87.5% were against `mcts-2026` (the search before issue 23), 80.0% and 67.5%
    (and 72.5% on a loaded machine) against today's `mcts` (docs/bots.md); the README says
    which is which."""
    text = " ".join((ROOT / "README.md").read_text(encoding="utf-8").split())
    assert re.search(r"88\.0% and 87\.5%[^.]*against `mcts-2026`", text)
    assert re.search(r"against today's `mcts`.{0,80}80\.0% and 67\.5%.{0,80}72\.5%", text)
    bots = " ".join((ROOT / "docs" / "bots.md").read_text(encoding="utf-8").split())
    assert "(now `mcts-2026`) in 88.0% and 87.5%" in bots and "MAST rollouts in 72.5%" in bots


def test_the_test_script_says_each_step_and_lists_the_slowest_tests():
    """scripts/test.sh says what it is doing before each install (they run --quiet and take
    minutes), runs pytest with --durations=25; the README says how long the suite takes."""
    lines = (ROOT / "scripts" / "test.sh").read_text(encoding="utf-8").splitlines()
    commands = [i for i, line in enumerate(lines)
                if re.search(r"pip install|apt-get update|-m venv|postgres\.sh start|ruff check"
                             r"|-m pytest", line)]
    assert len(commands) >= 7
    for i in commands:  # the nearest line above that runs something is a step line
        above = next(line.strip() for line in reversed(lines[:i])
                     if line.strip() and not line.strip().startswith(("#", "if ", "(")))
        assert above.startswith("step "), (lines[i], above)
    assert any(re.match(r"\.venv/bin/python -m pytest --durations=25 \"\$@\"$", line.strip())
               for line in lines)
    readme = " ".join((ROOT / "README.md").read_text(encoding="utf-8").split())
    # how long the suite takes, with the measured run it comes from (a figure in seconds)
    assert re.search(r"suite takes about \d+(-\d+)? minutes on a two-core machine.{0,200}"
                     r"\d,\d{3} s", readme)
