// The note tab on a problem page: the note is saved as the student types (like the code's draft), and the
// preview shows what the server kept, as Markdown it rendered and sanitised.  Without JavaScript the form's
// Save button posts it.
(function () {
  "use strict";

  var SAVE_DELAY_MS = 800;

  document.addEventListener("DOMContentLoaded", function () {
    var form = document.getElementById("note-form");
    if (!form) return;
    var text = document.getElementById("note-text");
    var state = document.getElementById("note-state");
    var preview = document.getElementById("note-preview");
    var timer = null;
    var sent = 0;

    function save() {
      var ticket = ++sent;
      state.textContent = "Saving…";
      fetch(form.action, { method: "POST", body: new FormData(form), credentials: "same-origin",
                           headers: { Accept: "application/json" } })
        .then(function (response) { return response.json(); })
        .then(function (data) {
          if (ticket !== sent) return;  // a later save is on its way
          state.textContent = data.saved ? "Note saved" : "Note not saved: " + data.error;
          if (data.saved) {
            preview.innerHTML = data.html;
            if (window.judgeRenderMath) window.judgeRenderMath(preview);
          }
        })
        .catch(function () { if (ticket === sent) state.textContent = "Note not saved (offline?)"; });
    }

    text.addEventListener("input", function () {
      state.textContent = "Editing…";
      clearTimeout(timer);
      timer = setTimeout(save, SAVE_DELAY_MS);
    });
    form.addEventListener("submit", function (event) {
      event.preventDefault();
      clearTimeout(timer);
      save();
    });
    window.addEventListener("pagehide", function () {
      if (timer !== null && state.textContent === "Editing…" && navigator.sendBeacon) {
        navigator.sendBeacon(form.action, new FormData(form));
      }
    });
  });
})();
