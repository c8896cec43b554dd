// Person pickers: a field with data-person-picker (the event's pick endpoint) gets a <datalist> of name
// matches as the user types. Without this script the field still takes a member number or an exact name.
(function () {
  "use strict";
  document.querySelectorAll("input[data-person-picker]").forEach(function (input, n) {
    var list = document.createElement("datalist");
    list.id = "person-picker-" + n;
    input.setAttribute("list", list.id);
    input.after(list);
    var timer = null;
    var last = "";
    input.addEventListener("input", function () {
      var q = input.value.trim();
      if (q.length < 2 || q === last || q.indexOf("#") !== -1 || /^\d+$/.test(q)) return;
      clearTimeout(timer);
      timer = setTimeout(function () {
        last = q;
        fetch(input.dataset.personPicker + "?q=" + encodeURIComponent(q), {
          headers: { Accept: "application/json" },
          credentials: "same-origin",
        })
          .then(function (r) { return r.ok ? r.json() : { results: [] }; })
          .then(function (data) {
            list.replaceChildren();
            data.results.forEach(function (hit) {
              var option = document.createElement("option");
              option.value = hit.value;
              option.textContent = hit.label;
              list.appendChild(option);
            });
          })
          .catch(function () {});
      }, 250);
    });
  });
})();
