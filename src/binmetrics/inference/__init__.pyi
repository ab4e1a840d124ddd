"""The public names of binmetrics.inference (read at import: binmetrics.package)."""

from binmetrics.inference.clustered import (
    cluster_bootstrap as cluster_bootstrap,
    cluster_draws as cluster_draws,
    ClusterBootstrapResult as ClusterBootstrapResult,
    clustered_auc_ci as clustered_auc_ci,
    clustered_auc_variance as clustered_auc_variance,
    ClusteredTable as ClusteredTable,
)
from binmetrics.inference.delong import (
    delong_contrast as delong_contrast,
    delong_placements as delong_placements,
    delong_test as delong_test,
    delong_test_unpaired as delong_test_unpaired,
    DeLongContrast as DeLongContrast,
    DeLongTest as DeLongTest,
)
from binmetrics.inference.intervals import (
    auc_ci as auc_ci,
    auc_variance as auc_variance,
    ci_methods as ci_methods,
    Interval as Interval,
    measure_ci as measure_ci,
    Placements as Placements,
    proportion_ci as proportion_ci,
    PROPORTION_METHODS as PROPORTION_METHODS,
    table_placements as table_placements,
)
from binmetrics.inference.paired import (
    compare as compare,
    compare_methods as compare_methods,
    Comparison as Comparison,
    paired_bootstrap_indices as paired_bootstrap_indices,
    PairedResult as PairedResult,
)
from binmetrics.inference.power import (
    obuchowski_variance as obuchowski_variance,
    power_roc_test as power_roc_test,
    PowerResult as PowerResult,
)
from binmetrics.inference.proportions import (
    mcnemar_test as mcnemar_test,
    McNemarTest as McNemarTest,
    proportion_test as proportion_test,
    ProportionTest as ProportionTest,
    two_proportion_test as two_proportion_test,
)
from binmetrics.inference.refit import (
    oob_bootstrap as oob_bootstrap,
    OOBBootstrapResult as OOBBootstrapResult,
    refit_permutation_test as refit_permutation_test,
    RefitPermutationResult as RefitPermutationResult,
)
from binmetrics.inference.resampling import (
    bootstrap as bootstrap,
    bootstrap_tables as bootstrap_tables,
    BootstrapInterval as BootstrapInterval,
    BootstrapResult as BootstrapResult,
    permutation_pvalue as permutation_pvalue,
    permutation_tables as permutation_tables,
    permutation_test as permutation_test,
    PermutationResult as PermutationResult,
    ResamplingWarning as ResamplingWarning,
)
from binmetrics.inference.roc_tests import (
    roc_test as roc_test,
    ROC_TEST_METHODS as ROC_TEST_METHODS,
    ROCTest as ROCTest,
)
from binmetrics.inference.signed_rank import (
    signed_rank_test as signed_rank_test,
    WilcoxonTest as WilcoxonTest,
)
