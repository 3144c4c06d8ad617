// The invitation page's client seed (docs/shuffle.md "The construction"): fill the empty
// field with 128 random bits from the browser's own generator, so the player adds
// randomness the server cannot know in advance. The player may change or clear it.
(function () {
  "use strict";
  for (const field of document.querySelectorAll("input[data-client-seed]")) {
    if (field.value) continue;
    const bytes = new Uint8Array(16);
    window.crypto.getRandomValues(bytes);
    field.value = Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
  }
})();
