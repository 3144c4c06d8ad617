// The game table's live refresh: while the tab is visible, ask the table's version endpoint
// every few seconds and reload the page when the game moved on (a move, or the game
// starting or ending), so a player watching sees the others' moves arrive. Only an
// enhancement: without JavaScript the page and its forms work the same, and a reload
// shows the news.
(function () {
  "use strict";
  var table = document.querySelector(".game-table[data-version-url]");
  if (!table) return;
  var url = table.dataset.versionUrl;
  var shown = { version: table.dataset.version, status: table.dataset.status };
  var every = 1000 * (parseInt(table.dataset.refreshSeconds, 10) || 5);
  var timer = null;
  var asking = false;

  function check() {
    if (asking || document.visibilityState !== "visible") return;
    asking = true;
    fetch(url, { credentials: "same-origin", cache: "no-store", headers: { Accept: "application/json" } })
      .then(function (response) { return response.ok ? response.json() : null; })
      .then(function (now) {
        if (!now) return;
        if (String(now.version) !== shown.version || now.status !== shown.status) {
          stop();
          window.location.reload();
        } else if (now.status !== "active" && now.status !== "invited") {
          stop(); // an ended game changes no more
        }
      })
      .catch(function () { /* offline for a moment: the next tick asks again */ })
      .then(function () { asking = false; });
  }

  function start() { if (timer === null) timer = window.setInterval(check, every); }
  function stop() { if (timer !== null) { window.clearInterval(timer); timer = null; } }

  // A hidden tab asks nothing; back in view, the next tick (within seconds) asks. Only
  // the interval ever asks, never the visibility event itself: the browser tests hold
  // periodic timers so that no reload comes at a moment they did not choose.
  document.addEventListener("visibilitychange", function () {
    if (document.visibilityState === "visible") { start(); } else { stop(); }
  });
  if (document.visibilityState === "visible") start();
})();
