// The assignment form's problem list (courses/_problem_picker.html): a search over titles and names, and a
// count of the chosen ones. Without JavaScript the list is a plain list of checkboxes in the learning path's order.
(function () {
  "use strict";
  document.addEventListener("DOMContentLoaded", function () {
    var picker = document.getElementById("problem-picker");
    if (!picker) return;
    var tools = picker.querySelector(".picker-tools");
    var search = document.getElementById("picker-search");
    var chosenOnly = document.getElementById("picker-chosen-only");
    var count = document.getElementById("picker-count");
    var items = Array.prototype.slice.call(picker.querySelectorAll("li[data-search]"));
    tools.hidden = false;

    function update() {
      var words = search.value.toLowerCase().split(/\s+/).filter(Boolean);
      var shown = 0, chosen = 0;
      items.forEach(function (item) {
        var ticked = item.querySelector("input").checked;
        var text = item.getAttribute("data-search");
        var match = words.every(function (word) { return text.indexOf(word) >= 0; });
        item.hidden = !(match && (ticked || !chosenOnly.checked));
        if (!item.hidden) shown += 1;
        if (ticked) chosen += 1;
      });
      count.textContent = chosen + " chosen; " + shown + " of " + items.length + " shown";
    }

    search.addEventListener("input", update);
    chosenOnly.addEventListener("change", update);
    picker.addEventListener("change", update);
    update();
  });
})();
