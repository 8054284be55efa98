"""Build hook, beside pyproject.toml (which holds all the package's settings).

The rules documents live in ``docs/rules`` for readers of the repository. A wheel copies them
to ``palio/docs/rules`` so that an installed Palio serves its rules pages without a source
checkout; an editable install (the README's) reads ``docs/rules`` in place instead.
"""

import shutil
from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py

RULES = Path(__file__).resolve().parent / "docs" / "rules"


class BuildWithRules(build_py):
    def run(self) -> None:
        super().run()
        if self.editable_mode:
            return
        target = Path(self.build_lib) / "palio" / "docs" / "rules"
        target.mkdir(parents=True, exist_ok=True)
        for document in sorted(RULES.glob("*.md")):
            shutil.copyfile(document, target / document.name)


setup(cmdclass={"build_py": BuildWithRules})
