"""Board styles, one module each (``rack``, ``grid``, ``go``, ``hex``, ...).

A game names its style in ``render_style``; :func:`connectn_env.render.style.load_style`
imports the module of that name and takes its ``STYLE``, an instance of a
:class:`~connectn_env.render.style.BoardStyle` subclass. Every module here is a style: helpers
shared by several styles belong in :mod:`connectn_env.render.style`.
"""
