// The Piratz table's click-to-act, an enhancement of its move forms
// (games/kinds/piratz/templates/games/piratz/moves.html): the player plays on the face-up cards and the
// confirm bar submits the very form the no-JavaScript path uses, with its select set.
//
// - Passing (phases turn and decide): a click on a treasure of a face-up card names it (a
//   card showing several asks which); the cards it takes light up, the rest become
//   pickable; a click on one chooses the card to bury; the bar confirms.
// - A rat alert: a click on a face-up rat keeps it, then a click on a card buries it.
// - Also: a rat alert banner takes the focus when the page opens, so it is read first.
//
// Cards are buttons (role, tabindex, Enter and Space, aria-pressed) only while they can be
// chosen; the bar's words come from its data-text-* attributes, translated by the page.
(function () {
  "use strict";

  var alert = document.querySelector("[data-rat-alert]");
  if (alert) alert.focus();

  var bar = document.querySelector("[data-act-bar]");
  var row = document.querySelector("[data-face-up]");
  if (!bar || !row) return;
  var text = bar.querySelector("[data-act-text]");
  var choicesBox = bar.querySelector("[data-act-choices]");
  var confirmButton = bar.querySelector("[data-act-confirm]");
  var cancelButton = bar.querySelector("[data-act-cancel]");
  var hint = document.querySelector("[data-act-hint]");

  var passForms = {};
  document.querySelectorAll('form[data-action="pass"][data-treasure]').forEach(function (form) {
    if (!form.hasAttribute("data-takes-nothing")) passForms[form.dataset.treasure] = form;
  });
  var alarmForms = {};
  document.querySelectorAll('form[data-action="resolve_alarm"][data-keep]').forEach(function (form) {
    alarmForms[form.dataset.keep] = form;
  });
  var alarm = Object.keys(alarmForms).length > 0;
  if (!alarm && !Object.keys(passForms).length) return;

  var cards = [];
  row.querySelectorAll(".row-card").forEach(function (item) {
    var svg = item.querySelector("svg[data-card]");
    if (!svg) return;
    cards.push({
      item: item,
      id: svg.dataset.card,
      label: svg.getAttribute("aria-label"),
      treasures: (svg.dataset.treasures || "").split(" ").filter(function (t) { return t in passForms; })
    });
  });

  // What is chosen: a pass names ``treasure`` (its ``form``), an alarm keeps ``keep``
  // (its ``form``); then ``bury`` is the card to bury.
  var chosen = { form: null, treasure: null, keep: null, bury: null };

  function say(key, values) {
    var words = bar.getAttribute("data-text-" + key) || "";
    return words.replace(/\{(\w+)\}/g, function (_, name) { return values[name] || ""; });
  }

  function cardById(id) {
    return cards.find(function (card) { return card.id === String(id); });
  }

  function buryOptions(form) {
    var select = form && form.querySelector("select[name=bury]");
    return select ? Array.prototype.map.call(select.options, function (o) { return o.value; }) : [];
  }

  function takenLabels(form) {
    return (form.dataset.takes || "").split(" ").filter(Boolean).map(function (id) {
      var card = cardById(id);
      return card ? card.label : "#" + id;
    }).join("; ");
  }

  function activeCards() {
    if (chosen.form && chosen.bury === null) {
      var pickable = buryOptions(chosen.form);
      return cards.filter(function (card) {
        return pickable.indexOf(card.id) >= 0 || (alarm ? card.id in alarmForms : card.treasures.length > 0);
      });
    }
    if (alarm) return cards.filter(function (card) { return card.id in alarmForms || chosen.keep !== null; });
    return cards.filter(function (card) { return card.treasures.length > 0; });
  }

  function draw() {
    var active = activeCards();
    var pickable = chosen.form ? buryOptions(chosen.form) : [];
    var taken = chosen.form && !alarm ? (chosen.form.dataset.takes || "").split(" ") : [];
    cards.forEach(function (card) {
      var isActive = active.indexOf(card) >= 0;
      var item = card.item;
      item.classList.toggle("row-card--active", isActive);
      item.classList.toggle("row-card--taken", taken.indexOf(card.id) >= 0 || chosen.keep === card.id);
      item.classList.toggle("row-card--pickable", chosen.bury === null && pickable.indexOf(card.id) >= 0);
      item.classList.toggle("row-card--chosen", chosen.bury === card.id);
      if (isActive) {
        item.setAttribute("role", "button");
        item.setAttribute("tabindex", "0");
        item.setAttribute("aria-pressed", String(chosen.bury === card.id || chosen.keep === card.id));
        item.setAttribute("aria-label", card.label);
      } else {
        item.removeAttribute("role");
        item.removeAttribute("tabindex");
        item.removeAttribute("aria-pressed");
        item.removeAttribute("aria-label");
      }
    });
    choicesBox.textContent = "";
    confirmButton.hidden = true;
    if (!chosen.form && !choicesBox.dataset.asking) {
      bar.hidden = true;
      return;
    }
    bar.hidden = false;
    if (!chosen.form) return; // asking which treasure: the choices are drawn by ask()
    var values = {
      treasure: alarm ? "" : chosen.form.dataset.treasureName,
      taken: alarm ? "" : takenLabels(chosen.form),
      keep: alarm ? cardById(chosen.keep).label : "",
      card: chosen.bury === null ? "" : cardById(chosen.bury).label
    };
    var noBury = !pickable.length;
    if (alarm) {
      text.textContent = chosen.bury === null ? say("keep", values) : say("alarm", values);
    } else if (noBury) {
      text.textContent = say("pass-no-bury", values);
    } else {
      text.textContent = chosen.bury === null ? say("choose-bury", values) : say("pass", values);
    }
    if (chosen.bury !== null || noBury) {
      confirmButton.textContent = say(alarm ? "confirm-alarm" : "confirm-pass", values);
      confirmButton.hidden = false;
    }
  }

  function nameTreasure(treasure) {
    delete choicesBox.dataset.asking;
    chosen = { form: passForms[treasure], treasure: treasure, keep: null, bury: null };
    draw();
  }

  function ask(card) {
    // A card showing several treasures: which one is named?
    chosen = { form: null, treasure: null, keep: null, bury: null };
    choicesBox.dataset.asking = "true";
    draw();
    text.textContent = say("which", {});
    card.treasures.forEach(function (treasure) {
      var form = passForms[treasure];
      var button = document.createElement("button");
      button.type = "button";
      button.className = "secondary";
      button.textContent = form.dataset.treasureName;
      button.addEventListener("click", function () { nameTreasure(treasure); });
      choicesBox.appendChild(button);
    });
    var first = choicesBox.querySelector("button");
    if (first) first.focus();
  }

  function choose(card, treasure) {
    var pickable = chosen.form ? buryOptions(chosen.form) : [];
    if (chosen.form && chosen.bury === null && pickable.indexOf(card.id) >= 0) {
      chosen.bury = card.id;
      draw();
      confirmButton.focus();
      return;
    }
    if (alarm) {
      if (card.id in alarmForms) {
        chosen = { form: alarmForms[card.id], treasure: null, keep: card.id, bury: null };
        draw();
      }
      return;
    }
    if (treasure && treasure in passForms) return nameTreasure(treasure);
    if (card.treasures.length === 1) return nameTreasure(card.treasures[0]);
    if (card.treasures.length > 1) ask(card);
  }

  function cancel() {
    delete choicesBox.dataset.asking;
    chosen = { form: null, treasure: null, keep: null, bury: null };
    draw();
  }

  cards.forEach(function (card) {
    card.item.addEventListener("click", function (event) {
      if (!card.item.classList.contains("row-card--active")) return;
      var symbol = event.target.closest && event.target.closest("[data-treasure]");
      choose(card, symbol ? symbol.getAttribute("data-treasure") : null);
    });
    card.item.addEventListener("keydown", function (event) {
      if (!card.item.classList.contains("row-card--active")) return;
      if (event.key === "Enter" || event.key === " ") {
        event.preventDefault();
        choose(card, null);
      }
    });
  });

  confirmButton.addEventListener("click", function () {
    var form = chosen.form;
    if (!form) return;
    var select = form.querySelector("select[name=bury]");
    if (select && chosen.bury !== null) select.value = chosen.bury;
    var submit = form.querySelector("button[type=submit]");
    if (form.requestSubmit) { form.requestSubmit(submit); } else { submit.click(); }
  });
  cancelButton.addEventListener("click", cancel);
  document.addEventListener("keydown", function (event) {
    if (event.key === "Escape" && !bar.hidden) cancel();
  });

  if (hint) hint.hidden = false;
  draw();
})();
