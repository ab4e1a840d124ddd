"""The public names of binmetrics.study (read at import: binmetrics.package)."""

from binmetrics.study.results import Study as Study
from binmetrics.study.runner import benchmark as benchmark, example_study as example_study
from binmetrics.study.srd_analyses import StudySRD as StudySRD
