"""The documentation site builds with ``mkdocs build --strict`` and its measure catalogue
matches the registry and the library's values.

The catalogue pages are generated from the registry at build time
(docs/gen_catalogue.py); these tests check the built HTML, not the generator's
intentions: a page per registered measure, each reachable from the index and the
navigation, and the example value on Berrar's data equal to what binmetrics computes
(and, for a few measures, to scikit-learn's value on the same cut).
"""

from __future__ import annotations

import html
import importlib.util
import math
import os
import re
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import pytest

import binmetrics as bm

for _module in ("mkdocs", "material", "mkdocs_gen_files"):
    pytest.importorskip(_module, reason=f"{_module} is not installed: pip install -e '.[docs]'")

ROOT = Path(__file__).resolve().parents[2]
Y = [1, 1, 0, 1, 1, 0, 0, 1, 0, 0]
S = [0.95, 0.8, 0.75, 0.6, 0.5, 0.45, 0.3, 0.25, 0.2, 0.1]
THRESHOLD = 0.55
# computing every measure on ten cases half of them positive warns about BEDROC's alpha
pytestmark = pytest.mark.filterwarnings("ignore::binmetrics.exceptions.MeasureCaveatWarning")
EXAMPLE = re.compile(r'>>> ev\["(?P<id>[^"]+)"\]\n(?P<value>\S+)')


def _text(page: Path) -> str:
    """The visible text of an HTML page (tags removed, entities decoded)."""
    return html.unescape(re.sub(r"<[^>]+>", "", page.read_text(encoding="utf-8")))


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("docs") / "site"
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1", "DISABLE_MKDOCS_2_WARNING": "true",
           "MPLBACKEND": "Agg"}
    proc = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "-d", str(out)],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=240,
    )
    assert proc.returncode == 0, f"mkdocs build --strict failed:\n{proc.stdout}\n{proc.stderr}"
    return out


