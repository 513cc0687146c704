// The solution editor: Ace (from the ace-builds npm package) bound to the
// form's textarea, with a server-side draft autosaved per user and problem,
// reset to the starter code, and the failing line marked after a verdict.  prefs.js sets it up as the student
// chose (font size, theme, key bindings, tab width).
(function () {
  "use strict";

  var SAVE_DELAY_MS = 800;

  function csrfToken(form) {
    var input = form.querySelector("input[name=csrfmiddlewaretoken]");
    return input ? input.value : "";
  }

  function post(url, form, fields) {
    var body = new FormData();
    body.append("csrfmiddlewaretoken", csrfToken(form));
    Object.keys(fields).forEach(function (key) { body.append(key, fields[key]); });
    return fetch(url, { method: "POST", body: body, credentials: "same-origin",
                        headers: { "X-CSRFToken": csrfToken(form) } });
  }

  function newKey() {  // a version 4 UUID; crypto.randomUUID needs HTTPS, getRandomValues does not
    var bytes = window.crypto.getRandomValues(new Uint8Array(16));
    bytes[6] = (bytes[6] & 0x0f) | 0x40;
    bytes[8] = (bytes[8] & 0x3f) | 0x80;
    var hex = Array.prototype.map.call(bytes, function (b) { return (b + 0x100).toString(16).slice(1); }).join("");
    return [hex.slice(0, 8), hex.slice(8, 12), hex.slice(12, 16), hex.slice(16, 20), hex.slice(20)].join("-");
  }

  function setUp() {
    var form = document.getElementById("solve");
    var holder = document.getElementById("editor");
    var textarea = document.getElementById("code");
    if (!form || !holder || !window.ace) return;

    window.ace.config.set("basePath", holder.dataset.aceBase || "/static/vendor/ace/");
    window.ace.config.set("useStrictCSP", true);  // no injected <style>: the page links Ace's CSS
    var editor = window.ace.edit(holder, {
      mode: "ace/mode/python",
      value: textarea.value,
      useSoftTabs: true,
      showPrintMargin: false,
      fontFamily: "\"DejaVu Sans Mono\", ui-monospace, Menlo, Consolas, monospace",
      minLines: 18,
      maxLines: 40,
      scrollPastEnd: 0.2,
    });
    window.judgePrefs.dressEditor(editor);  // the student's font size, theme, keys and tab width
    editor.session.setUseWrapMode(true);  // long lines wrap: nothing is cut off on a narrow screen
    editor.clearSelection();
    form.classList.add("enhanced");
    window.judgeEditor = editor;

    var state = document.getElementById("draft-state");
    var draftUrl = form.dataset.draftUrl;
    var timer = null;
    var dirty = false;

    function show(text) { if (state) state.textContent = text; }

    function save() {
      if (!draftUrl || !dirty) return;
      dirty = false;
      show("Saving…");
      post(draftUrl, form, { code: editor.getValue() }).then(function (response) {
        return response.json().then(function (data) {
          show(data.saved ? "Draft saved" : "Draft not saved: " + data.error);
        });
      }).catch(function () { dirty = true; show("Draft not saved (offline?)"); });
    }

    editor.session.on("change", function () {
      textarea.value = editor.getValue();
      dirty = true;
      clearMarks();
      if (draftUrl) {
        show("Editing…");
        clearTimeout(timer);
        timer = setTimeout(save, SAVE_DELAY_MS);
      }
    });
    window.addEventListener("pagehide", function () {
      if (draftUrl && dirty && navigator.sendBeacon) {
        var body = new FormData();
        body.append("csrfmiddlewaretoken", csrfToken(form));
        body.append("code", editor.getValue());
        navigator.sendBeacon(draftUrl, body);
      }
    });

    var reset = document.getElementById("reset-code");
    if (reset) {
      reset.addEventListener("click", function () {
        if (!window.confirm("Replace your code with the starter code? Your draft will be lost.")) return;
        post(form.dataset.resetUrl, form, {}).then(function (r) { return r.json(); }).then(function (data) {
          editor.setValue(data.code, -1);
          dirty = false;
          clearTimeout(timer);
          show("Reset to the starter code");
        });
      });
    }

    editor.commands.addCommand({
      name: "runExamples", bindKey: { win: "Ctrl-Enter", mac: "Command-Enter" },
      exec: function () { var b = document.getElementById("run-button"); if (b) b.click(); },
    });
    editor.commands.addCommand({
      name: "submitSolution", bindKey: { win: "Ctrl-Shift-Enter", mac: "Command-Shift-Enter" },
      exec: function () { var b = document.getElementById("submit-button"); if (b) b.click(); },
    });

    var Range = window.ace.require("ace/range").Range;
    var marker = null;
    function clearMarks() {
      editor.session.clearAnnotations();
      if (marker !== null) { editor.session.removeMarker(marker); marker = null; }
    }
    function markLine(line, text) {
      clearMarks();
      editor.session.setAnnotations([{ row: line - 1, column: 0, text: text, type: "error" }]);
      marker = editor.session.addMarker(new Range(line - 1, 0, line - 1, 1), "error-line-marker", "fullLine");
      editor.scrollToLine(line - 1, true, true, function () {});
    }

    // Each click on Run or Submit gets a key of its own: a retry of that request (its answer lost) finds
    // the submission it made instead of making another.
    document.body.addEventListener("htmx:configRequest", function (event) {
      if (event.detail.elt && event.detail.elt.form === form) event.detail.parameters.click_key = newKey();
    });
    document.body.addEventListener("htmx:beforeRequest", function (event) {
      if (event.detail.elt && event.detail.elt.form === form) {
        save(); clearMarks();
        form.querySelectorAll(".custom-input .field-error").forEach(function (el) { el.textContent = ""; });
      }
    });
    // The live region says that a click was sent, then its verdict, once: the result panel itself changes
    // several times while it waits and would be read out each time.
    var announcer = document.getElementById("verdict-announcer");
    function announce(panel) {
      if (!announcer || !panel) return;
      var final = panel.dataset.final === "true";
      var key = panel.dataset.submission + (final ? ":final" : ":sent");
      if (announcer.dataset.said === key || (!final && announcer.dataset.said === panel.dataset.submission + ":final")) return;
      announcer.dataset.said = key;
      var line = panel.querySelector(".status-line");
      var text = line ? line.textContent.replace(/\s+/g, " ").trim() : "";
      announcer.textContent = final ? "Result: " + text : "Sent: " + text + ". The verdict follows.";
    }

    document.body.addEventListener("htmx:afterSwap", function () {
      var latest = document.querySelector("#result .result-panel");
      announce(latest);
      var panel = document.querySelector("#result .result-panel[data-final=true]");
      if (!panel || panel.dataset.marked) return;
      panel.dataset.marked = "1";
      if (panel.dataset.errorLine) {
        var message = panel.querySelector(".test-message, .message");
        markLine(parseInt(panel.dataset.errorLine, 10), message ? message.textContent : "error");
      }
      var history = document.getElementById("tab-submissions");
      if (history && history.getAttribute("hx-get") && window.htmx) {
        window.htmx.ajax("GET", history.getAttribute("hx-get"), { target: "#history", swap: "outerHTML" });
      }
    });
  }

  document.addEventListener("DOMContentLoaded", setUp);
})();
