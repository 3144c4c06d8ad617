// The create form (templates/games/my_games.html): show only what the chosen game allows,
// from #games-offered (games.views.lobby.games_offered: its player counts, blind mode and
// bot levels). Fields a game cannot use are hidden and disabled, so they are not sent.
// It also puts the people ticked under "played with" into the player fields.
// Without JavaScript every field shows, the notes above the form say what each game
// allows, and the server refuses what a game does not (do_create_game).
(function () {
  "use strict";
  var form = document.querySelector("form[data-create-form]");
  var data = document.getElementById("games-offered");
  if (!form || !data || !form.elements.game) return;
  var games = {};
  JSON.parse(data.textContent).forEach(function (game) { games[game.game] = game; });

  function show(name, on) {
    var row = form.querySelector('[data-field="' + name + '"]');
    if (!row) return;
    row.hidden = !on;
    row.querySelectorAll("input, select").forEach(function (field) { field.disabled = !on; });
  }

  function update() {
    var game = games[form.elements.game.value];
    if (!game) return;
    for (var number = 2; number <= 4; number++) {
      show("player_" + number, number <= game.max_players);
      show("bot_" + number, number <= game.max_players && game.bots.length > 0);
      var bot = form.elements["bot_" + number];
      if (bot) {
        Array.prototype.forEach.call(bot.options, function (option) {
          option.hidden = option.value !== "" && game.bots.indexOf(option.value) < 0;
          if (option.hidden && option.selected) bot.value = "";
        });
      }
    }
    show("blind", game.blind);
  }

  form.elements.game.addEventListener("change", update);
  update();

  // "People you have played with": ticking one puts their address into the first empty
  // player field that is shown (not given to a bot); unticking takes it out again. Without
  // this script the ticked boxes are posted and the server fills the same places
  // (games.views.lobby._with_partners), skipping an address already typed.
  function playerFields() {
    var fields = [];
    for (var number = 2; number <= 4; number++) {
      var field = form.elements["player_" + number];
      var bot = form.elements["bot_" + number];
      if (field && !field.disabled && !(bot && bot.value)) fields.push(field);
    }
    return fields;
  }
  function holding(email) {
    var wanted = email.toLowerCase();
    return playerFields().filter(function (field) {
      return field.value.trim().toLowerCase() === wanted;
    });
  }
  form.querySelectorAll('input[name="with"][data-email]').forEach(function (box) {
    var email = box.getAttribute("data-email");
    box.checked = holding(email).length > 0; // a page shown again keeps its fields
    box.addEventListener("change", function () {
      if (box.checked) {
        if (holding(email).length) return;
        var empty = playerFields().filter(function (field) { return !field.value.trim(); })[0];
        if (empty) empty.value = email;
        else box.checked = false; // no place left: the box says what the fields hold
      } else {
        holding(email).forEach(function (field) { field.value = ""; });
      }
    });
  });
})();
