// The failure browser's filters. Without script the filter form stays
// hidden and every failure is listed; with it, choosing a task, an outcome
// or an API hides the failures that do not match.
(function () {
  "use strict";
  var form = document.getElementById("filters");
  if (!form) {
    return;
  }
  var rows = document.querySelectorAll("#failure-list .failure");
  var shown = document.getElementById("shown");
  function apply() {
    var task = form.elements.task.value;
    var outcome = form.elements.outcome.value;
    var api = form.elements.api.value;
    var n = 0;
    for (var i = 0; i < rows.length; i++) {
      var r = rows[i];
      var ok = (!task || r.dataset.task === task) &&
        (!outcome || r.dataset.outcome === outcome) &&
        (!api || (" " + r.dataset.apis + " ").indexOf(" " + api + " ") >= 0);
      r.hidden = !ok;
      if (ok) {
        n++;
      }
    }
    shown.textContent = String(n);
  }
  form.addEventListener("change", apply);
  form.addEventListener("submit", function (e) { e.preventDefault(); });
  form.hidden = false;
  apply();
})();
