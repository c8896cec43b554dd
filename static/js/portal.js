// Small behaviours shared by all pages, bound here because the Content-Security-Policy forbids inline handlers.
(function () {
  "use strict";
  document.addEventListener("click", function (event) {
    var button = event.target.closest("[data-print]");
    if (button) {
      event.preventDefault();
      window.print();
    }
  });
})();
