// Small behaviours shared by every page: math typesetting and tabs.
// Math arrives from the server as \( \) and \[ \] inside .arithmatex elements
// (pymdownx.arithmatex, generic mode); KaTeX turns each one into markup.
(function () {
  "use strict";

  function renderMath(root) {
    if (!window.katex) return;
    root.querySelectorAll(".arithmatex:not([data-typeset])").forEach(function (el) {
      var tex = el.textContent.trim();
      var display = el.tagName === "DIV" || tex.startsWith("\\[");
      tex = tex.replace(/^\\[\(\[]/, "").replace(/\\[\)\]]$/, "");
      try {
        window.katex.render(tex, el, { displayMode: display, throwOnError: false, strict: "ignore" });
        el.setAttribute("data-typeset", "");
      } catch (err) {
        el.classList.add("math-error");
      }
    });
  }

  function selectTab(tab, remember) {
    var list = tab.closest("[role=tablist]");
    list.querySelectorAll("[role=tab]").forEach(function (other) {
      var selected = other === tab;
      other.setAttribute("aria-selected", selected ? "true" : "false");
      var panel = document.getElementById(other.getAttribute("aria-controls"));
      if (panel) panel.hidden = !selected;
    });
    if (remember) history.replaceState(null, "", "#" + tab.id.replace(/^tab-/, ""));
  }

  // "#theory" opens a tab; "#md-why-position-0" opens the tab holding that section (authored ids carry
  // the prefix md-; a link written without it still finds the section).
  function showHash() {
    var id = decodeURIComponent(location.hash.slice(1));
    if (!id) return;
    var tab = document.getElementById("tab-" + id);
    var target = null;
    if (!tab || tab.getAttribute("role") !== "tab") {
      target = document.getElementById(id) || document.getElementById("md-" + id);
      var panel = target && target.closest("[role=tabpanel]");
      tab = panel && document.getElementById(panel.getAttribute("aria-labelledby"));
    }
    if (!tab) return;
    selectTab(tab, false);
    if (tab.hasAttribute("hx-get") && window.htmx) window.htmx.trigger(tab, "click");
    if (target) target.scrollIntoView({ block: "start" });
  }

  function setUpTabs() {
    document.querySelectorAll("[role=tablist]").forEach(function (list) {
      list.addEventListener("click", function (event) {
        var tab = event.target.closest("[role=tab]");
        if (tab) selectTab(tab, true);
      });
    });
    showHash();
    window.addEventListener("hashchange", showHash);
  }

  // A rate-limited Run or Submit answers 429, and a form too large to read 413, with a message for the
  // result panel: show it like a 200.
  function swapRateLimitMessages() {
    if (!window.htmx) return;
    window.htmx.config.responseHandling.unshift({ code: "429", swap: true, error: false },
                                                { code: "413", swap: true, error: false });
  }

  // The live status.  A server-sent event stream (data-stream-url) says "look again" and the panel fetches
  // its fragment; the stream resumes by itself after a cut (EventSource sends the last status it saw).
  // Where EventSource is missing or the stream is refused, the panel long-polls instead (?wait=<status>,
  // its hx-get, fired by "judge:poll"): the server answers when the status changes.  If that request
  // fails (a proxy cut it, the server restarted), ask again every 0.7 s with a plain poll until an
  // answer arrives; the answer long-polls again.
  var streams = {};  // submission id -> its open EventSource
  var pollOnly = {};  // submission ids whose stream was refused

  function followStatus(root) {
    var panels = root.matches && root.matches(".result-panel") ? [root] : root.querySelectorAll(".result-panel");
    Array.prototype.forEach.call(panels, function (panel) {
      var id = panel.getAttribute("data-submission");
      if (!panel.hasAttribute("data-stream-url")) return closeStream(id);  // final
      if (streams[id]) return;
      if (!window.EventSource || pollOnly[id]) return window.htmx.trigger(panel, "judge:poll");
      openStream(id, panel.getAttribute("data-stream-url"));
    });
    Object.keys(streams).forEach(function (id) {  // a panel replaced by another submission's
      if (!document.getElementById("submission-" + id)) closeStream(id);
    });
  }

  function openStream(id, url) {
    var source = new EventSource(url);
    streams[id] = source;
    source.addEventListener("status", function () {
      var panel = document.getElementById("submission-" + id);
      // A final panel has no poll URL: an event that crossed its answer (before htmx settles the panel and
      // followStatus closes this stream) must fetch nothing, or htmx would fetch the page itself into it.
      var url = panel && panel.getAttribute("data-poll-url");
      if (!url) return closeStream(id);
      window.htmx.ajax("GET", url, { source: panel, target: panel, swap: "outerHTML" });
    });
    var failures = 0;  // in a row: a refused stream closes at once, a cut one is tried three times
    source.addEventListener("open", function () { failures = 0; });
    source.addEventListener("error", function () {
      failures += 1;
      if (source.readyState !== EventSource.CLOSED && failures < 3) return;  // reconnecting by itself
      closeStream(id);
      pollOnly[id] = true;
      var panel = document.getElementById("submission-" + id);
      if (panel && panel.hasAttribute("data-stream-url")) window.htmx.trigger(panel, "judge:poll");
    });
  }

  function closeStream(id) {
    if (!streams[id]) return;
    streams[id].close();
    delete streams[id];
  }

  function pollAfterFailure(event) {
    var panel = event.detail.elt;
    if (!panel || !panel.matches || !panel.matches(".result-panel[data-poll-url]")) return;
    window.setTimeout(function () {
      if (!panel.isConnected || !window.htmx) return;
      window.htmx.ajax("GET", panel.getAttribute("data-poll-url"), { source: panel, target: panel, swap: "outerHTML" });
    }, 700);
  }

  swapRateLimitMessages();
  document.addEventListener("htmx:sendError", pollAfterFailure);
  document.addEventListener("htmx:responseError", pollAfterFailure);
  document.addEventListener("htmx:timeout", pollAfterFailure);
  if (window.htmx) window.htmx.onLoad(followStatus);

  document.addEventListener("DOMContentLoaded", function () {
    renderMath(document);
    setUpTabs();
  });
  document.addEventListener("htmx:afterSwap", function (event) {
    renderMath(event.detail.target.parentNode || document);
  });
  window.judgeRenderMath = renderMath;
})();
