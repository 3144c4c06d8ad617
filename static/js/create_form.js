// The create form (templates/games/my_games.html): show only what the chosen game allows,
// from #games-offered (games.lobby_views.games_offered: its player counts, blind mode and
// bot levels). Fields a game cannot use are hidden and disabled, so they are not sent.
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
})();
