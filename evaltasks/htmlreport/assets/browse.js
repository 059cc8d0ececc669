// The failure browser's filters and links. Without script the filter form
// stays hidden and every failure is listed. With it, the task, outcome
// and API filters compose: the list shows the failures every filter
// selects, and each filter's options count the failures they would show
// with the other filters as they are (an option that would show none is
// disabled). The filters live in the page's query (?task=7&outcome=...),
// so a reload or a copied link shows the same selection; a link to
// #f-KEY opens that failure, clearing filters that hide it. The id is
// on an anchor inside the failure's body, so that without script the
// browser opens the <details> holding the fragment's target itself.
(function () {
  "use strict";
  var form = document.getElementById("filters");
  if (!form) {
    return;
  }
  var names = ["task", "outcome", "api"];
  var rows = Array.prototype.slice.call(document.querySelectorAll("#failure-list .failure"));
  var shown = document.getElementById("shown");

  function has(row, name, value) {
    if (!value) {
      return true;
    }
    if (name === "api") {
      return (" " + row.dataset.apis + " ").indexOf(" " + value + " ") >= 0;
    }
    return row.dataset[name] === value;
  }
  function chosen() {
    var c = {};
    names.forEach(function (n) { c[n] = form.elements[n].value; });
    return c;
  }
  // matches tells whether a row passes every filter but skip.
  function matches(row, c, skip) {
    return names.every(function (n) { return n === skip || has(row, n, c[n]); });
  }
  function apply() {
    var c = chosen();
    var n = 0;
    rows.forEach(function (r) {
      var ok = matches(r, c);
      r.hidden = !ok;
      if (ok) {
        n++;
      }
    });
    shown.textContent = String(n);
    names.forEach(function (name) {
      Array.prototype.forEach.call(form.elements[name].options, function (o) {
        if (o.dataset.label === undefined) {
          o.dataset.label = o.textContent;
        }
        var k = 0;
        rows.forEach(function (r) {
          if (matches(r, c, name) && has(r, name, o.value)) {
            k++;
          }
        });
        o.textContent = o.dataset.label + " (" + k + ")";
        // An option that would show nothing is left out of the list
        // (a task's outcomes are a few of all the tasks' outcomes).
        o.disabled = o.hidden = k === 0 && !o.selected && o.value !== "";
      });
    });
  }
  // save writes the filters into the page's query, keeping its fragment,
  // as a new history entry, so that Back undoes the last filter change.
  function save() {
    var q = new URLSearchParams(location.search);
    names.forEach(function (n) {
      var v = form.elements[n].value;
      if (v) {
        q.set(n, v);
      } else {
        q.delete(n);
      }
    });
    var s = q.toString();
    if ("?" + s === location.search || (!s && !location.search)) {
      return;
    }
    try {
      history.pushState(null, "", (s ? "?" + s : location.pathname) + location.hash);
    } catch (e) {
      // A browser refusing to change a file: URL keeps the page working.
    }
  }
  // restore reads the filters from the page's query; a value the page
  // has no option for is ignored.
  function restore() {
    var q = new URLSearchParams(location.search);
    names.forEach(function (n) {
      var sel = form.elements[n];
      sel.value = q.get(n) || "";
      if (sel.selectedIndex < 0) {
        sel.selectedIndex = 0;
      }
    });
  }
  function clear() {
    names.forEach(function (n) { form.elements[n].selectedIndex = 0; });
    apply();
    save();
  }
  // openLinked opens the failure the fragment names (#f-KEY).
  function openLinked() {
    var id = location.hash.slice(1);
    try {
      id = decodeURIComponent(id);
    } catch (e) {
      // Not percent-encoded: the id as it is.
    }
    if (id.indexOf("f-") !== 0) {
      return;
    }
    var anchor = document.getElementById(id);
    var el = anchor && anchor.closest(".failure");
    if (!el) {
      return;
    }
    if (el.hidden) {
      clear();
    }
    rows.forEach(function (r) { r.classList.remove("linked"); });
    el.classList.add("linked");
    el.open = true;
    el.scrollIntoView();
  }

  form.addEventListener("change", function () {
    apply();
    save();
  });
  form.addEventListener("submit", function (e) { e.preventDefault(); });
  document.getElementById("clear").addEventListener("click", clear);
  window.addEventListener("hashchange", openLinked);
  // Back and Forward move between filter selections.
  window.addEventListener("popstate", function () {
    restore();
    apply();
  });
  restore();
  form.hidden = false;
  document.getElementById("filters-note").hidden = false;
  apply();
  openLinked();
})();
