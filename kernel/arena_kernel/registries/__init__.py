"""Loading plugins (:mod:`.manager`) and the name -> class registries they fill
(:mod:`.registry`); installed plugins that fail are reported (:mod:`.report`) and left out.

Nothing is imported here: the command line imports the light modules of this package
without loading any plugin.
"""
