// Piratz for boardgame.io: a port of the project's engine, games/kinds/piratz/rules (rules
// P5-P18, the engine's own 50-card deck.json, the same actions and the same view shape), so the
// per-move game logic is comparable with the project's. Every move is `client: false`: the
// server alone runs it (as the project's service does) and the client waits for the server's
// state update.
'use strict';

const { INVALID_MOVE } = require('boardgame.io/core');
const deck = require(process.env.PIRATZ_DECK || '../../games/kinds/piratz/rules/deck.json');

const TREASURES = deck.treasure_types; // P1 order
const CUBE_VALUES = deck.cube_values;
const CARDS = [];
for (const card of deck.cards) CARDS[card.id] = card;
const RAT = (id) => CARDS[id].rat;
const SHOWS = TREASURES.map((t) => new Set(deck.cards.filter((c) => c.treasures[t]).map((c) => c.id)));

// P16: the next seat clockwise still holding a spade (seat itself last), or null.
function nextSeat(spades, seat, players) {
  for (let step = 1; step <= players; step++) {
    const candidate = (seat + step) % players;
    if (spades[candidate]) return candidate;
  }
  return null;
}

// P13: bury must be a card of the remaining row, or null exactly when it is empty.
function buryOk(bury, row) {
  if (row.length) return bury !== null && bury !== undefined && row.includes(bury);
  return bury === null || bury === undefined;
}

function legalActions(G, ctx, seat) {
  if (G.finished || String(seat) !== ctx.currentPlayer) return [];
  const faceUp = G.faceUp;
  if (G.step === 'alarm') {
    const actions = [];
    for (const keep of faceUp) {
      if (!RAT(keep)) continue;
      for (const bury of faceUp) if (bury !== keep) actions.push({ action: 'resolve_alarm', keep, bury });
    }
    return actions;
  }
  const actions = [];
  if (G.step === 'turn') {
    if (G.draw.length || G.discard.length) actions.push({ action: 'reveal' });
  } else {
    actions.push({ action: 'end_turn' });
  }
  TREASURES.forEach((treasure, index) => {
    const row = faceUp.filter((c) => !SHOWS[index].has(c));
    if (row.length) for (const bury of row) actions.push({ action: 'pass', treasure, bury });
    else actions.push({ action: 'pass', treasure, bury: null });
  });
  return actions;
}

// P13, P15-P18: bury, place the spade, hand on the turn or end the round (or game).
function placeSpade(G, ctx, events, seat, row, bury) {
  if (bury !== null && bury !== undefined) {
    row = row.filter((c) => c !== bury);
    G.buried.push([seat, bury]);
  }
  G.faceUp = row;
  G.spades[seat] = false;
  const players = ctx.numPlayers;
  const following = nextSeat(G.spades, seat, players);
  if (following !== null) {
    G.step = 'turn';
    events.endTurn({ next: String(following) });
    return;
  }
  // P17: buried cards are discarded, spades return, the face-up row stays.
  for (const [, card] of G.buried) G.discard.push(card);
  G.buried = [];
  G.spades = Array(players).fill(true);
  if (G.lastRound) {
    G.finished = true; // P18; endIf ends the match
    G.step = null;
  } else {
    G.round += 1;
    G.step = 'turn';
    events.endTurn({ next: String((seat + 1) % players) });
  }
}

// P19-P22, simplified: majorities per type win the type's cubes (no tie-breaks beyond seat).
function score(G) {
  const tallies = G.collected.map((cards) => {
    const t = TREASURES.map(() => 0);
    for (const id of cards) TREASURES.forEach((name, i) => { t[i] += CARDS[id].treasures[name] || 0; });
    return t;
  });
  const scores = tallies.map(() => 0);
  TREASURES.forEach((_, i) => {
    const ranked = tallies.map((t, seat) => [t[i], seat]).filter(([n]) => n > 0).sort((a, b) => b[0] - a[0] || a[1] - b[1]);
    G.cubes[i].forEach((value, place) => { if (place < ranked.length) scores[ranked[place][1]] += value; });
  });
  const best = Math.max(...scores);
  return { scores, winners: scores.map((s, seat) => (s === best ? seat : -1)).filter((s) => s >= 0) };
}

