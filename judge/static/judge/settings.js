// The settings page for a visitor who is not signed in: the same form, kept in this browser (prefs.js).
(function () {
  "use strict";
  document.addEventListener("DOMContentLoaded", function () {
    var form = document.getElementById("preferences");
    if (!form || !form.hasAttribute("data-local") || !window.judgePrefs) return;
    var state = document.getElementById("settings-state");
    var p = window.judgePrefs.current();
    var shown = { font_size: p.fontSize, theme: p.theme, keys: p.keys, tab_width: p.tabWidth };
    Object.keys(shown).forEach(function (name) {
      form.querySelectorAll("[name=" + name + "]").forEach(function (field) {
        if (field.type === "radio") field.checked = field.value === String(shown[name]);
        else field.value = String(shown[name]);
      });
    });
    form.addEventListener("submit", function (event) {
      event.preventDefault();
      var data = new FormData(form);
      var kept = window.judgePrefs.saveLocally({ fontSize: data.get("font_size"), theme: data.get("theme"),
                                                 keys: data.get("keys"), tabWidth: data.get("tab_width") });
      state.textContent = kept ? "Saved in this browser." : "Not saved: this browser keeps no site data.";
    });
  });
})();
