/* binmetrics report: draws the charts and moves the threshold slider.
   It computes no measure: every value at every slider position was computed by
   binmetrics and is read from the embedded JSON (#bm-data). */
(function () {
  "use strict";
  var D = JSON.parse(document.getElementById("bm-data").textContent);
  var G = D.grid.threshold.length;
  var W = 380, H = 300, ML = 54, MR = 14, MT = 28, MB = 44, PW = W - ML - MR, PH = H - MT - MB;

  function $(id) { return document.getElementById(id); }
  function num(v) { return v === "Infinity" ? Infinity : v === "-Infinity" ? -Infinity : v; }
  function attr(v) { v = num(v); return v === null ? "NaN" : String(v); }
  function strip(s) { return s.indexOf(".") < 0 ? s : s.replace(/0+$/, "").replace(/\.$/, ""); }
  /* The strings of Python's format(v, ".{digits}g") (binmetrics.report._fmt). */
  function fmt(v, digits) {
    digits = digits || 6;
    v = num(v);
    if (v === null || Number.isNaN(v)) return "undefined";
    if (v === Infinity) return "\u221e";
    if (v === -Infinity) return "\u2212\u221e";
    if (v === 0) return Object.is(v, -0) ? "-0" : "0";
    var e = v.toExponential(digits - 1), x = Number(e.split("e")[1]);
    if (x < -4 || x >= digits) {
      return strip(e.split("e")[0]) + "e" + (x < 0 ? "-" : "+") + String(Math.abs(x)).padStart(2, "0");
    }
    return strip(v.toFixed(digits - 1 - x));
  }
  /* a model name shortened for legends and captions (the full name is in the title) */
  function short(s) { return s.length <= 40 ? s : s.slice(0, 39) + "\u2026"; }
  function esc(s) {
    return String(s).replace(/[&<>"']/g, function (c) { return "&#" + c.charCodeAt(0) + ";"; });
  }

  /* --- drawing: u, v are in units of the axis range ([0, 1] is the plotted box) --- */
  function X(u) { return (ML + u * PW).toFixed(2); }
  function Y(v) { return (MT + (1 - v) * PH).toFixed(2); }
  function ok(x, y) { return x !== null && y !== null; }
  var DASH = { solid: "", dashed: "5 3", dotted: "2 3" };
  /* a polyline through the points; a null lifts the pen (NaN breaks the line, as in
     matplotlib) */
  function path(xs, ys, cls, dash, label, close) {
    var d = "", pen = false;
    for (var i = 0; i < xs.length; i++) {
      if (!ok(xs[i], ys[i])) { pen = false; continue; }
      d += (pen ? "L" : "M") + X(xs[i]) + "," + Y(ys[i]);
      pen = true;
    }
    if (close) d += "Z";
    return '<path class="' + cls + '" d="' + d + '"' + (dash ? ' stroke-dasharray="' + dash + '"' : "") +
      ">" + (label ? "<title>" + esc(label) + "</title>" : "") + "</path>";
  }
  /* the step function of values ys[j] at ascending xs[j], each holding on (xs[j-1], xs[j]]
     (score >= threshold is positive): the vertices plot.measure draws */
  function stepPath(xs, ys, cls) {
    var d = "", pen = false;
    for (var j = 0; j < xs.length; j++) {
      if (!ok(xs[j], ys[j])) { pen = false; continue; }
      if (j > 0 && xs[j - 1] !== null) d += (pen ? "L" : "M") + X(xs[j - 1]) + "," + Y(ys[j]) + "L";
      else d += "M";
      d += X(xs[j]) + "," + Y(ys[j]);
      pen = true;
    }
    return '<path class="' + cls + '" d="' + d + '"/>';
  }
  function frame(id, title, xr, yr, xlabel, ylabel) {
    var s = '<defs><clipPath id="bm-clip-' + id + '"><rect x="' + ML + '" y="' + (MT - 4) +
      '" width="' + PW + '" height="' + (PH + 8) + '"/></clipPath></defs>' +
      '<text class="title" x="' + (W / 2) + '" y="16">' + esc(title) + "</text>" +
      '<rect class="box" x="' + ML + '" y="' + MT + '" width="' + PW + '" height="' + PH + '"/>';
    ticks(xr).forEach(function (t) {
      var u = (t - xr[0]) / (xr[1] - xr[0]);
      s += '<line class="tick" x1="' + X(u) + '" x2="' + X(u) + '" y1="' + Y(0) + '" y2="' + (+Y(0) + 4) + '"/>' +
        '<text class="tl" x="' + X(u) + '" y="' + (+Y(0) + 16) + '" text-anchor="middle">' + fmt(t) + "</text>";
    });
    ticks(yr).forEach(function (t) {
      var v = (t - yr[0]) / (yr[1] - yr[0]);
      s += '<line class="tick" x1="' + (ML - 4) + '" x2="' + ML + '" y1="' + Y(v) + '" y2="' + Y(v) + '"/>' +
        '<text class="tl" x="' + (ML - 6) + '" y="' + (+Y(v) + 4) + '" text-anchor="end">' + fmt(t) + "</text>";
    });
    return s + '<text class="al" x="' + (ML + PW / 2) + '" y="' + (H - 6) + '" text-anchor="middle">' +
      esc(xlabel) + '</text><text class="al" transform="translate(13,' + (MT + PH / 2) +
      ') rotate(-90)" text-anchor="middle">' + esc(ylabel) + "</text>";
  }
  /* round tick values (steps of 1, 2 or 5 times a power of ten) covering [r[0], r[1]] */
  function ticks(r) {
    var raw = (r[1] - r[0]) / 4, p = Math.pow(10, Math.floor(Math.log10(raw))), f = raw / p;
    var step = (f < 1.5 ? 1 : f < 3.5 ? 2 : f < 7.5 ? 5 : 10) * p, out = [];
    for (var k = Math.ceil(r[0] / step - 1e-9); k * step <= r[1] + step * 1e-9; k++) out.push(k * step + 0);
    return out;
  }

  /* a dot at each point */
  function dots(xs, ys, color, label) {
    var c = "";
    for (var i = 0; i < xs.length; i++) {
      if (ok(xs[i], ys[i])) c += '<circle cx="' + X(xs[i]) + '" cy="' + Y(ys[i]) + '" r="2.4"/>';
    }
    return '<g class="dots ' + (color || "") + '"><title>' + esc(label) + "</title>" + c + "</g>";
  }
  /* one series: [xs, ys, style, label, class(, 1: a dot at each point)] in axis units
     (binmetrics.chart.Series) */
  function series(S, color) {
    var xs = S[0], ys = S[1], style = S[2], label = S[3], cls = S[4] + (color ? " " + color : "");
    if (style === "points") return dots(xs, ys, color, label);
    if (style === "segment") {
      var x = X(xs[0]), y0 = Y(ys[0]), y1 = Y(ys[1]);
      return '<line class="ks ' + (color || "") + '" x1="' + x + '" x2="' + x + '" y1="' + y0 + '" y2="' + y1 +
        '"><title>' + esc(label) + '</title></line><text class="tl ' + (color || "") + '" x="' + (+x + 4) +
        '" y="' + ((+y0 + +y1) / 2) + '">' + esc(label.split(" at ")[0]) + "</text>";
    }
    /* a filled region: the ROC band, the partial-AUC area */
    if (style === "band" || style === "area") return path(xs, ys, cls, "", label, true);
    return path(xs, ys, cls, DASH[style], label) + (S[5] ? dots(xs, ys, color, label) : "");
  }

  function caption(spec) {
    var parts = [];
    spec.shared.forEach(function (S) { parts.push('<span class="ref-key">' + esc(S[3]) + "</span>"); });
    D.models.forEach(function (M, i) {
      var mine = M.charts[spec.id];
      if (!mine) return;
      var labels = [];
      mine.forEach(function (S) { if (labels.indexOf(S[3]) < 0) labels.push(S[3]); });
      parts.push('<span class="key m' + (i % 8) + '" title="' + esc(M.name) + '">' + esc(short(M.name)) +
        "</span>: " + esc(labels.join("; ")));
    });
    return "<figcaption>" + parts.join("<br>") + "</figcaption>";
  }

  function chart(spec) {
    var body = "", marks = "";
    spec.shared.forEach(function (S) { body += series(S, ""); });
    D.models.forEach(function (M, i) {
      (M.charts[spec.id] || []).forEach(function (S) { body += series(S, "m" + (i % 8)); });
      if (spec.marker && M.markers[spec.id]) {
        marks += '<circle id="bm-mk-' + spec.id + "-" + i + '" class="marker m' + (i % 8) + '" r="4.5"/>';
      }
    });
    if (spec.vline) {
      marks += '<line id="bm-mk-' + spec.id + '" class="now" y1="' + Y(0) + '" y2="' + Y(1) + '"/>';
    }
    return '<figure class="chart"><svg id="bm-chart-' + spec.id + '" viewBox="0 0 ' + W + " " + H +
      '" role="img" aria-label="' + esc(spec.title) + '">' +
      frame(spec.id, spec.title, spec.x, spec.y, spec.xlabel, spec.ylabel) +
      '<g clip-path="url(#bm-clip-' + spec.id + ')">' + body + "</g>" + marks + "</svg>" +
      caption(spec) + "</figure>";
  }

  /* --- any confusion measure against the threshold (its values at the slider positions) --- */
  var measureBox = null, select = null, mRange = [0, 1];
  function measureChart() {
    var id = select.value, lo = Infinity, hi = -Infinity;
    D.models.forEach(function (M) {
      M.values[id].forEach(function (v, j) {
        v = num(v);
        if (D.grid.x[j] !== null && v !== null && isFinite(v)) { lo = Math.min(lo, v); hi = Math.max(hi, v); }
      });
    });
    if (!(hi >= lo)) { lo = 0; hi = 1; }
    if (hi === lo) { lo -= 0.5; hi += 0.5; }
    mRange = [lo, hi];
    var body = "", marks = "";
    D.models.forEach(function (M, i) {
      var ys = M.values[id].map(function (v) {
        v = num(v);
        return v === null || !isFinite(v) ? null : (v - lo) / (hi - lo);
      });
      body += stepPath(D.grid.x, ys, "line m" + (i % 8));
      marks += '<circle id="bm-mk-measure-' + i + '" class="marker m' + (i % 8) + '" r="4.5"/>';
    });
    measureBox.innerHTML = '<svg id="bm-chart-measure" viewBox="0 0 ' + W + " " + H + '" role="img" aria-label="' +
      esc(D.names[id]) + ' against the threshold">' +
      frame("measure", D.names[id] + " against the threshold", D.measureChart.x, mRange, "threshold", id) +
      '<g clip-path="url(#bm-clip-measure)">' + body + "</g>" + marks +
      '<line id="bm-mk-mline" class="now" y1="' + Y(0) + '" y2="' + Y(1) + '"/></svg>';
    update(Number(slider.value));
  }

  function place(el, x, y) {
    if (!el) return;
    var ok = x !== null && y !== null && isFinite(num(x)) && isFinite(num(y));
    el.style.visibility = ok ? "visible" : "hidden";
    if (ok) { el.setAttribute("cx", X(x)); el.setAttribute("cy", Y(y)); }
  }
  function vline(el, x) {
    if (!el) return;
    el.style.visibility = x === null ? "hidden" : "visible";
    if (x !== null) { el.setAttribute("x1", X(x)); el.setAttribute("x2", X(x)); }
  }

  /* --- the slider --- */
  var slider = $("bm-slider"), out = $("bm-threshold"), pos = $("bm-position");
  function update(j) {
    var t = num(D.grid.threshold[j]);
    out.textContent = fmt(t, 10);
    out.dataset.value = attr(t);
    pos.textContent = "position " + (j + 1) + " of " + G;
    D.models.forEach(function (M, i) {
      ["tp", "fp", "fn", "tn"].forEach(function (k) {
        var el = $("bm-cm-" + i + "-" + k), v = M.counts[k][j];
        el.textContent = fmt(v, 10);
        el.dataset.value = attr(v);
      });
      D.confusion.forEach(function (id) {
        var el = $("bm-v-" + i + "-" + id), v = M.values[id][j];
        el.textContent = fmt(v);
        el.dataset.value = attr(v);
        /* the reason binmetrics gave at the model's own threshold; elsewhere a general one */
        el.title = v !== null ? "" : (j === M.own && M.reasons[id]) ? M.reasons[id] : "undefined at this threshold";
        var ci = el.parentNode.querySelector(".ci");
        if (ci) ci.hidden = j !== M.own;
      });
      Object.keys(M.markers).forEach(function (c) {
        place($("bm-mk-" + c + "-" + i), M.markers[c][0][j], M.markers[c][1][j]);
      });
      if (select) {
        var v = num(M.values[select.value][j]);
        place($("bm-mk-measure-" + i), D.grid.x[j],
              v === null || !isFinite(v) ? null : (v - mRange[0]) / (mRange[1] - mRange[0]));
      }
    });
    D.charts.forEach(function (c) { if (c.vline) vline($("bm-mk-" + c.id), D.grid.x[j]); });
    vline($("bm-mk-mline"), D.grid.x[j]);
  }

  var grid = $("bm-chart-grid"), calibration = $("bm-calibration-charts");
  function inSection(name) {
    return D.charts.filter(function (c) {
      return (c.section === "calibration" && calibration ? "calibration" : "charts") === name;
    }).map(chart).join("");
  }
  grid.innerHTML = inSection("charts");
  if (calibration) calibration.innerHTML = inSection("calibration");
  $("bm-legend").innerHTML = D.models.map(function (M, i) {
    return '<span class="key m' + (i % 8) + '" title="' + esc(M.name) + '"><i></i>' + esc(short(M.name)) + "</span>";
  }).join("");
  var fig = document.createElement("figure");
  fig.className = "chart";
  select = document.createElement("select");
  select.id = "bm-measure-select";
  select.setAttribute("aria-label", "confusion measure to plot against the threshold");
  select.innerHTML = D.confusion.map(function (id) {
    return '<option value="' + esc(id) + '"' + (id === "f1" ? " selected" : "") + ">" + esc(D.names[id]) + "</option>";
  }).join("");
  measureBox = document.createElement("div");
  fig.appendChild(measureBox);
  fig.appendChild(select);
  grid.appendChild(fig);
  slider.addEventListener("input", function () { update(Number(slider.value)); });
  slider.addEventListener("change", function () { update(Number(slider.value)); });
  select.addEventListener("change", measureChart);
  $("bm-reset").addEventListener("click", function () {
    slider.value = String(D.models[0].own);
    update(D.models[0].own);
  });
  measureChart();
  document.body.dataset.ready = "1";
})();
