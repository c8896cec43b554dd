// The round clock (issue #18), shared by the games (bridge: VSz 31; ulti: the rule set minimum): counts down the server's "seconds left" of every .round-clock on the page.
// The server computed the time left; the phone's own clock is only used to measure the seconds since.
(function () {
  "use strict";
  var clocks = document.querySelectorAll(".round-clock[data-seconds-left]");
  if (!clocks.length) return;
  var loaded = Date.now();
  function shown(seconds) {
    var left = Math.abs(seconds);
    var secs = left % 60;
    return (seconds < 0 ? "\u2212" : "") + Math.floor(left / 60) + ":" + (secs < 10 ? "0" : "") + secs;
  }
  function tick() {
    var passed = Math.floor((Date.now() - loaded) / 1000);
    clocks.forEach(function (clock) {
      var left = parseInt(clock.getAttribute("data-seconds-left"), 10) - passed;
      var out = clock.querySelector(".round-clock-left");
      if (out) out.textContent = shown(left);
      if (left <= 0) {
        clock.classList.remove("alert-secondary");
        clock.classList.add("alert-danger");
        var over = clock.querySelector(".round-clock-over");
        if (over) over.classList.remove("d-none");
      }
    });
  }
  window.setInterval(tick, 1000);
})();
