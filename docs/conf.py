"""Sphinx configuration of the connectn-env documentation site (not published).

Build: ``sphinx-build -W --keep-going -b html docs docs/_build/html`` from the repository root.
The user guide is generated from README.md, the environment pages from the game registry and
the API reference from the packages' docstrings (see ``_ext/connectn_sphinx.py``).
"""

import sys
from pathlib import Path

HERE = Path(__file__).parent
sys.path[:0] = [str(HERE.parent), str(HERE / "_ext")]

project = "connectn-env"
author = "connectn-env contributors"
copyright = "connectn-env contributors"

extensions = [
    "sphinx.ext.autodoc",
    "sphinx.ext.autosummary",
    "sphinx.ext.napoleon",
    "myst_parser",
    "connectn_sphinx",
]

source_suffix = {".rst": "restructuredtext", ".md": "markdown"}
exclude_patterns = ["_build"]
templates_path = ["_templates"]
html_theme = "furo"
html_title = "connectn-env"

autosummary_generate = True
autodoc_default_options = {"members": True, "undoc-members": True, "show-inheritance": True}
autodoc_member_order = "bysource"
napoleon_google_docstring = True
napoleon_numpy_docstring = False

myst_heading_anchors = 3
nitpicky = True
napoleon_use_ivar = True
napoleon_use_rtype = False
