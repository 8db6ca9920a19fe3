"""arena's microkernel: hook specs, registries, referee core, match files, results.

Plugin authors import from one module only, :mod:`arena_kernel.plugin`.
"""

__version__ = "0.2.0"
