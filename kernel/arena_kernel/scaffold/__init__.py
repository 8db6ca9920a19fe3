"""The game plugin template, which ``arena new-game NAME`` renders into a new project.

The template (``plugin-template/``) is package data, not kernel code: each file is a
:class:`string.Template` named ``<output name>.tmpl``, filled in by
:mod:`arena_kernel.scaffold.render`.
"""