@pytest.fixture(scope="module")
def generator() -> ModuleType:
    path = ROOT / "docs" / "gen_catalogue.py"
    spec = importlib.util.spec_from_file_location("gen_catalogue", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


def _example_values(site: Path) -> dict[str, str]:
    values = {}
    for m in bm.iter_measures():
        found = EXAMPLE.findall(_text(site / "catalogue" / m.id / "index.html"))
        assert len(found) == 1, f"{m.id}: expected one example value, found {found}"
        assert found[0][0] == m.id
        values[m.id] = found[0][1]
    return values


def test_every_measure_has_a_page_in_the_index_and_the_nav(site: Path) -> None:
    ids = [m.id for m in bm.iter_measures()]
    assert len(ids) == len(bm.measure_catalogue()) > 40
    pages = {p.name for p in (site / "catalogue").iterdir() if p.is_dir()}
    assert pages == set(ids)  # one page per measure, no page for anything else
    index = (site / "catalogue" / "index.html").read_text(encoding="utf-8")
    home = (site / "index.html").read_text(encoding="utf-8")
    for m in bm.iter_measures():
        page = _text(site / "catalogue" / m.id / "index.html")
        assert f"{m.name} ({m.id})" in page
        assert m.source in page and m.formula in page
        for alias in m.aliases:
            assert alias in page
        for name, default in m.params.items():
            assert f"{name}={default!r}" in page
        assert f'href="{m.id}/"' in index, f"the catalogue index does not link {m.id}"
        assert f'catalogue/{m.id}/"' in home, f"the navigation does not list {m.id}"


def test_example_values_are_the_librarys(site: Path) -> None:
    ev = bm.evaluate(Y, S, threshold=THRESHOLD)
    values = _example_values(site)
    for mid, shown in values.items():
        expected = ev[mid]
        if math.isnan(expected):
            assert shown == "nan"
        else:
            assert float(shown) == expected, mid  # repr round-trips exactly


def test_example_values_agree_with_scikit_learn(site: Path) -> None:
    metrics = pytest.importorskip("sklearn.metrics")
    values = {k: float(v) for k, v in _example_values(site).items()}
    pred = [int(x >= THRESHOLD) for x in S]
    assert pred == [1, 1, 1, 1, 0, 0, 0, 0, 0, 0]  # Berrar's Figure 3 cut
    assert values["tpr"] == pytest.approx(metrics.recall_score(Y, pred), abs=1e-15)
    assert values["ppv"] == pytest.approx(metrics.precision_score(Y, pred), abs=1e-15)
    assert values["f1"] == pytest.approx(metrics.f1_score(Y, pred), abs=1e-15)
    assert values["mcc"] == pytest.approx(metrics.matthews_corrcoef(Y, pred), abs=1e-15)
    assert values["kappa"] == pytest.approx(metrics.cohen_kappa_score(Y, pred), abs=1e-15)
    assert values["auc"] == pytest.approx(metrics.roc_auc_score(Y, S), abs=1e-15)
    assert values["average_precision"] == pytest.approx(
        metrics.average_precision_score(Y, S), abs=1e-15)
    assert values["brier"] == pytest.approx(metrics.brier_score_loss(Y, S), abs=1e-15)
    assert values["log_loss"] == pytest.approx(metrics.log_loss(Y, S) / math.log(2), abs=1e-12)


def test_the_index_table_shows_every_value(site: Path) -> None:
    ev = bm.evaluate(Y, S, threshold=THRESHOLD)
    text = _text(site / "catalogue" / "index.html")
    for m in bm.iter_measures():
        v = ev[m.id]
        shown = "undefined" if math.isnan(v) else f"{v:.6g}"
        assert re.search(rf"\n{re.escape(m.id)}\n.*\n.*\n{re.escape(shown)}\n", text), m.id


def test_undefined_values_are_shown_with_their_reason(
        generator: ModuleType, monkeypatch: pytest.MonkeyPatch) -> None:
    # every measure is defined on Berrar's data; one class only makes AUC undefined
    one_class = ([1, 1, 1], [0.9, 0.5, 0.2])
    monkeypatch.setattr(generator, "berrar_evaluation",
                        lambda: bm.evaluate(*one_class, threshold=THRESHOLD))
    auc = bm.get_measure("auc")
    ex = generator.example_value(auc)
    assert math.isnan(ex.value) and ex.shown == "undefined"
    with pytest.warns(bm.UndefinedMeasureWarning) as caught:
        bm.evaluate(*one_class)["auc"]
    warning = caught[0].message
    assert isinstance(warning, bm.UndefinedMeasureWarning)
    reason = warning.reason
    assert reason and ex.undefined_reason == reason
    page = generator.measure_page(auc, ex, bm.evaluate(*one_class), *one_class)
    assert '>>> ev["auc"]\nnan\n' in page
    assert f"The value is undefined (NaN, with an `UndefinedMeasureWarning`): {reason}" in page
    index = generator.index_page({m.id: ex for m in bm.iter_measures()}, bm.evaluate(Y, S))
    assert "| [Area under the ROC curve](auc.md) | `auc` | ranking | ↑ | undefined |" in index
    # and on Berrar's data nothing is undefined
    monkeypatch.undo()
    assert all(generator.example_value(m).undefined_reason is None
               for m in bm.iter_measures())


def test_the_site_fetches_nothing(site: Path) -> None:
    for page in site.rglob("*.html"):
        text = page.read_text(encoding="utf-8")
        assert "fonts.googleapis" not in text and "fonts.gstatic" not in text, page
        assert not re.search(r"<script[^>]+src=\"(https?:)?//", text), page
        assert not re.search(r"<link[^>]+rel=\"stylesheet\"[^>]+href=\"(https?:)?//", text), page
    for name in ("berrar_charts.png", "two_models.png", "berrar_fig6.png",  # binmetrics.plot
                 "berrar_fig8b.png", "anova_fig4b.png", "siblini_fig7.png"):
        assert (site / "figures" / name).stat().st_size > 10_000
