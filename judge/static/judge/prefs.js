// The student's settings on this page: font size, theme, key bindings and tab width.  <html> carries a signed-in
// student's, from the database (base.html); a visitor who is not signed in keeps theirs in localStorage, applied
// here, before the page is drawn (this script is not deferred), so a dark page never flashes light first.
// The editors (editor.js, workbench.js) dress Ace with dressEditor.
(function () {
  "use strict";

  var KEY = "judge:preferences";
  var OFFERED = { theme: ["system", "light", "dark"], keys: ["default", "vim", "emacs"],
                  fontSize: ["12", "13", "14", "15", "16", "18", "20"], tabWidth: ["2", "4", "8"] };
  // Ace's rows are as tall as its line height; at "normal" (ace.css) DejaVu Sans Mono's underscore, drawn below
  // the baseline, fell outside its row at 12-14 px and `prepend_class_token` read as `prepend class token`.
  var LINE_HEIGHT = "1.45";
  var THEMES = { light: "ace/theme/chrome", dark: "ace/theme/one_dark" };
  var root = document.documentElement;
  var local = root.hasAttribute("data-prefs-local");
  var darkQuery = window.matchMedia ? window.matchMedia("(prefers-color-scheme: dark)") : null;
  var editors = [];

  function apply(values) {
    Object.keys(OFFERED).forEach(function (name) {
      var value = values[name] === undefined || values[name] === null ? null : String(values[name]);
      if (value !== null && OFFERED[name].indexOf(value) >= 0) root.dataset[name] = value;
    });
  }

  function stored() {
    try { return JSON.parse(window.localStorage.getItem(KEY) || "{}") || {}; } catch (err) { return {}; }
  }

  function current() {
    var d = root.dataset;
    return { theme: d.theme || "system", keys: d.keys || "default",
             fontSize: parseInt(d.fontSize, 10) || 14, tabWidth: parseInt(d.tabWidth, 10) || 4 };
  }

  function isDark() {
    var theme = current().theme;
    return theme === "dark" || (theme === "system" && darkQuery !== null && darkQuery.matches);
  }

  function dressEditor(editor, sessions) {
    var p = current();
    editor.container.style.lineHeight = LINE_HEIGHT;
    editor.setFontSize(p.fontSize + "px");
    (sessions || [editor.session]).forEach(function (session) { session.setTabSize(p.tabWidth); });
    editor.setTheme(isDark() ? THEMES.dark : THEMES.light);
    // With the default keys, Tab indents inside the editor and Esc then Tab moves on (Enter goes back in), so the
    // page works from the keyboard alone.  Vim and Emacs need Esc for themselves: there Ctrl-Enter and
    // Ctrl-Shift-Enter are the way to Run and Submit.
    editor.setOption("enableKeyboardAccessibility", p.keys === "default");
    editor.setKeyboardHandler(p.keys === "default" ? null : "ace/keyboard/" + p.keys);
    if (editors.indexOf(editor) < 0) editors.push(editor);
  }

  function saveLocally(values) {
    apply(values);
    try { window.localStorage.setItem(KEY, JSON.stringify(current())); } catch (err) { return false; }
    return true;
  }

  if (local) apply(stored());
  if (darkQuery && darkQuery.addEventListener) {
    darkQuery.addEventListener("change", function () {  // the system's scheme changed while the page was open
      editors.forEach(function (editor) { editor.setTheme(isDark() ? THEMES.dark : THEMES.light); });
    });
  }
  window.judgePrefs = { local: local, current: current, isDark: isDark, dressEditor: dressEditor,
                        saveLocally: saveLocally };
})();
