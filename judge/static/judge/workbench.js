// The authoring workbench: one Ace editor (from the ace-builds npm package) over the package's
// files, picked in the file list, and a live preview of the statement, theory and hints.
// Without JavaScript the page is a form of plain textareas; with it, each textarea stays the
// form field and Ace only edits its value, so saving posts exactly the same fields.
(function () {
  "use strict";

  var PREVIEW_DELAY_MS = 400;
  var MODES = { py: "python", md: "markdown", toml: "toml" };
  var PREVIEWED = /(\.md$|^problem\.toml$)/;  // the files the preview is made of

  function modeOf(name) {
    var ext = name.split(".").pop();
    return "ace/mode/" + (MODES[ext] || "text");
  }

  function csrfToken(form) {
    var input = form.querySelector("input[name=csrfmiddlewaretoken]");
    return input ? input.value : "";
  }

  function setUp() {
    var bench = document.getElementById("workbench");
    var form = document.getElementById("package-form");
    var holder = document.getElementById("workbench-editor");
    if (!bench || !form || !holder || !window.ace) return;

    window.ace.config.set("basePath", holder.dataset.aceBase || "/static/vendor/ace/");
    window.ace.config.set("useStrictCSP", true);  // no injected <style>: the page links Ace's CSS
    var editor = window.ace.edit(holder, {
      useSoftTabs: true,
      showPrintMargin: false,
      fontFamily: "\"DejaVu Sans Mono\", ui-monospace, Menlo, Consolas, monospace",
      scrollPastEnd: 0.3,
    });
    window.judgeWorkbench = editor;
    window.addEventListener("resize", function () { editor.resize(); });  // long lines wrap to the new width
    bench.classList.add("enhanced");

    var sessions = {};   // file name -> Ace session over that file's textarea
    var links = {};      // file name -> its entry in the file list
    var current = null;
    var state = document.getElementById("workbench-state");
    var unsaved = document.getElementById("gate-unsaved");

    form.querySelectorAll(".file-list a[data-file]").forEach(function (link) {
      links[link.dataset.file] = link;
      link.addEventListener("click", function (event) {
        event.preventDefault();
        select(link.dataset.file);
      });
    });

    form.querySelectorAll("textarea[data-file]").forEach(function (textarea) {
      var name = textarea.dataset.file;
      var session = window.ace.createEditSession(textarea.value, modeOf(name));
      session.setUseWrapMode(true);  // long lines wrap: nothing is cut off on a narrow screen
      session.on("change", function () {
        textarea.value = session.getValue();
        markChanged(name);
        if (PREVIEWED.test(name)) schedulePreview();
      });
      sessions[name] = session;
    });

    form.querySelectorAll("input[type=checkbox][name^='delete:']").forEach(function (box) {
      var name = box.name.slice("delete:".length);
      box.addEventListener("change", function () {
        if (links[name]) links[name].classList.toggle("deleted", box.checked);
        markChanged(name);
        if (PREVIEWED.test(name)) schedulePreview();
      });
    });

    // One file shows at a time: its fieldset (name, delete box) with the editor in place of its textarea.
    function select(name, initial) {
      var fieldset = name ? document.getElementById("file-" + name) : document.getElementById("file-new");
      if (!fieldset) return;
      form.querySelectorAll(".package-file").forEach(function (f) { f.classList.toggle("current", f === fieldset); });
      Object.keys(links).forEach(function (n) {
        if (n === name) links[n].setAttribute("aria-current", "true"); else links[n].removeAttribute("aria-current");
      });
      current = name;
      if (name && sessions[name]) {
        fieldset.appendChild(holder);
        holder.hidden = false;
        editor.setSession(sessions[name]);
        editor.resize();
        if (!initial) { editor.focus(); showPreviewFor(name); }
      } else {
        holder.hidden = true;
        var input = fieldset.querySelector("input[name=new_name]");
        if (input && !initial) input.focus();
      }
      if (name) remember(name);
    }

    function markChanged(name) {
      if (links[name]) links[name].classList.add("modified");
      if (state) state.textContent = "Unsaved changes";
      if (unsaved) unsaved.hidden = false;
    }

    // The preview tab follows the file being edited.
    function showPreviewFor(name) {
      var tab = null;
      if (name === "statement.md") tab = "tab-statement";
      else if (name === "theory.md") tab = "tab-theory";
      else if (name === "editorial.md") tab = "tab-editorial";
      else if (/^hints\/.*\.md$/.test(name)) tab = "tab-hints";
      if (tab) document.getElementById(tab).click();
    }

    var timer = null;
    var sent = 0;
    var previewState = document.getElementById("preview-state");
    function schedulePreview() {
      clearTimeout(timer);
      timer = setTimeout(preview, PREVIEW_DELAY_MS);
    }

    function preview() {
      var body = new FormData();
      body.append("csrfmiddlewaretoken", csrfToken(form));
      Object.keys(sessions).forEach(function (name) {
        var box = form.querySelector("input[name='delete:" + name + "']");
        if (PREVIEWED.test(name) && !(box && box.checked)) body.append("file:" + name, sessions[name].getValue());
      });
      var ticket = ++sent;
      if (previewState) previewState.textContent = "Updating the preview…";
      fetch(bench.dataset.previewUrl, { method: "POST", body: body, credentials: "same-origin",
                                        headers: { "X-CSRFToken": csrfToken(form) } })
        .then(function (response) {
          return response.text().then(function (text) {
            if (!response.ok) throw new Error(text || response.statusText);
            return text;
          });
        })
        .then(function (html) {
          if (ticket !== sent) return;  // a later preview is on its way
          var parsed = document.createElement("template");
          parsed.innerHTML = html;
          parsed.content.querySelectorAll("[role=tabpanel]").forEach(function (fresh) {
            var panel = document.getElementById(fresh.id);
            if (panel) panel.innerHTML = fresh.innerHTML;
          });
          if (window.judgeRenderMath) window.judgeRenderMath(document.getElementById("preview"));
          if (previewState) previewState.textContent = "Preview up to date";
        })
        .catch(function (err) {
          if (ticket === sent && previewState) previewState.textContent = "Preview failed: " + err.message;
        });
    }

    // Ctrl-S (Cmd-S) saves the draft from anywhere on the page, the editor or the new file's fields.
    document.addEventListener("keydown", function (event) {
      if ((event.ctrlKey || event.metaKey) && !event.altKey && event.key.toLowerCase() === "s") {
        event.preventDefault();
        document.getElementById("save-draft").click();
      }
    });
    function remember(name) {
      try { sessionStorage.setItem("workbench:" + bench.dataset.slug, name); } catch (err) { /* private mode */ }
    }

    form.addEventListener("submit", function () {
      var added = form.querySelector("input[name=new_name]").value.trim();
      if (added) remember(added);  // the page after saving opens the new file
      // What Ace holds is already in the textareas; this catches a change made in the last instant.
      Object.keys(sessions).forEach(function (name) {
        form.querySelector("textarea[data-file='" + name + "']").value = sessions[name].getValue();
      });
    });

    window.judgePrefs.dressEditor(editor, Object.keys(sessions).map(function (n) { return sessions[n]; }));

    var remembered = null;
    try { remembered = sessionStorage.getItem("workbench:" + bench.dataset.slug); } catch (err) { /* private mode */ }
    var names = Object.keys(sessions);
    select(remembered && sessions[remembered] ? remembered
           : (sessions["statement.md"] ? "statement.md" : names[0] || ""), true);
  }

  document.addEventListener("DOMContentLoaded", setUp);
})();
