"""A built wheel is a complete Palio: it carries the rules documents (setup.py copies
docs/rules into it), so a copy installed without the source checkout serves its rules pages."""

from __future__ import annotations

import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_a_built_wheel_carries_the_rules_documents_and_serves_them(tmp_path: Path) -> None:
    source = tmp_path / "source"  # a copy, so that the build leaves the checkout untouched
    skip = shutil.ignore_patterns("__pycache__", "*.egg-info")
    shutil.copytree(ROOT / "src", source / "src", ignore=skip)
    shutil.copytree(ROOT / "docs" / "rules", source / "docs" / "rules")
    for name in ("pyproject.toml", "setup.py", "MANIFEST.in", "README.md"):
        shutil.copyfile(ROOT / name, source / name)
    subprocess.run([sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps",
                    "--no-build-isolation", "-w", str(tmp_path / "dist"), str(source)],
                   check=True, capture_output=True)
    (wheel,) = (tmp_path / "dist").glob("palio-*.whl")
    documents = sorted(p.name for p in (ROOT / "docs" / "rules").glob("*.md"))
    with zipfile.ZipFile(wheel) as archive:
        carried = sorted(Path(n).name for n in archive.namelist()
                         if n.startswith("palio/docs/rules/"))
        archive.extractall(tmp_path / "installed")
    assert carried == documents and "tiletum.ja.md" in carried

    # The unpacked wheel alone on the path, away from the checkout: its own copy is found.
    script = ("import palio, palio.server.rules.pages as p; d = p.rules_dir(); "
              "print(palio.__file__); print(d); print(p.rules_file('tiletum', 'ja'))")
    result = subprocess.run([sys.executable, "-c", script], cwd=tmp_path, check=True,
                            capture_output=True, text=True,
                            env={"PYTHONPATH": str(tmp_path / "installed"), "PATH": "/usr/bin"})
    package, rules, found = result.stdout.splitlines()
    assert package.startswith(str(tmp_path / "installed"))
    assert rules == str(tmp_path / "installed" / "palio" / "docs" / "rules")
    assert "tiletum.ja.md" in found and "'ja'" in found
