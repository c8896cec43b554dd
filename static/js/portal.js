// Small behaviours shared by all pages, bound here because the Content-Security-Policy forbids inline handlers.
(function () {
  "use strict";
  document.addEventListener("click", function (event) {
    // A destructive button asks first: data-confirm holds the (translated) question; with data-confirm-if
    // (a selector) it asks only when its form has a matching element (e.g. a checked "set aside").
    var asking = event.target.closest("[data-confirm]");
    var only = asking && asking.getAttribute("data-confirm-if");
    var needed = asking && (!only || (asking.form && asking.form.querySelector(only)));
    if (needed && !window.confirm(asking.getAttribute("data-confirm"))) {
      event.preventDefault();
      return;
    }
    var button = event.target.closest("[data-print]");
    if (button) {
      event.preventDefault();
      window.print();
    }
  });
})();
