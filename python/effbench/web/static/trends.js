// History plots (dashboard, a run's series): each div's plotly spec is in the JSON script beside
// it (the Content Security Policy allows scripts from this site only, none inline).
document.addEventListener('DOMContentLoaded', () => {
  for (const div of document.querySelectorAll('.trend-plot')) {
    const spec = JSON.parse(document.getElementById(div.id + '-spec').textContent);
    Plotly.newPlot(div, spec.data, spec.layout, {responsive: true, displaylogo: false})
      .then(() => { div.dataset.ready = '1'; });
  }
});
