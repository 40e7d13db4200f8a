"""benchmarks/results/ holds data only, and every file of benchmarks/ that the docs name is
there (the one-off scripts of earlier sessions live in the git history, not in the tree)."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
# A path under benchmarks/ with a file ending; not one shown at a commit (``REV:path``).
NAMED = re.compile(r"(?<![\w:/.-])benchmarks/[\w./-]*\w\.\w+")


def test_the_results_folder_holds_no_scripts() -> None:
    scripts = [
        path.relative_to(ROOT).as_posix()
        for path in (ROOT / "benchmarks" / "results").rglob("*")
        if path.suffix in (".py", ".sh")
    ]
    assert scripts == []


def test_every_benchmark_file_the_docs_name_exists() -> None:
    pages = [ROOT / "README.md", ROOT / "benchmarks" / "README.md", *(ROOT / "docs").rglob("*.md")]
    missing = {
        f"{page.relative_to(ROOT)}: {name}"
        for page in pages
        for name in NAMED.findall(page.read_text(encoding="utf-8"))
        if not Path(name).stem.isupper() and not (ROOT / name).exists()  # NAME.py: a placeholder
    }
    assert not missing, sorted(missing)
