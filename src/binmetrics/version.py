"""The package version, in one place (the CLI, the report and ``binmetrics.__version__``)."""

__version__ = "0.1.0"
