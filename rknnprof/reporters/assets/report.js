// rknnprof report: sortable/filterable layer tables, chart -> table links. No network, no deps.
(function () {
  "use strict";
  window.addEventListener("error", function (e) {
    document.body.setAttribute("data-js-error", String(e.message || e));
  });
  function cellValue(td) {
    var v = td.getAttribute("data-v");
    if (v !== null) { return v === "" ? -Infinity : parseFloat(v); }
    return td.textContent.toLowerCase();
  }
  document.querySelectorAll("table.layers").forEach(function (table) {
    var tbody = table.tBodies[0];
    table.querySelectorAll("th").forEach(function (th, col) {
      th.addEventListener("click", function () {
        var desc = th.getAttribute("aria-sort") !== "descending";
        table.querySelectorAll("th").forEach(function (h) { h.removeAttribute("aria-sort"); });
        th.setAttribute("aria-sort", desc ? "descending" : "ascending");
        var rows = Array.prototype.slice.call(tbody.rows);
        rows.sort(function (a, b) {
          var x = cellValue(a.cells[col]), y = cellValue(b.cells[col]);
          var r = x < y ? -1 : x > y ? 1 : 0;
          return desc ? -r : r;
        });
        rows.forEach(function (r) { tbody.appendChild(r); });
      });
    });
    var input = document.getElementById(table.getAttribute("data-filter"));
    var count = document.getElementById(table.getAttribute("data-count"));
    if (input) {
      input.addEventListener("input", function () {
        var q = input.value.trim().toLowerCase(), shown = 0;
        Array.prototype.forEach.call(tbody.rows, function (r) {
          var ok = !q || r.textContent.toLowerCase().indexOf(q) >= 0;
          r.hidden = !ok;
          if (ok) { shown += 1; }
        });
        if (count) { count.textContent = shown + " of " + tbody.rows.length + " layers"; }
      });
    }
  });
  document.querySelectorAll("[data-row]").forEach(function (el) {
    el.addEventListener("click", function () {
      var row = document.getElementById(el.getAttribute("data-row"));
      if (!row) { return; }
      document.querySelectorAll("tr.hit").forEach(function (r) { r.classList.remove("hit"); });
      row.hidden = false;
      row.classList.add("hit");
      row.scrollIntoView({ block: "center" });
    });
  });
  document.body.setAttribute("data-ready", "1");
})();
