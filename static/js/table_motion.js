// The table's short animations, an enhancement only (templates/games/game.html includes it;
// docs/look.md). The live table (static/js/table.js) swaps #table-live-region for fresh HTML
// and fires "table:updated"; this script compares the cards it saw before with the cards
// now shown and animates what changed:
//   - a card new in the face-up row (a reveal) comes from the draw pile onto the row;
//   - a card that left the row for a collection (a pass, a kept rat) flies to that seat,
//     whose stacks then bump; a card buried under a spade slides to its new place.
// Cards are found by their stable attributes: data-card on each card, data-place
// ("row", "collection", "buried") on their containers, data-seat and data-count on seats.
// Nothing moves on the first load, and nothing under prefers-reduced-motion.
(() => {
  "use strict";

  const DURATION_MS = 340;
  const EASING = "cubic-bezier(.2, .7, .3, 1)";
  const lessMotion = window.matchMedia("(prefers-reduced-motion: reduce)");

  // What the reader last saw: per card id, its place, seat and box (page coordinates), and
  // a copy of its drawing to fly from there; per seat, its number of collected cards.
  let seen = null;

  function pageBox(node) {
    const box = node.getBoundingClientRect();
    return { left: box.left + window.scrollX, top: box.top + window.scrollY, width: box.width, height: box.height };
  }

  function seatOf(node) {
    const seat = node.closest("[data-seat]");
    return seat ? seat.dataset.seat : null;
  }

  function look() {
    const cards = new Map();
    document.querySelectorAll("[data-place] [data-card]").forEach((card) => {
      const place = card.closest("[data-place]");
      cards.set(card.dataset.card, {
        place: place.dataset.place,
        seat: seatOf(place),
        box: pageBox(card),
        drawing: place.dataset.place === "row" ? card.cloneNode(true) : null,
      });
    });
    const counts = new Map();
    document.querySelectorAll(".players [data-seat][data-count]").forEach((seat) => {
      counts.set(seat.dataset.seat, Number(seat.dataset.count));
    });
    return { cards, counts };
  }

  function seatNode(seat) {
    return document.querySelector(`.players [data-seat="${CSS.escape(seat)}"]`);
  }

  // A reveal: the card comes from the draw pile (or from just above the row).
  function arrive(card) {
    const pile = document.querySelector("[data-draw-pile]");
    const to = pageBox(card);
    let from = `translate(0, ${-to.height / 2}px) scale(.8)`;
    if (pile) {
      const at = pageBox(pile);
      from = `translate(${at.left - to.left}px, ${at.top - to.top}px) scale(.35)`;
    }
    card.animate(
      [{ transform: from, opacity: 0.2 }, { transform: "none", opacity: 1 }],
      { duration: DURATION_MS, easing: EASING },
    );
  }

  // A card that left the row: its old drawing flies from the row to where it went.
  function fly(before, target) {
    if (!before.drawing || !target) return;
    const to = pageBox(target);
    const ghost = before.drawing;
    ghost.classList.add("motion-ghost");
    ghost.setAttribute("aria-hidden", "true");
    ghost.removeAttribute("role");
    // Only a picture in flight: no card id or name stays on the page once the card has
    // left the row (in a blind game a collected card's id must not be on the page).
    for (const node of [ghost, ...ghost.querySelectorAll("*")]) {
      for (const name of ["data-card", "aria-label", "title", "id"]) node.removeAttribute(name);
    }
    // Nor its written number and name (an SVG card's <text> and <title>): a card the row
    // lost to the discard pile is hidden in a blind game (P23), picture aside.
    for (const words of ghost.querySelectorAll("title, text")) words.remove();
    ghost.style.left = `${before.box.left}px`;
    ghost.style.top = `${before.box.top}px`;
    ghost.style.width = `${before.box.width}px`;
    ghost.style.height = `${before.box.height}px`;
    document.body.append(ghost);
    const dx = to.left + to.width / 2 - (before.box.left + before.box.width / 2);
    const dy = to.top + to.height / 2 - (before.box.top + before.box.height / 2);
    const flight = ghost.animate(
      [
        { transform: "none", opacity: 1 },
        { transform: `translate(${dx}px, ${dy}px) scale(.3)`, opacity: 0.4 },
      ],
      { duration: DURATION_MS, easing: EASING },
    );
    flight.finished.catch(() => {}).then(() => ghost.remove());
  }

  // A card that moved and is shown in both places (a buried one): it slides.
  function slide(card, before) {
    const to = pageBox(card);
    card.animate(
      [
        { transform: `translate(${before.box.left - to.left}px, ${before.box.top - to.top}px)` },
        { transform: "none" },
      ],
      { duration: DURATION_MS, easing: EASING },
    );
  }

  function bump(seat) {
    const node = seatNode(seat);
    const stacks = node && (node.querySelector("[data-stacks]") || node.querySelector("[data-seat-avatar]"));
    if (stacks) {
      stacks.animate(
        [{ transform: "scale(1)" }, { transform: "scale(1.15)" }, { transform: "scale(1)" }],
        { duration: DURATION_MS, easing: "ease-out", delay: DURATION_MS / 2 },
      );
    }
  }

  function animate(before, after) {
    const grown = [...after.counts].filter(([seat, count]) => count > (before.counts.get(seat) ?? count));
    after.cards.forEach((now, id) => {
      const was = before.cards.get(id);
      const card = document.querySelector(`[data-place="${now.place}"] [data-card="${CSS.escape(id)}"]`);
      if (!card) return;
      if (now.place === "row" && (!was || was.place !== "row")) arrive(card);
      else if (now.place === "buried" && was && was.place === "row") slide(card, was);
    });
    before.cards.forEach((was, id) => {
      if (was.place !== "row") return;
      const now = after.cards.get(id);
      if (now && now.place !== "collection") return; // still in the row, or slid (above)
      // To the seat that holds it now; in blind mode (no cards shown) to the seat that grew.
      const seat = now ? now.seat : grown.length === 1 ? grown[0][0] : null;
      if (seat !== null) fly(was, seatNode(seat));
    });
    grown.forEach(([seat]) => bump(seat));
  }

  function remember() {
    seen = look();
  }

  // The live table may say just before it swaps, so positions are the freshest; if it does
  // not, the look taken after the last change (or the first load) is the "before".
  document.addEventListener("table:updating", remember);
  document.addEventListener("table:updated", () => {
    const before = seen;
    const after = look();
    seen = after;
    if (before && !lessMotion.matches) animate(before, after);
  });
  window.addEventListener("resize", remember);
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", remember);
  else remember();
})();
