// The run page's node-pair heat maps: each div's plotly spec is in the JSON script beside it
// (the page's Content Security Policy allows scripts from this site only, none inline).
document.addEventListener('DOMContentLoaded', () => {
  for (const div of document.querySelectorAll('.heatmap')) {
    const spec = JSON.parse(document.getElementById(div.id + '-spec').textContent);
    Plotly.newPlot(div, spec.data, spec.layout, {responsive: true, displaylogo: false});
  }
});
