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
  function esc(s) {
    return String(s).replace(/[&<>"']/g, function (c) { return "&#" + c.charCodeAt(0) + ";"; });
  }

  /* --- drawing: u, v are in units of the axis range ([0, 1] is the plotted box) --- */
  function X(u) { return (ML + u * PW).toFixed(2); }
  function Y(v) { return (MT + (1 - v) * PH).toFixed(2); }
  function polyline(xs, ys, cls, dash) {
    var p = [];
    for (var i = 0; i < xs.length; i++) {
      if (xs[i] !== null && ys[i] !== null) p.push(X(xs[i]) + "," + Y(ys[i]));
    }
    return '<polyline class="' + cls + '" points="' + p.join(" ") + '"' +
      (dash ? ' stroke-dasharray="' + dash + '"' : "") + "/>";
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
  function hline(v, cls) { return polyline([0, 1], [v, v], cls, "2 3"); }

  function reference(spec, M, i) {
    var e = M.extra, c = "ref m" + (i % 8);
    if (spec.ref === "diagonal") return i === 0 ? polyline([0, 1], [0, 1], "ref random", "5 4") : "";
    if (spec.ref === "prevalence" && e.prevalence !== undefined) return hline(e.prevalence, c);
    if (spec.ref === "random_gain") return polyline(e.random_gain[0], e.random_gain[1], c, "5 4");
    if (spec.ref === "lift1" && e.lift1 !== undefined) return i === 0 ? hline(e.lift1, "ref random") : "";
    if (spec.ref === "ks" && e.ks) {
      return '<line class="ks m' + (i % 8) + '" x1="' + X(e.ks.x) + '" x2="' + X(e.ks.x) + '" y1="' +
        Y(e.ks.y0) + '" y2="' + Y(e.ks.y1) + '"><title>KS = ' + fmt(e.ks.value) + " at threshold " +
        fmt(e.ks.threshold, 10) + '</title></line><text class="tl m' + (i % 8) + '" x="' +
        (+X(e.ks.x) + 4) + '" y="' + ((+Y(e.ks.y0) + +Y(e.ks.y1)) / 2) + '">KS ' + fmt(e.ks.value, 3) + "</text>";
    }
    return "";
  }

  function chart(spec) {
    var body = "", marks = "";
    D.models.forEach(function (M, i) {
      body += reference(spec, M, i);
      spec.lines.forEach(function (l) {
        var c = M.curves[l[0]];
        if (c) body += polyline(c[0], c[1], "line m" + (i % 8), l[1]);
      });
      if (spec.marker && spec.marker !== "rates") {
        marks += '<circle id="bm-mk-' + spec.id + "-" + i + '" class="marker m' + (i % 8) + '" r="4.5"/>';
      }
    });
    if (spec.marker === "rates") {
      marks += '<line id="bm-mk-rates" class="now" y1="' + Y(0) + '" y2="' + Y(1) + '"/>';
    }
    return '<figure class="chart"><svg id="bm-chart-' + spec.id + '" viewBox="0 0 ' + W + " " + H +
      '" role="img" aria-label="' + esc(spec.title) + '">' +
      frame(spec.id, spec.title, spec.x, spec.y, spec.xlabel, spec.ylabel) +
      '<g clip-path="url(#bm-clip-' + spec.id + ')">' + body + "</g>" + marks + "</svg></figure>";
  }

  /* --- any confusion measure against the threshold (its values at the slider positions) --- */
  var rates = D.charts.filter(function (c) { return c.id === "rates"; })[0];
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
      body += polyline(D.grid.x, ys, "line m" + (i % 8), "");
      marks += '<circle id="bm-mk-measure-' + i + '" class="marker m' + (i % 8) + '" r="4.5"/>';
    });
    measureBox.innerHTML = '<svg id="bm-chart-measure" viewBox="0 0 ' + W + " " + H + '" role="img" aria-label="' +
      esc(D.names[id]) + ' against the threshold">' +
      frame("measure", D.names[id] + " against the threshold", rates.x, mRange, "threshold", id) +
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
        el.title = v === null ? "undefined at this threshold" : "";
        var ci = el.parentNode.querySelector(".ci");
        if (ci) ci.hidden = j !== M.own;
      });
      ["roc", "pr", "gain", "lift"].forEach(function (c) {
        place($("bm-mk-" + c + "-" + i), M.markers[c][0][j], M.markers[c][1][j]);
      });
      if (select) {
        var v = num(M.values[select.value][j]);
        place($("bm-mk-measure-" + i), D.grid.x[j],
              v === null || !isFinite(v) ? null : (v - mRange[0]) / (mRange[1] - mRange[0]));
      }
    });
    vline($("bm-mk-rates"), D.grid.x[j]);
    vline($("bm-mk-mline"), D.grid.x[j]);
  }

  var grid = $("bm-chart-grid");
  grid.innerHTML = D.charts.map(chart).join("");
  $("bm-legend").innerHTML = D.models.map(function (M, i) {
    return '<span class="key m' + (i % 8) + '"><i></i>' + esc(M.name) + "</span>";
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
