// The live table (docs/decisions/0007-live-table-stream.md): the page listens to its game's
// stream (server-sent events, GET /games/<id>/events). When a "table" event says the game
// moved on (its version or status differ from the page's) or that talk or the clock
// changed, the page fetches itself again and swaps #table-live-region for the fetched
// one, runs the scripts inside it again (the game's board), and tells others with
// document's "table:updated" event ({detail: {before, after}}: the versions). The stream
// carries no game state: the fetched page is what a reload would show this reader.
//
// - A field inside the region being typed in or chosen (focus, or a value not sent): no
//   swap under the reader's hands; a notice "The table changed. Show" does it on a click.
// - An element of the region marked data-live-keep (with an id: the private notes) is not
//   swapped at all: the reader's own element, text, caret and focus stay, in the fresh
//   region's place for it, so its fields never hold the table back.
// - The stream broken: the page asks the version endpoint every few seconds (as before
//   the stream), says "Offline — reconnecting" (after a short grace) and reconnects; the
//   notice goes when the stream is back.
// - "presence" events: who is at the table, a name per seat in the line above the region.
// - The reader's turn arriving while the tab is not looked at: the title starts with
//   "Your turn" and the icon changes until the tab has the focus; a short sound if the
//   reader turned it on (remembered in localStorage, off by default).
// Only an enhancement: without JavaScript the page and its forms work the same, and a
// reload shows the news.
(function () {
  "use strict";
  var REGION = "table-live-region";
  var OFFLINE_GRACE_MS = 3000; // a stream reconnecting quietly is not "offline"
  var REOPEN_MS = 10000; // a stream the server refused: try again this much later
  var SOUND_KEY = "piratz.turnSound";

  var live = document.querySelector(".table-live[data-events-url]");
  var table = document.querySelector(".game-table[data-version-url]");
  if (!table) return;
  var versionUrl = table.dataset.versionUrl;
  var every = 1000 * (parseInt(table.dataset.refreshSeconds, 10) || 5);
  var shown = { version: table.dataset.version, status: table.dataset.status };
  var yourTurn = table.hasAttribute("data-your-turn");
  var source = null;
  var pollTimer = null;
  var offlineTimer = null;
  var asking = false;
  var fetching = false;
  var again = false; // news arrived while fetching: fetch once more after
  var marked = null; // the title and icon before "Your turn"

  function ended(status) { return status !== "active" && status !== "invited"; }

  // --- swapping the region ---------------------------------------------------------------

  function region() { return document.getElementById(REGION); }

  function held() {
    // A field the reader is typing in or choosing, inside the region: do not swap it away.
    var where = region();
    if (!where) return false;
    var active = document.activeElement;
    if (active && where.contains(active) && !kept(active) &&
        /^(INPUT|TEXTAREA|SELECT)$/.test(active.tagName)) {
      return true;
    }
    var fields = where.querySelectorAll("textarea, input, select");
    for (var i = 0; i < fields.length; i++) {
      var field = fields[i];
      if (field.type === "hidden" || field.type === "submit" || field.type === "button") continue;
      if (kept(field)) continue;
      if (field.tagName === "SELECT") {
        // A single select shows its first option unless one is marked selected.
        var initial = 0;
        for (var j = 0; j < field.options.length; j++) {
          if (field.options[j].defaultSelected) { initial = j; break; }
        }
        if (field.selectedIndex !== initial) return true;
      } else if (field.type === "checkbox" || field.type === "radio") {
        if (field.checked !== field.defaultChecked) return true;
      } else if (field.value !== field.defaultValue) {
        return true;
      }
    }
    return false;
  }

  function kept(element) { return element.closest("[data-live-keep]") !== null; }

  function keepAcross(old, fresh) {
    // The kept elements of the old region take the place of their fresh copies; the
    // element with the focus gets it back, with its caret (moving a node blurs it).
    var active = document.activeElement;
    var caret = null;
    if (active && old.contains(active) && kept(active) && "selectionStart" in active) {
      try { caret = [active.selectionStart, active.selectionEnd]; } catch (e) { caret = null; }
    }
    var restore = active && old.contains(active) && kept(active) ? active : null;
    old.querySelectorAll("[data-live-keep][id]").forEach(function (element) {
      var copy = fresh.querySelector("#" + CSS.escape(element.id));
      if (copy) copy.replaceWith(element);
    });
    return function () {
      if (!restore || !document.contains(restore)) return;
      restore.focus({ preventScroll: true });
      if (caret) { try { restore.setSelectionRange(caret[0], caret[1]); } catch (e) { /* none */ } }
    };
  }

  function refresh(force) {
    if (!force && held()) { showDeferred(true); return; }
    if (fetching) { again = true; return; }
    fetching = true;
    refreshing(true);
    var url = window.location.href.split("#")[0];
    fetch(url, { credentials: "same-origin", cache: "no-store", headers: { Accept: "text/html" } })
      .then(function (response) {
        if (!response.ok || response.redirected) throw new Error("no table");
        return response.text();
      })
      .then(function (html) { swap(new DOMParser().parseFromString(html, "text/html")); })
      .catch(function () { window.location.reload(); })
      .then(function () {
        fetching = false;
        if (again) { again = false; refresh(false); } else if (!loading) { refreshing(false); }
      });
  }

  // While a fetch or the scripts of a swapped-in table are under way, the root element
  // carries data-table-refreshing: the table is not settled yet (its board scripts may
  // still rebuild its forms). Browser tests wait for it to go (tests/browser/conftest.py).
  var loading = 0;
  function refreshing(on) {
    document.documentElement.toggleAttribute("data-table-refreshing", on);
  }

  function swap(fetched) {
    var old = region();
    var fresh = fetched.getElementById(REGION);
    if (!old || !fresh) { window.location.reload(); return; }
    var before = shown.version;
    fresh = document.adoptNode(fresh);
    var refocus = keepAcross(old, fresh);
    old.replaceWith(fresh);
    refocus();
    // The messages of the last click were about the table before: they go with it (in a
    // blind game an old move's message must not outlive the player's memory of it, P23).
    document.querySelectorAll(".messages").forEach(function (said) { said.remove(); });
    rerunScripts(fresh);
    showDeferred(false);
    var now = fresh.querySelector(".game-table[data-version]");
    if (now) {
      shown = { version: now.dataset.version, status: now.dataset.status };
      var turn = now.hasAttribute("data-your-turn");
      if (turn && !yourTurn) turnArrived();
      yourTurn = turn;
    }
    if (ended(shown.status)) stop();
    document.dispatchEvent(new CustomEvent("table:updated", {
      detail: { before: Number(before), after: Number(shown.version) },
    }));
  }

  function rerunScripts(where) {
    // Scripts that arrived in fetched HTML do not run: the game's own board scripts are
    // loaded again (the same files; the browser has them), in order. A kept element's
    // scripts ran when it first came and are not run again.
    where.querySelectorAll("script[src]").forEach(function (inert) {
      if (kept(inert)) return;
      var script = document.createElement("script");
      script.src = inert.src;
      script.async = false;
      loading += 1;
      script.onload = script.onerror = function () {
        loading -= 1;
        if (!loading && !fetching) refreshing(false);
      };
      inert.replaceWith(script);
    });
  }

  function showDeferred(visible) {
    var notice = live && live.querySelector(".table-changed");
    if (notice) notice.hidden = !visible;
  }

  // --- the stream, and polling while it is broken ----------------------------------------

  function connect() {
    if (!live || !window.EventSource || source) return;
    source = new EventSource(live.dataset.eventsUrl);
    source.addEventListener("open", online);
    source.addEventListener("table", function (event) {
      online();
      var news = JSON.parse(event.data);
      if (String(news.version) !== shown.version || news.status !== shown.status ||
          news.what === "talk" || news.what === "clock") {
        refresh(false);
      }
    });
    source.addEventListener("presence", function (event) {
      showPresence(JSON.parse(event.data).seats);
    });
    source.addEventListener("error", function () {
      startPolling();
      if (offlineTimer === null) offlineTimer = window.setTimeout(showOffline, OFFLINE_GRACE_MS);
      if (source && source.readyState === EventSource.CLOSED) {
        // Refused (not a dropped connection, which EventSource reconnects by itself).
        source = null;
        window.setTimeout(connect, REOPEN_MS);
      }
    });
  }

  function online() {
    if (offlineTimer !== null) { window.clearTimeout(offlineTimer); offlineTimer = null; }
    setOffline(false);
    stopPolling();
  }

  function showOffline() {
    offlineTimer = null;
    if (!source || source.readyState !== EventSource.OPEN) setOffline(true);
  }

  function setOffline(offline) {
    var text = live && live.querySelector(".table-offline-text");
    if (text) text.hidden = !offline;
  }

  function check() {
    if (asking || document.visibilityState !== "visible") return;
    asking = true;
    fetch(versionUrl, { credentials: "same-origin", cache: "no-store", headers: { Accept: "application/json" } })
      .then(function (response) { return response.ok ? response.json() : null; })
      .then(function (now) {
        if (now && (String(now.version) !== shown.version || now.status !== shown.status)) refresh(false);
      })
      .catch(function () { /* offline for a moment: the next tick asks again */ })
      .then(function () { asking = false; });
  }

  function startPolling() { if (pollTimer === null) pollTimer = window.setInterval(check, every); }
  function stopPolling() { if (pollTimer !== null) { window.clearInterval(pollTimer); pollTimer = null; } }

  function stop() {
    // An ended game changes no more.
    stopPolling();
    if (source) { source.close(); source = null; }
    online();
  }

  // --- who is at the table ---------------------------------------------------------------

  function showPresence(seats) {
    if (!live) return;
    var names = live.querySelectorAll(".table-presence-seat");
    var any = false;
    names.forEach(function (name) {
      var here = seats.indexOf(Number(name.dataset.presentSeat)) !== -1;
      name.hidden = !here;
      any = any || here;
    });
    var nobody = live.querySelector(".table-presence-none");
    if (nobody) nobody.hidden = any;
  }

  // --- "Your turn" -----------------------------------------------------------------------

  function icon() { return document.querySelector("link[rel~=icon]"); }

  function turnArrived() {
    if (soundOn()) beep();
    if (document.hasFocus() || marked || !live) return;
    var link = icon();
    marked = { title: document.title, icon: link && link.getAttribute("href") };
    document.title = live.dataset.yourTurnTitle + " · " + document.title;
    if (link) link.setAttribute("href", live.dataset.yourTurnIcon);
  }

  function unmark() {
    if (!marked) return;
    document.title = marked.title;
    var link = icon();
    if (link && marked.icon) link.setAttribute("href", marked.icon);
    marked = null;
  }

  function soundOn() {
    try { return window.localStorage.getItem(SOUND_KEY) === "on"; } catch (error) { return false; }
  }

  var audio = null;
  function beep() {
    var Context = window.AudioContext || window.webkitAudioContext;
    if (!Context) return;
    try {
      audio = audio || new Context();
      var tone = audio.createOscillator();
      var gain = audio.createGain();
      tone.frequency.value = 660;
      gain.gain.setValueAtTime(0.15, audio.currentTime);
      gain.gain.exponentialRampToValueAtTime(0.001, audio.currentTime + 0.25);
      tone.connect(gain).connect(audio.destination);
      tone.start();
      tone.stop(audio.currentTime + 0.25);
    } catch (error) { /* no sound, then */ }
  }

  // --- start -----------------------------------------------------------------------------

  window.addEventListener("focus", unmark);
  document.addEventListener("visibilitychange", function () {
    if (document.visibilityState === "visible" && document.hasFocus()) unmark();
  });

  if (live) {
    live.hidden = false;
    var show = live.querySelector(".table-changed-show");
    if (show) show.addEventListener("click", function () { refresh(true); });
    var toggle = live.querySelector(".table-sound-toggle");
    if (toggle) {
      toggle.checked = soundOn();
      toggle.addEventListener("change", function () {
        try { window.localStorage.setItem(SOUND_KEY, toggle.checked ? "on" : "off"); } catch (error) { /* private mode */ }
        if (toggle.checked) beep(); // a sample, and the click lets the page play sound later
      });
    }
  }

  if (live && window.EventSource) {
    connect();
  } else {
    // No stream (an old browser): the version poll alone, while the tab is visible.
    document.addEventListener("visibilitychange", function () {
      if (document.visibilityState === "visible") { startPolling(); } else { stopPolling(); }
    });
    if (document.visibilityState === "visible") startPolling();
  }
})();
