"""The package version, in one place for the package and the kernel's hello reply."""

__version__ = "0.1.0"
