// Small behaviours shared by all pages, bound here because the Content-Security-Policy forbids inline handlers.
(function () {
  "use strict";
  document.addEventListener("click", function (event) {
    var link = event.target.closest("a[data-confirm]");
    if (link && !window.confirm(link.getAttribute("data-confirm"))) {
      event.preventDefault();
      return;
    }
    var button = event.target.closest("[data-print]");
    if (button) {
      event.preventDefault();
      window.print();
    }
  });

  // One confirmation for every destructive form. The question comes from the form's data-confirm, the
  // submit button's data-confirm (with data-confirm-if="selector" only when the form has a matching
  // element, e.g. a checked "set aside"), and any checked input's data-confirm (a "set aside" radio).
  // A button with data-no-confirm (abandon, cancel) never asks. A form[data-confirm] confirmed here
  // sends confirmed=1; without this script the server answers its first POST with a confirmation page.
  document.addEventListener("submit", function (event) {
    var form = event.target;
    var submitter = event.submitter;
    if (submitter && submitter.hasAttribute("data-no-confirm")) {
      return;
    }
    var questions = [];
    var add = function (question) {
      if (question && questions.indexOf(question) < 0) {
        questions.push(question);
      }
    };
    add(form.getAttribute("data-confirm"));
    if (submitter && submitter.getAttribute("data-confirm")) {
      var only = submitter.getAttribute("data-confirm-if");
      if (!only || form.querySelector(only)) {
        add(submitter.getAttribute("data-confirm"));
      }
    }
    form.querySelectorAll("input[data-confirm]:checked").forEach(function (input) {
      add(input.getAttribute("data-confirm"));
    });
    if (!questions.length) {
      return;
    }
    if (!window.confirm(questions.join("\n"))) {
      event.preventDefault();
      return;
    }
    if (form.hasAttribute("data-confirm") && !form.querySelector("input[name=confirmed]")) {
      var input = document.createElement("input");
      input.type = "hidden";
      input.name = "confirmed";
      input.value = "1";
      form.appendChild(input);
    }
  });
  // A frame that scrolls sideways (a wide table on a phone, a chart) must be reachable by keyboard to be
  // scrolled (WCAG 2.1.1; axe-core's scrollable-region-focusable): such a frame joins the tab order.
  function focusableFrames() {
    document.querySelectorAll(".table-responsive, .overflow-auto").forEach(function (frame) {
      var scrolls = frame.scrollWidth > frame.clientWidth || frame.scrollHeight > frame.clientHeight;
      if (scrolls && !frame.hasAttribute("tabindex")) {
        frame.setAttribute("tabindex", "0");
        frame.setAttribute("data-scroll-frame", "");
      } else if (!scrolls && frame.hasAttribute("data-scroll-frame")) {
        frame.removeAttribute("tabindex");
        frame.removeAttribute("data-scroll-frame");
      }
    });
  }
  focusableFrames();
  window.addEventListener("resize", focusableFrames);
})();
