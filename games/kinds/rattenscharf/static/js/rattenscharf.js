// Placing a Rattenscharf strip on the board (games/kinds/rattenscharf/templates/games/rattenscharf/moves.html).
// The page's JSON (#rs-play-data, games.tables.rattenscharf.play_data) lists the legal
// placements of each strip in the hand with what each would score; this script marks the
// legal places for the chosen strip, direction and turn on the board, previews the one
// chosen (an outline on the board, the strip as laid and its outcome beside it), and
// posts the same form as the lists below it. Clicks: a place once chooses
// it, twice places the strip. Keys on the board: arrows move between the legal places,
// Enter places, R rotates, F turns the strip round. Without JavaScript the lists do it all.
(function () {
  "use strict";
  var form = document.querySelector("form[data-board-form]");
  var dataNode = document.getElementById("rs-play-data");
  var svg = document.querySelector(".rs-board svg[data-interactive]");
  if (!form || !dataNode || !svg) return;
  var data = JSON.parse(dataNode.textContent);
  var NS = "http://www.w3.org/2000/svg";
  var SIZE = parseInt(svg.dataset.cellSize, 10);
  var layer = svg.querySelector("[data-layer]");
  var viewport = svg.closest("[data-board-viewport]");
  var preview = form.querySelector("[data-preview]");
  var laid = form.querySelector("[data-preview-strip]");
  var laidFrame = form.querySelector("[data-preview-laid]");
  var placeButton = form.querySelector("[data-place]");
  var lists = document.querySelector("details[data-lists]");
  var chosen = { strip: form.elements.strip.value, orientation: "h", flip: 0, key: null };
  var places = []; // the legal places of the chosen strip, direction and turn

  function fill(template, values) {
    return template.replace(/\{(\w+)\}/g, function (all, name) {
      return name in values ? String(values[name]) : all;
    });
  }

  function svgElement(name, attributes) {
    var node = document.createElementNS(NS, name);
    Object.keys(attributes).forEach(function (key) { node.setAttribute(key, attributes[key]); });
    return node;
  }

  function fieldsLaid() {
    var fields = data.strips[chosen.strip].slice();
    return chosen.flip ? fields.reverse() : fields;
  }

  // Each legal window "x,y,o" of the chosen strip in the chosen direction, placed by its middle cell.
  function legalPlaces() {
    var found = [];
    var windows = data.moves[chosen.strip] || {};
    Object.keys(windows).forEach(function (key) {
      var parts = key.split(",");
      var outcome = windows[key][chosen.flip];
      if (parts[2] !== chosen.orientation || !outcome) return;
      var x = parseInt(parts[0], 10), y = parseInt(parts[1], 10);
      var across = chosen.orientation === "h";
      found.push({
        key: key, x: x, y: y, outcome: outcome,
        mx: across ? x + 1 : x, my: across ? y : y + 1,
      });
    });
    return found;
  }

  function placeOf(key) {
    return places.filter(function (place) { return place.key === key; })[0] || null;
  }

  // The chosen place on the board: an outline of the strip's three cells and nothing
  // over them, so the fields it would cover stay readable; what it would show there is
  // drawn beside the board (drawLaid), next to the preview's words.
  function drawGhost(place) {
    var old = layer.querySelector(".rs-ghost");
    if (old) old.remove();
    if (!place) return;
    var ghost = svgElement("g", { "class": "rs-ghost", "aria-hidden": "true" });
    var dx = chosen.orientation === "h" ? 1 : 0, dy = 1 - dx;
    ghost.appendChild(svgElement("rect", {
      x: place.x * SIZE, y: place.y * SIZE, width: SIZE * (1 + 2 * dx), height: SIZE * (1 + 2 * dy),
      "class": "rs-ghost__outline" + (place.outcome[4] ? " rs-ghost__outline--loses" : ""),
    }));
    layer.insertBefore(ghost, layer.firstChild);
  }

  // The strip as it would lie (across or down, turned or not), outside the board.
  function drawLaid(place) {
    if (!laid) return;
    laid.textContent = "";
    laidFrame.hidden = !place;
    if (!place) return;
    var across = chosen.orientation === "h";
    laid.setAttribute("viewBox", across ? "0 0 120 40" : "0 0 40 120");
    laid.classList.toggle("rs-laid--down", !across);
    fieldsLaid().forEach(function (field, i) {
      var left = across ? i * 40 : 0, top = across ? 0 : i * 40;
      laid.appendChild(svgElement("rect", { x: left, y: top, width: 40, height: 40, "class": "rs-ground rs-h1" }));
      laid.appendChild(svgElement("use", { href: "#" + field.id, x: left, y: top, width: 40, height: 40 }));
    });
    laid.appendChild(svgElement("rect", {
      x: 1, y: 1, width: across ? 118 : 38, height: across ? 38 : 118, "class": "rs-strip__outline",
    }));
  }

  function describe(place) {
    var text = fill(data.words.preview, {
      x: place.x, y: place.y, direction: data.words[chosen.orientation],
      fields: fieldsLaid().map(function (f) { return f.word; }).join(", "),
      rp: place.outcome[0], gp: place.outcome[1], rr: place.outcome[2], gr: place.outcome[3],
    });
    return place.outcome[4] ? text + " " + data.words.loses : text;
  }

  function keepInView(target) {
    var box = target.getBoundingClientRect(), frame = viewport.getBoundingClientRect();
    if (box.left < frame.left) viewport.scrollLeft -= frame.left - box.left + SIZE;
    if (box.right > frame.right) viewport.scrollLeft += box.right - frame.right + SIZE;
    if (box.top < frame.top) viewport.scrollTop -= frame.top - box.top + SIZE;
    if (box.bottom > frame.bottom) viewport.scrollTop += box.bottom - frame.bottom + SIZE;
  }

  function choose(key, focus) {
    var place = placeOf(key);
    chosen.key = place ? key : null;
    layer.querySelectorAll(".rs-target").forEach(function (target) {
      var on = target.dataset.key === chosen.key;
      target.classList.toggle("rs-target--chosen", on);
      target.setAttribute("tabindex", on ? "0" : "-1");
      target.setAttribute("aria-pressed", on ? "true" : "false");
      if (on && focus) { target.focus({ preventScroll: true }); keepInView(target); }
    });
    drawGhost(place);
    drawLaid(place);
    form.elements.strip.value = chosen.strip;
    form.elements.placement.value = place ? [place.x, place.y, chosen.orientation, chosen.flip].join(",") : "";
    placeButton.disabled = !place;
    preview.textContent = place ? describe(place) : (places.length ? "" : data.words.none);
    form.dataset.chosen = form.elements.placement.value;
  }

  function draw() {
    var before = placeOf(chosen.key); // among the places drawn until now
    layer.textContent = "";
    places = legalPlaces();
    places.forEach(function (place) {
      layer.appendChild(svgElement("rect", {
        x: place.mx * SIZE + 4, y: place.my * SIZE + 4, width: SIZE - 8, height: SIZE - 8, rx: 8,
        "class": "rs-target", tabindex: "-1", role: "button", "aria-pressed": "false",
        "aria-label": fill(data.words.target, { x: place.mx, y: place.my }),
        "data-key": place.key, "data-middle": place.mx + "," + place.my,
      }));
    });
    // Stay where the player was: the same window, else the place nearest to it (at
    // first, the one nearest the start field).
    var keep = before && placeOf(before.key) ? before.key : null;
    if (!keep && places.length) keep = nearest(before || { mx: 0, my: 0 }).key;
    choose(keep, false);
  }

  function nearest(from) {
    var best = null, bestScore = Infinity;
    places.forEach(function (place) {
      var score = Math.abs(place.mx - from.mx) + Math.abs(place.my - from.my);
      if (score < bestScore) { best = place; bestScore = score; }
    });
    return best;
  }

  // The nearest legal place in an arrow's direction (straight ahead counts most).
  function step(direction) {
    var from = placeOf(chosen.key);
    if (!from) return;
    var dx = { ArrowRight: 1, ArrowLeft: -1 }[direction] || 0;
    var dy = { ArrowDown: 1, ArrowUp: -1 }[direction] || 0;
    var best = null, bestScore = Infinity;
    places.forEach(function (place) {
      var along = (place.mx - from.mx) * dx + (place.my - from.my) * dy;
      if (along <= 0) return;
      var aside = Math.abs((place.mx - from.mx) * dy) + Math.abs((place.my - from.my) * dx);
      var score = along + 2 * aside;
      if (score < bestScore) { best = place; bestScore = score; }
    });
    if (best) choose(best.key, true);
  }

  function setOrientation(orientation) {
    chosen.orientation = orientation;
    form.querySelector('input[name="rs-orientation"][value="' + orientation + '"]').checked = true;
  }

  function setFlip(flip) {
    chosen.flip = flip ? 1 : 0;
    form.elements["rs-flip"].checked = Boolean(flip);
  }

  // A quarter turn clockwise: across -> down -> across turned round -> down turned round.
  function rotate() {
    if (chosen.orientation === "h") { setOrientation("v"); } else { setOrientation("h"); setFlip(!chosen.flip); }
    draw();
  }

  function place() {
    if (!chosen.key) return;
    if (form.requestSubmit) { form.requestSubmit(placeButton); } else { form.submit(); }
  }

  form.addEventListener("change", function (event) {
    var input = event.target;
    if (input.name === "rs-strip") chosen.strip = input.value;
    if (input.name === "rs-orientation") chosen.orientation = input.value;
    if (input.name === "rs-flip") chosen.flip = input.checked ? 1 : 0;
    draw();
  });
  form.querySelector("[data-rotate]").addEventListener("click", rotate);
  form.addEventListener("submit", function (event) {
    if (!chosen.key) { event.preventDefault(); return; }
    placeButton.disabled = true; // one click, one move
  });
  layer.addEventListener("click", function (event) {
    var target = event.target.closest(".rs-target");
    if (!target) return;
    if (target.dataset.key === chosen.key) { place(); } else { choose(target.dataset.key, true); }
  });
  svg.addEventListener("keydown", function (event) {
    if (event.altKey || event.ctrlKey || event.metaKey) return;
    if (!event.target.closest || !event.target.closest(".rs-target")) return;
    if (/^Arrow/.test(event.key)) { step(event.key); event.preventDefault(); }
    else if (event.key === "Enter" || event.key === " ") { place(); event.preventDefault(); }
    else if (event.key === "r" || event.key === "R") { rotate(); choose(chosen.key, true); event.preventDefault(); }
    else if (event.key === "f" || event.key === "F") { setFlip(!chosen.flip); draw(); choose(chosen.key, true); event.preventDefault(); }
  });

  form.hidden = false;
  if (lists) lists.open = false;
  draw();
  var start = placeOf(chosen.key);
  if (start) {
    var target = layer.querySelector('.rs-target[data-key="' + chosen.key + '"]');
    if (target) keepInView(target);
  }
})();