const Piratz = {
  name: 'piratz',
  minPlayers: 2,
  maxPlayers: 4,

  setup: ({ ctx, random }) => {
    const players = ctx.numPlayers;
    // P6: two players leave the six skull cards out. The deck is shuffled with ctx.random.
    const ids = deck.cards.filter((c) => players > 2 || !c.skull).map((c) => c.id);
    const draw = random.Shuffle(ids);
    const perType = players === 2 ? 1 : 2;
    const order = random.Shuffle([...CUBE_VALUES.keys()]);
    const cubes = TREASURES.map((_, t) =>
      order.slice(t * perType, (t + 1) * perType).map((i) => CUBE_VALUES[i]).sort((a, b) => b - a));
    return {
      round: 1, step: 'turn', lastRound: false, finished: false, reshuffles: 0,
      draw, discard: [], faceUp: [], buried: [],
      spades: Array(players).fill(true),
      collected: Array.from({ length: players }, () => []),
      cubes,
    };
  },

  moves: {
    // P10, P11, P18: turn up the top card, reshuffling the discard pile first if needed.
    reveal: {
      client: false,
      move: ({ G, random }) => {
        if (G.step !== 'turn') return INVALID_MOVE;
        if (!G.draw.length) {
          if (!G.discard.length) return INVALID_MOVE;
          G.reshuffles += 1;
          G.draw = random.Shuffle(G.discard);
          G.discard = [];
        }
        const card = G.draw.shift();
        const ratUp = G.faceUp.some(RAT);
        G.faceUp.push(card);
        if (!G.draw.length) G.lastRound = true;
        G.step = RAT(card) && ratUp ? 'alarm' : 'decide';
      },
    },
    end_turn: {
      client: false,
      move: ({ G, ctx, events }) => {
        if (G.step !== 'decide') return INVALID_MOVE;
        const seat = Number(ctx.currentPlayer);
        const next = nextSeat(G.spades, seat, ctx.numPlayers);
        G.step = 'turn';
        if (next !== seat) events.endTurn({ next: String(next) });
      },
    },
    // P12: take every face-up card showing `treasure`, then bury and place the spade.
    pass: {
      client: false,
      move: ({ G, ctx, events }, treasure, bury) => {
        if (G.step === 'alarm') return INVALID_MOVE;
        const index = TREASURES.indexOf(treasure);
        if (index < 0) return INVALID_MOVE;
        const seat = Number(ctx.currentPlayer);
        const shows = SHOWS[index];
        const taken = G.faceUp.filter((c) => shows.has(c));
        const row = taken.length ? G.faceUp.filter((c) => !shows.has(c)) : G.faceUp.slice();
        if (!buryOk(bury, row)) return INVALID_MOVE;
        if (taken.length) G.collected[seat].push(...taken);
        placeSpade(G, ctx, events, seat, row, bury);
      },
    },
    // P14: keep one of the two face-up rats, then bury and place the spade.
    resolve_alarm: {
      client: false,
      move: ({ G, ctx, events }, keep, bury) => {
        if (G.step !== 'alarm') return INVALID_MOVE;
        if (!G.faceUp.includes(keep) || !RAT(keep)) return INVALID_MOVE;
        const seat = Number(ctx.currentPlayer);
        const row = G.faceUp.filter((c) => c !== keep);
        if (!buryOk(bury, row)) return INVALID_MOVE;
        G.collected[seat].push(keep);
        placeSpade(G, ctx, events, seat, row, bury);
      },
    },
  },

  endIf: ({ G }) => (G.finished ? score(G) : undefined),

  // Hidden information: the draw pile's order never leaves the server (only its size);
  // the unseen cards are listed sorted by id, as the project's view does. Each seat's
  // view carries its own legal actions, as the project's answer does.
  playerView: ({ G, ctx, playerID }) => {
    const seat = playerID === null || playerID === undefined ? null : Number(playerID);
    return {
      game: 'piratz',
      players: ctx.numPlayers,
      seat,
      status: G.finished ? 'finished' : 'active',
      round: G.round,
      current_seat: G.finished ? null : Number(ctx.currentPlayer),
      phase: G.step,
      last_round: G.lastRound,
      draw_pile: G.draw.length,
      discard_pile: G.discard.length,
      face_up: G.faceUp.map((c) => CARDS[c]),
      buried: G.buried.map(([s, c]) => ({ seat: s, card: CARDS[c] })),
      spades: G.spades.slice(),
      cubes: Object.fromEntries(TREASURES.map((name, i) => [name, G.cubes[i].slice()])),
      collected: G.collected.map((cards) => ({ count: cards.length, cards: cards.map((c) => CARDS[c]) })),
      unseen: [...G.draw, ...G.discard].sort((a, b) => a - b).map((c) => CARDS[c]),
      legal_actions: seat === null ? [] : legalActions(G, ctx, seat),
      result: G.finished ? score(G) : null,
    };
  },
};

module.exports = { Piratz, legalActions };
