// The Rattenscharf board's zoom (games/kinds/rattenscharf/templates/games/rattenscharf/board.html): buttons and the
// + and - keys scale the board inside its scrolling frame, keeping the middle of the
// frame in view. Panning is the frame's own scrolling (touch, wheel, scroll bars, keys).
// The board's normal size comes from its data-columns and data-rows, set here as CSS
// variables (a style attribute would be refused by the Content-Security-Policy): the
// stylesheet fits the whole board into its frame with cells no smaller than a readable
// minimum; without JavaScript the board fits its frame's width.
(function () {
  "use strict";
  var STEP = 1.25, MIN = 0.5, MAX = 3;

  function setUp(board) {
    if (board.dataset.zoomReady) return;
    board.dataset.zoomReady = "true";
    var viewport = board.querySelector("[data-board-viewport]");
    var controls = board.querySelector("[data-zoom-controls]");
    var zoom = 1;
    board.style.setProperty("--rs-columns", board.dataset.columns);
    board.style.setProperty("--rs-rows", board.dataset.rows);

    function zoomBy(factor) {
      var next = Math.min(MAX, Math.max(MIN, zoom * factor));
      if (next === zoom) return;
      // The point at the frame's middle stays at its middle.
      var middleX = (viewport.scrollLeft + viewport.clientWidth / 2) / zoom;
      var middleY = (viewport.scrollTop + viewport.clientHeight / 2) / zoom;
      zoom = next;
      board.style.setProperty("--rs-zoom", String(zoom));
      board.dataset.zoom = String(zoom);
      viewport.scrollLeft = middleX * zoom - viewport.clientWidth / 2;
      viewport.scrollTop = middleY * zoom - viewport.clientHeight / 2;
    }

    controls.hidden = false;
    controls.addEventListener("click", function (event) {
      var button = event.target.closest("[data-zoom]");
      if (button) zoomBy(button.dataset.zoom === "in" ? STEP : 1 / STEP);
    });
    board.addEventListener("keydown", function (event) {
      if (event.altKey || event.ctrlKey || event.metaKey) return;
      if (event.key === "+" || event.key === "=") { zoomBy(STEP); event.preventDefault(); }
      if (event.key === "-" || event.key === "_") { zoomBy(1 / STEP); event.preventDefault(); }
    });
  }

  document.querySelectorAll(".rs-board[data-board]").forEach(setUp);
})();
