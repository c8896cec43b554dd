/* Live public pages (issue #18), both games: the part of a page in #live (a bridge session's standings or
   frequency sheets, an ulti event's standings or round) whose results the director has not published yet
   is asked for again every few seconds (data-live-url) with the ETag of the copy shown; the server answers
   304 while nothing has changed (results.live.polled), and the fragment when it has, which replaces the old
   one in place. Polling pauses while the page is hidden and stops once the fragment holds a
   [data-live-final] mark (published). No dependencies. */
(function () {
  "use strict";
  var box = document.getElementById("live");
  if (!box || !box.dataset.liveUrl || !window.fetch) return;
  var etag = box.dataset.liveEtag || "";
  var seconds = Math.max(1, parseInt(box.dataset.liveSeconds, 10) || 5);
  var timer = null;
  var busy = false;

  function finished() { return !!box.querySelector("[data-live-final]"); }
  function schedule() {
    if (timer) clearTimeout(timer);
    if (!finished()) timer = setTimeout(poll, seconds * 1000);
  }
  function poll() {
    timer = null;
    if (busy) return;
    if (document.hidden) { schedule(); return; }
    busy = true;
    var headers = {"X-Requested-With": "fetch"};
    if (etag) headers["If-None-Match"] = etag;
    fetch(box.dataset.liveUrl, {credentials: "same-origin", cache: "no-store", headers: headers})
      .then(function (response) {
        if (response.status === 200) {
          var tag = response.headers.get("ETag");
          return response.text().then(function (html) {
            box.innerHTML = html;
            etag = tag || "";
            box.dataset.liveEtag = etag;
            box.dispatchEvent(new CustomEvent("live:updated"));
          });
        }
        return null;  // 304: unchanged; anything else: try again later
      })
      .catch(function () { /* no network: try again later */ })
      .then(function () { busy = false; schedule(); });
  }
  document.addEventListener("visibilitychange", function () { if (!document.hidden && !timer) poll(); });
  schedule();
})();
