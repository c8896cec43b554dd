/* Table entry phone page (issue #18): entries sent with fetch; without a network they wait in localStorage
   and are sent again, with the same idempotency key, when the network is back (a resend never doubles an
   entry: the server answers a key it has seen with what it answered then). No dependencies. */
(function () {
  "use strict";
  var root = document.getElementById("table-entry");
  if (!root) return;
  var store = "table-entry:" + root.dataset.code;
  var statusBox = document.getElementById("table-entry-status");

  function queue() {
    try { return JSON.parse(localStorage.getItem(store) || "[]"); } catch (e) { return []; }
  }
  function save(items) {
    try { localStorage.setItem(store, JSON.stringify(items)); } catch (e) { /* private mode: kept in memory */ }
  }
  function say(text, kind) {
    statusBox.textContent = text;
    statusBox.className = "alert alert-" + (kind || "warning");
  }
  function post(item) {
    return fetch(item.url, {
      method: "POST",
      credentials: "same-origin",
      headers: {
        "Accept": "application/json",
        "Content-Type": "application/x-www-form-urlencoded",
        "X-CSRFToken": item.csrf
      },
      body: item.body
    }).then(function (response) {
      if (response.status >= 500) throw new Error("server " + response.status);
      return response.json().then(function (data) { data.http = response.status; return data; });
    });
  }
  function answered(data) {
    if (data.status === "ok" || data.status === "repeated") return true;
    say((data.messages || []).join(" "), data.status === "throttled" ? "warning" : "danger");
    return false;
  }
  var flushing = false;
  function flush() {
    var items = queue();
    if (flushing || !items.length) return;
    flushing = true;
    var sent = 0;
    (function next() {
      var items = queue();
      if (!items.length) {
        flushing = false;
        if (sent) { say(root.dataset.sent, "success"); window.location.reload(); }
        return;
      }
      post(items[0]).then(function (data) {
        if (data.status === "throttled") { flushing = false; answered(data); return; }
        save(queue().slice(1));  // answered (kept, repeated or refused): never sent again
        if (answered(data)) sent += 1;
        next();
      }, function () { flushing = false; say(root.dataset.offline); });
    })();
  }
  root.addEventListener("submit", function (event) {
    var form = event.target;
    if (!form.classList.contains("table-entry-form")) return;
    event.preventDefault();
    var data = new URLSearchParams(new FormData(form));
    var submitter = event.submitter || form.lastClicked;  // older phones have no event.submitter
    if (submitter && submitter.name) data.set(submitter.name, submitter.value);
    var item = {url: form.action, body: data.toString(), csrf: data.get("csrfmiddlewaretoken"), key: data.get("key")};
    var buttons = form.querySelectorAll("button");
    buttons.forEach(function (b) { b.disabled = true; });
    post(item).then(function (data) {
      if (answered(data)) { window.location.reload(); return; }
      buttons.forEach(function (b) { b.disabled = false; });
    }, function () {
      var items = queue();
      if (!items.some(function (i) { return i.key === item.key; })) items.push(item);
      save(items);
      say(root.dataset.offline);
    });
  });
  root.addEventListener("click", function (event) {
    var button = event.target.closest("button");
    if (button && button.form) button.form.lastClicked = button;
  });
  window.addEventListener("online", flush);
  if (queue().length) { say(root.dataset.offline); flush(); }
  setInterval(flush, 15000);
})();
