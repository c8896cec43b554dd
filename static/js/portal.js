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
  // A destructive choice asks first: the submit button's data-confirm, or that of a checked input of the
  // form (a "set aside" radio); a button with data-no-confirm (abandon, cancel) never asks.
  document.addEventListener("submit", function (event) {
    var submitter = event.submitter;
    if (submitter && submitter.hasAttribute("data-no-confirm")) {
      return;
    }
    var questions = [];
    if (submitter && submitter.getAttribute("data-confirm")) {
      questions.push(submitter.getAttribute("data-confirm"));
    }
    event.target.querySelectorAll("input[data-confirm]:checked").forEach(function (input) {
      if (questions.indexOf(input.getAttribute("data-confirm")) < 0) {
        questions.push(input.getAttribute("data-confirm"));
      }
    });
    if (questions.length && !window.confirm(questions.join("\n"))) {
      event.preventDefault();
    }
  });
})();
