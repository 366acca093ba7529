// The comparison plot: data from /api/plot (never from inline script), log axes, zoom, SVG/PNG
// export, and a URL that reproduces the plot with its zoom (x0, x1, y0, y1 in data units).
(function () {
  "use strict";
  var el = document.getElementById("plot");
  if (!el) return;
  var status = document.getElementById("plot-status");
  var params = new URLSearchParams(window.location.search);

  function axisType(log) { return log ? "log" : "linear"; }
  function toAxis(v, log) { return log ? Math.log10(v) : v; }
  function fromAxis(v, log) { return log ? Math.pow(10, v) : v; }

  function setPermalink() {
    var link = document.getElementById("permalink");
    link.href = window.location.pathname + "?" + params.toString();
  }

  function draw(data) {
    var xlog = el.dataset.xlog === "1", ylog = el.dataset.ylog === "1";
    var layout = {
      xaxis: { title: { text: data.xtitle }, type: axisType(xlog), exponentformat: "power" },
      yaxis: { title: { text: data.ytitle }, type: axisType(ylog), exponentformat: "power" },
      showlegend: true,
      legend: { orientation: "h", y: -0.2 },
      margin: { t: 30 },
      hovermode: "closest",
      updatemenus: [{
        type: "buttons", direction: "right", x: 0, y: 1.08, xanchor: "left",
        buttons: [
          { label: "log-log", method: "relayout", args: [{ "xaxis.type": "log", "yaxis.type": "log" }] },
          { label: "lin-log", method: "relayout", args: [{ "xaxis.type": "linear", "yaxis.type": "log" }] },
          { label: "linear", method: "relayout", args: [{ "xaxis.type": "linear", "yaxis.type": "linear" }] }
        ]
      }]
    };
    if (params.has("x0") && params.has("x1")) {
      layout.xaxis.range = [toAxis(+params.get("x0"), xlog), toAxis(+params.get("x1"), xlog)];
    }
    if (params.has("y0") && params.has("y1")) {
      layout.yaxis.range = [toAxis(+params.get("y0"), ylog), toAxis(+params.get("y1"), ylog)];
    }
    var config = { responsive: true, displaylogo: false,
                   toImageButtonOptions: { format: "svg", filename: "effbench-plot" } };
    Plotly.newPlot(el, data.traces, layout, config).then(function () {
      var text = data.points + " points in " + data.traces.length + " curves";
      if (data.skipped) text += "; " + data.skipped + " rows without " + data.x + " or " + data.y;
      if (data.nonpositive_x && el.layout.xaxis.type === "log")
        text += "; " + data.nonpositive_x + " points at " + data.x + " 0 are not on the log axis";
      status.textContent = text;
      el.dataset.ready = "1";
      el.dataset.points = String(data.points);
      el.dataset.traces = String(data.traces.length);
    });
    el.on("plotly_relayout", function (ev) {
      var xl = el.layout.xaxis.type === "log", yl = el.layout.yaxis.type === "log";
      params.set("xlog", xl ? "1" : "0");
      params.set("ylog", yl ? "1" : "0");
      ["x", "y"].forEach(function (a) {
        var log = a === "x" ? xl : yl;
        if (ev[a + "axis.autorange"] || ev[a + "axis.type"]) {
          params.delete(a + "0"); params.delete(a + "1");
        } else if (ev[a + "axis.range[0]"] !== undefined) {
          params.set(a + "0", String(fromAxis(ev[a + "axis.range[0]"], log)));
          params.set(a + "1", String(fromAxis(ev[a + "axis.range[1]"], log)));
        } else if (ev[a + "axis.range"]) {
          params.set(a + "0", String(fromAxis(ev[a + "axis.range"][0], log)));
          params.set(a + "1", String(fromAxis(ev[a + "axis.range"][1], log)));
        }
      });
      window.history.replaceState(null, "", window.location.pathname + "?" + params.toString());
      setPermalink();
      el.dataset.zoomed = params.has("x0") || params.has("y0") ? "1" : "0";
    });
  }

  setPermalink();
  document.getElementById("download-svg").addEventListener("click", function () {
    Plotly.downloadImage(el, { format: "svg", filename: "effbench-plot", width: 1200, height: 700 });
  });
  document.getElementById("download-png").addEventListener("click", function () {
    Plotly.downloadImage(el, { format: "png", filename: "effbench-plot", width: 1200, height: 700 });
  });
  fetch(el.dataset.src, { headers: { Accept: "application/json" } })
    .then(function (r) {
      return r.json().then(function (body) {
        if (!r.ok) throw new Error(body.error || r.statusText);
        return body;
      });
    })
    .then(draw)
    .catch(function (err) { status.textContent = "error: " + err.message; el.dataset.error = "1"; });
})();
