// Replay: the left and right arrow keys step back and forward through the moves.
// Only an enhancement: the links it follows work without JavaScript.
(function () {
  "use strict";
  document.addEventListener("keydown", function (event) {
    if (event.altKey || event.ctrlKey || event.metaKey || event.shiftKey) return;
    var target = event.target;
    if (target && (target.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(target.tagName))) {
      return; // typing a move number must not jump away
    }
    var rel = { ArrowLeft: "prev", ArrowRight: "next" }[event.key];
    if (!rel) return;
    var link = document.querySelector('a[data-replay-step="' + rel + '"]');
    if (link) {
      event.preventDefault();
      window.location.href = link.href;
    }
  });
})();
