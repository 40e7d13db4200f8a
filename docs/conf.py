"""Sphinx configuration of the connectn-env documentation site (not published).

Build from the repository root: ``sphinx-build -W --keep-going -b html docs docs/_build/html``.
The guide is the Markdown pages of ``docs/`` (one topic each, also read as files in the
repository); ``_ext/connectn_sphinx.py`` generates the rest at build time: the environment
pages from the game registry, the benchmark figures from ``benchmarks/README.md``, the API
pages from the ``__all__`` of the public modules of ``connectn_env`` and ``agents``.
"""

import sys
from pathlib import Path

HERE = Path(__file__).parent
sys.path[:0] = [str(HERE.parent), str(HERE / "_ext")]  # this checkout, and the extension

from connectn_env import __version__  # noqa: E402 - needs the path above

project = "connectn-env"
author = "connectn-env contributors"
copyright = "connectn-env contributors"
release = __version__

extensions = [
    "sphinx.ext.autodoc",
    "sphinx.ext.napoleon",
    "myst_parser",
    "connectn_sphinx",
]

source_suffix = {".rst": "restructuredtext", ".md": "markdown"}
exclude_patterns = ["_build"]
html_theme = "furo"
html_title = f"connectn-env {release}"

# API pages: one per public module, written by _ext/connectn_sphinx.py from its __all__.
autodoc_default_options = {"members": True, "undoc-members": True, "show-inheritance": True}
autodoc_member_order = "bysource"

# Google-style docstrings. Attributes sections as fields (``:ivar:``), not attribute entries,
# which would duplicate the entries autodoc makes for annotated attributes; types come from
# the annotations, so a "Returns:" line's text before a colon is not linked as a type.
napoleon_google_docstring = True
napoleon_numpy_docstring = False
napoleon_use_ivar = True
napoleon_use_rtype = False

# Headings get anchors, so the pages' "page.md#section" links work on the site as on GitHub.
myst_heading_anchors = 3

# Every reference is checked; connectn_sphinx resolves or excuses those that are not errors
# (other libraries, internal names), so -W fails on names that do not exist.
nitpicky = True
