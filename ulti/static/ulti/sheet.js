// Score sheet: show only the parts of each deal's bid, and ask the server for the running totals as the
// director types. The server settles every deal (ulti.engine.scoring.settle); this file only displays.
(function () {
  "use strict";
  var form = document.getElementById("sheet-form");
  if (!form) return;
  var slots = JSON.parse(document.getElementById("bid-slots").textContent);
  var status = document.getElementById("sheet-status");
  var timer = null;
  var pending = null;

  function signed(n) {
    return (n > 0 ? "+" : "") + n.toLocaleString("hu-HU");
  }

  function showParts(deal) {
    var bid = deal.querySelector("select.bid").value;
    var wanted = slots[bid] || [];
    deal.querySelectorAll("tr[data-slot]").forEach(function (row) {
      row.hidden = bid !== "" && wanted.indexOf(row.dataset.slot) < 0;
    });
    // Only a defender doubles: the declarer's kontra boxes are disabled.
    var declarer = deal.querySelector("select[name$='_declarer']").value;
    deal.querySelectorAll("select[name*='_k']").forEach(function (box) {
      var seat = box.name.slice(-1);
      box.disabled = declarer !== "" && seat === declarer;
    });
  }

  function render(data) {
    var seen = {};
    (data.deals || []).forEach(function (d) {
      seen[d.number] = true;
      var box = form.querySelector("[data-deal='" + d.number + "']");
      if (!box) return;
      box.classList.toggle("has-error", !!d.error);
      box.querySelector("[data-error]").textContent = d.error || "";
      var running = box.querySelector("[data-running]");
      running.textContent = d.error ? "" : Object.keys(d.forints).map(function (k) {
        return signed(d.forints[k]) + " (" + signed(d.running[k]) + ")";
      }).join(" · ");
    });
    form.querySelectorAll("[data-deal]").forEach(function (box) {
      if (!seen[box.dataset.deal]) {
        box.classList.remove("has-error");
        box.querySelector("[data-error]").textContent = "";
        box.querySelector("[data-running]").textContent = "";
      }
    });
    Object.keys(data.totals || {}).forEach(function (k) {
      var cell = document.querySelector("[data-total='" + k + "']");
      if (cell) cell.textContent = signed(data.totals[k]);
    });
    document.getElementById("deal-count").textContent = data.count || 0;
    status.textContent = data.complete ? status.dataset.complete || "✓" : "";
  }

  function preview() {
    if (pending) pending.abort();
    pending = new AbortController();
    fetch(form.dataset.preview, {
      method: "POST",
      body: new FormData(form),
      headers: { "X-Requested-With": "XMLHttpRequest" },
      credentials: "same-origin",
      signal: pending.signal,
    })
      .then(function (r) { return r.json(); })
      .then(render)
      .catch(function () { /* a newer request replaced this one, or the network is down: keep typing */ });
  }

  form.addEventListener("change", function (event) {
    var deal = event.target.closest("[data-deal]");
    if (deal) showParts(deal);
    clearTimeout(timer);
    timer = setTimeout(preview, 250);
  });
  form.querySelectorAll("[data-deal]").forEach(showParts);
  preview();
})();
