/* Ulti table entry on a phone (issue #18): the deal picker (declarer, bid, won / lost per part, kontras,
   silent achievements, revoke in a few taps) and the offline queue. Every entry carries an idempotency key
   and the entry it builds on; without a network it waits in localStorage and is sent again, with the same
   key, when the network is back (a resend never doubles a deal). Deals queued offline build on each other
   by key ("k:<key>"). The words come from the page (ulti-table-data): no text of its own. No dependencies. */
(function () {
  "use strict";
  var root = document.getElementById("ulti-table");
  if (!root) return;
  var data = JSON.parse(document.getElementById("ulti-table-data").textContent);
  var words = data.words;
  var store = "ulti-table:" + root.dataset.code;
  var flash = "ulti-table-flash:" + root.dataset.code;
  var statusBox = document.getElementById("ulti-table-status");
  var csrf = (root.querySelector("input[name=csrfmiddlewaretoken]") || {}).value || "";
  var postUrl = root.dataset.postUrl;
  var bids = {};
  data.bids.forEach(function (b) { bids[b.name] = b; });
  var seats = data.seats;
  var head = data.head === null ? "" : String(data.head);
  var count = data.deals.length;

  function newKey() {
    var bytes = new Uint8Array(12);
    if (window.crypto && window.crypto.getRandomValues) window.crypto.getRandomValues(bytes);
    else for (var i = 0; i < 12; i++) bytes[i] = Math.floor(Math.random() * 256);
    return Array.prototype.map.call(bytes, function (b) { return ("0" + b.toString(16)).slice(-2); }).join("");
  }
  function queue() {
    try { return JSON.parse(localStorage.getItem(store) || "[]"); } catch (e) { return []; }
  }
  function save(items) {
    try { localStorage.setItem(store, JSON.stringify(items)); } catch (e) { /* private mode */ }
  }
  function say(text, kind) {
    statusBox.textContent = text;
    statusBox.className = "alert alert-" + (kind || "warning");
  }
  function reloadWith(text, kind) {
    try { sessionStorage.setItem(flash, JSON.stringify([text, kind])); } catch (e) { /* ignore */ }
    window.location.reload();
  }
  function post(item) {
    return fetch(item.url, {
      method: "POST",
      credentials: "same-origin",
      headers: {"Accept": "application/json", "Content-Type": "application/x-www-form-urlencoded",
                "X-CSRFToken": item.csrf},
      body: item.body
    }).then(function (response) {
      if (response.status >= 500) throw new Error("server " + response.status);
      return response.json();
    });
  }
  function failed(answer) {
    return answer.status !== "ok" && answer.status !== "repeated";
  }

  // --- the queue --------------------------------------------------------------------------------------
  var flushing = false;
  function flush() {
    if (flushing || !queue().length) return;
    flushing = true;
    var problems = [];
    (function next() {
      var items = queue();
      if (!items.length) {
        flushing = false;
        if (problems.length) reloadWith(problems.join(" "), "danger");
        else reloadWith(words.sent, "success");
        return;
      }
      post(items[0]).then(function (answer) {
        if (answer.status === "throttled") { flushing = false; say(answer.messages.join(" ")); return; }
        save(queue().slice(1));  // answered (kept, repeated, refused or a conflict): never sent again
        if (failed(answer)) problems = problems.concat(answer.messages || []);
        next();
      }, function () { flushing = false; say(words.offline); });
    })();
  }
  function send(fields, onQueued) {
    fields.csrfmiddlewaretoken = csrf;
    var body = new URLSearchParams(fields).toString();
    var item = {url: postUrl, body: body, csrf: csrf, key: fields.key};
    if (queue().length) {  // keep the order: behind what is waiting already
      save(queue().concat([item]));
      if (onQueued) onQueued(item);
      say(words.offline);
      flush();
      return;
    }
    post(item).then(function (answer) {
      if (!failed(answer)) { window.location.reload(); return; }
      if (answer.status === "conflict") { reloadWith(answer.messages.join(" ") + " " + words.conflict_reload, "danger"); return; }
      say((answer.messages || []).join(" "), "danger");
    }, function () {
      save(queue().concat([item]));
      if (onQueued) onQueued(item);
      say(words.offline);
    });
  }

  // --- the confirmation forms -------------------------------------------------------------------------
  root.addEventListener("submit", function (event) {
    var form = event.target;
    if (!form.classList.contains("ulti-entry-form")) return;
    event.preventDefault();
    var fields = {};
    new FormData(form).forEach(function (value, name) { fields[name] = value; });
    var submitter = event.submitter || form.lastClicked;
    if (submitter && submitter.name) fields[submitter.name] = submitter.value;
    fields.key = newKey();
    form.querySelectorAll("button").forEach(function (b) { b.disabled = true; });
    send(fields);
  });
  root.addEventListener("click", function (event) {
    var button = event.target.closest("button");
    if (button && button.form) button.form.lastClicked = button;
  });

  // --- the deal picker --------------------------------------------------------------------------------
  var picker = document.getElementById("deal-picker");
  var body = document.getElementById("deal-body");
  var title = document.getElementById("deal-title");
  var deal;
  function fresh(number) {
    var old = null;
    data.deals.forEach(function (d) { if (d.number === number) old = d.record; });
    deal = {number: number, correcting: !!old, declarer: old ? old.declarer : "", bid: old ? old.bid : "",
            results: old ? Object.assign({}, old.results) : {}, kontra: old ? JSON.parse(JSON.stringify(old.kontra || {})) : {},
            silent: old ? Object.assign({}, old.silent || {}) : {}, revoke: old ? old.revoke : null,
            impossible_doubled: old ? !!old.impossible_doubled : false};
  }
  function el(tag, attrs, text) {
    var node = document.createElement(tag);
    Object.keys(attrs || {}).forEach(function (k) { node.setAttribute(k, attrs[k]); });
    if (text !== undefined) node.textContent = text;
    return node;
  }
  function chip(text, pressed, onTap, extra) {
    var b = el("button", {type: "button", "class": "btn btn-sm " + (pressed ? "btn-success" : "btn-outline-secondary") + " " + (extra || ""),
                          "aria-pressed": pressed ? "true" : "false"}, text);
    b.addEventListener("click", function () { onTap(); render(); });
    return b;
  }
  function row(label, children) {
    var box = el("div", {"class": "mb-2"});
    box.appendChild(el("div", {"class": "small text-muted mb-1"}, label));
    var line = el("div", {"class": "d-flex flex-wrap gap-1"});
    children.forEach(function (c) { line.appendChild(c); });
    box.appendChild(line);
    return box;
  }
  function slotsOf() { return deal.bid && bids[deal.bid] ? bids[deal.bid].slots : []; }
  function silentOf() { return deal.bid && bids[deal.bid] ? bids[deal.bid].silent : []; }
  // The page says which bids are suited: there a kontra binds both defenders, one kontra per part.
  function bothBound() { return !!(deal.bid && bids[deal.bid] && bids[deal.bid].kontra_binds_both); }
  // A suited part's one kontra as the server keeps it: the highest level, from the first defender in seat
  // order who reached it (a deal stored with two, or one said by the seat now tapped as declarer).
  function partKontra(slot, defenders) {
    var levels = deal.kontra[slot] || {};
    var top = 0;
    Object.keys(levels).forEach(function (k) { top = Math.max(top, levels[k] || 0); });
    var by = defenders.filter(function (s) { return top && levels[s.key] === top; })[0] || defenders[0];
    return {key: by ? by.key : "", level: top};
  }
  function render() {
    if (!picker) return;
    var fmt = words.deal.replace("%(n)s", deal.number);
    title.textContent = fmt + (deal.correcting ? " · " + words.correcting : "");
    body.textContent = "";
    body.appendChild(row(words.declarer, seats.map(function (s) {
      return chip(s.position + ". " + s.name, deal.declarer === s.key, function () { deal.declarer = s.key; }, "seat-chip");
    })));
    var quick = data.quick.map(function (name) {
      return chip(bids[name].label, deal.bid === name, function () { deal.bid = name; deal.results = {}; deal.kontra = {}; }, "bid-chip");
    });
    var select = el("select", {"class": "form-select form-select-sm w-auto", "aria-label": words.other_bid});
    select.appendChild(el("option", {value: ""}, words.other_bid));
    data.bids.forEach(function (b) {
      var o = el("option", {value: b.name}, b.label);
      if (b.name === deal.bid && data.quick.indexOf(b.name) < 0) o.selected = true;
      select.appendChild(o);
    });
    select.addEventListener("change", function () { if (select.value) { deal.bid = select.value; deal.results = {}; deal.kontra = {}; render(); } });
    quick.push(select);
    body.appendChild(row(words.bid, quick));
    var slots = slotsOf();
    if (slots.length) {
      body.appendChild(row("", slots.map(function (slot) {
        var outcome = deal.results[slot] || "won";
        var cycle = (slot === "hundred" || slot === "ulti") ? ["won", "lost", "impossible"] : ["won", "lost"];
        var b = chip(words.slots[slot] + ": " + words.outcomes[outcome], outcome === "won", function () {
          deal.results[slot] = cycle[(cycle.indexOf(outcome) + 1) % cycle.length];
        }, "outcome-chip");
        b.dataset.slot = slot;
        if (outcome !== "won") b.className = "btn btn-sm btn-danger outcome-chip";
        return b;
      })));
    }
    var details = el("details", {"class": "mb-2"});
    if (Object.keys(deal.kontra).length || Object.keys(deal.silent).length || deal.revoke) details.open = true;
    details.appendChild(el("summary", {"class": "small"}, words.extras));
    var defenders = seats.filter(function (s) { return s.key !== deal.declarer; });
    if (deal.declarer && slots.length) {
      details.appendChild(el("p", {"class": "form-text mt-0 mb-1", id: "picker-kontra-rule"},
                             bothBound() ? words.kontra_rules.both : words.kontra_rules.own));
    }
    if (deal.declarer) slots.forEach(function (slot) {
      var line;
      if (bothBound()) {
        // One kontra for the part (I.3 (3)): its level, then who said it (the first defender unless tapped).
        var said = partKontra(slot, defenders);
        var chips = [chip(words.kontra[said.level], said.level > 0, function () {
          var level = (said.level + 1) % 3;
          deal.kontra[slot] = {};
          if (level) deal.kontra[slot][said.key] = level;
        }, "kontra-chip")];
        if (said.level) defenders.forEach(function (s) {
          var by = chip(s.position + ". " + s.name, s.key === said.key, function () {
            deal.kontra[slot] = {};
            deal.kontra[slot][s.key] = said.level;
          }, "kontra-by-chip");
          by.dataset.slot = slot;
          chips.push(by);
        });
        line = row(words.slots[slot], chips);
      } else {
        line = row(words.slots[slot], defenders.map(function (s) {
          var level = (deal.kontra[slot] || {})[s.key] || 0;
          var b = chip(s.position + ". " + words.kontra[level], level > 0, function () {
            deal.kontra[slot] = deal.kontra[slot] || {};
            deal.kontra[slot][s.key] = (level + 1) % 3;
          }, "kontra-chip");
          b.dataset.seat = s.key;
          return b;
        }));
      }
      line.classList.add("picker-kontra");
      line.dataset.slot = slot;
      line.querySelectorAll(".kontra-chip").forEach(function (b) { b.dataset.slot = slot; });
      details.appendChild(line);
    });
    // Only the silent games the bid leaves open (none in a no-trump game, none it bids already).
    silentOf().forEach(function (game) {
      var s = el("select", {"class": "form-select form-select-sm", "aria-label": words.silent[game]});
      s.appendChild(el("option", {value: ""}, words.silent[game] + ": –"));
      words.silent_options[game].forEach(function (choice) {
        var o = el("option", {value: choice}, words.silent[game] + ": " + words.silent_choices[choice]);
        if (deal.silent[game] === choice) o.selected = true;
        s.appendChild(o);
      });
      s.addEventListener("change", function () { if (s.value) deal.silent[game] = s.value; else delete deal.silent[game]; });
      details.appendChild(s);
    });
    if (slots.some(function (slot) { return deal.results[slot] === "impossible"; })) {
      // I.4 (5): an impossible part doubled in the first round pays as failed with its kontra.
      var box = el("div", {"class": "form-check mt-1"});
      var tick = el("input", {type: "checkbox", "class": "form-check-input", id: "picker-impdbl"});
      tick.checked = deal.impossible_doubled;
      tick.addEventListener("change", function () { deal.impossible_doubled = tick.checked; });
      box.appendChild(tick);
      box.appendChild(el("label", {"class": "form-check-label small", "for": "picker-impdbl"}, words.impossible_doubled));
      details.appendChild(box);
    }
    var rv = el("select", {"class": "form-select form-select-sm mt-1", "aria-label": words.revoke});
    rv.appendChild(el("option", {value: ""}, words.revoke + ": " + words.nobody));
    seats.forEach(function (s) {
      data.revoke_times.forEach(function (time) {
        var o = el("option", {value: s.key + "|" + time.value}, words.revoke + ": " + s.position + ". " + s.name + ", " + time.label);
        if (deal.revoke && deal.revoke.player === s.key && deal.revoke.phase === time.phase &&
            (deal.revoke.offence || "") === time.offence) o.selected = true;
        rv.appendChild(o);
      });
    });
    rv.addEventListener("change", function () {
      var parts = rv.value.split("|");
      var time = data.revoke_times.filter(function (t) { return t.value === parts[1]; })[0];
      deal.revoke = rv.value && time ? {player: parts[0], phase: time.phase, offence: time.offence} : null;
    });
    details.appendChild(rv);
    body.appendChild(details);
    var go = el("button", {type: "button", "class": "btn btn-success btn-lg w-100", id: "deal-save"}, words.save);
    go.disabled = !deal.declarer || !deal.bid;
    go.addEventListener("click", submitDeal);
    body.appendChild(go);
    if (deal.correcting && count < data.required) {
      var back = el("button", {type: "button", "class": "btn btn-link btn-sm mt-1"}, words.new_deal);
      back.addEventListener("click", function () { fresh(count + 1); render(); });
      body.appendChild(back);
    }
  }
  function submitDeal() {
    var slots = slotsOf();
    var results = {};
    slots.forEach(function (slot) { results[slot] = deal.results[slot] || "won"; });
    var kontra = {};
    var defenders = seats.filter(function (s) { return s.key !== deal.declarer; });
    Object.keys(deal.kontra).forEach(function (slot) {
      if (slots.indexOf(slot) < 0) return;
      if (bothBound()) {
        var said = partKontra(slot, defenders);
        if (said.level) { kontra[slot] = {}; kontra[slot][said.key] = said.level; }
      } else {  // a kontra of the seat since tapped as declarer is not shown, so not sent
        kontra[slot] = {};
        defenders.forEach(function (s) { if (deal.kontra[slot][s.key]) kontra[slot][s.key] = deal.kontra[slot][s.key]; });
      }
    });
    var silent = {};  // a silent game chosen beside an earlier bid and not offered beside this one: dropped
    silentOf().forEach(function (game) { if (deal.silent[game]) silent[game] = deal.silent[game]; });
    var record = {declarer: deal.declarer, bid: deal.bid, results: results, kontra: kontra,
                  silent: silent, revoke: deal.revoke, impossible_doubled: deal.impossible_doubled};
    var key = newKey();
    var number = deal.number;
    var fields = {key: key, kind: "deal", number: String(number), based_on: head, record: JSON.stringify(record)};
    document.getElementById("deal-save").disabled = true;
    send(fields, function () {
      // Queued on the phone: shown as waiting, and the next deal builds on it.
      var table = document.querySelector("#ulti-sheet tbody");
      var tr = el("tr", {"class": "table-warning queued", "data-number": String(number)});
      tr.appendChild(el("td", {}, number + "."));
      tr.appendChild(el("td", {colspan: String(seats.length + 1)}, bids[deal.bid].label + " · " + words.queued));
      table.appendChild(tr);
      head = "k:" + key;
      if (!deal.correcting) count += 1;
      if (count < data.required) { fresh(count + 1); render(); } else { picker.hidden = true; }
    });
  }
  if (picker) {
    // The address may ask for a deal to correct (the plain page's links: ?deal=n).
    var asked = parseInt(new URLSearchParams(window.location.search).get("deal") || "", 10);
    fresh(asked >= 1 && asked <= Math.min(count + 1, data.required) ? asked : (count < data.required ? count + 1 : count));
    render();
    root.querySelectorAll(".deal-edit").forEach(function (b) {
      b.addEventListener("click", function (event) {
        event.preventDefault();
        fresh(parseInt(b.dataset.number, 10));
        picker.hidden = false;
        render();
        picker.scrollIntoView();
      });
    });
    var correct = document.getElementById("deal-correct");
    if (correct) correct.addEventListener("click", function (event) { event.preventDefault(); fresh(count); picker.hidden = false; render(); picker.scrollIntoView(); });
  }

  try {
    var shown = JSON.parse(sessionStorage.getItem(flash) || "null");
    sessionStorage.removeItem(flash);
    if (shown) say(shown[0], shown[1]);
  } catch (e) { /* ignore */ }
  window.addEventListener("online", flush);
  if (queue().length) { say(words.offline); flush(); }
  setInterval(flush, 15000);
})();
