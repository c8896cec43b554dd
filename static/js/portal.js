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

  // Destructive forms carry data-confirm="question": ask before sending. A form confirmed here sends
  // confirmed=1; without this script the server answers the first POST with a confirmation page instead.
  document.addEventListener("submit", function (event) {
    var form = event.target;
    if (!form.matches || !form.matches("form[data-confirm]")) {
      return;
    }
    if (!window.confirm(form.getAttribute("data-confirm"))) {
      event.preventDefault();
      return;
    }
    if (!form.querySelector("input[name=confirmed]")) {
      var input = document.createElement("input");
      input.type = "hidden";
      input.name = "confirmed";
      input.value = "1";
      form.appendChild(input);
    }
  });
})();
