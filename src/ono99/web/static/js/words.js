// Words for what the server sent: card names, why a card cannot be played, whose turn
// it is, announcements. Display only — the server decides what is legal (view.legal);
// these mirror ono99/tui/texts.py and ono99/narrate.py, with the same msgids.
import { t, tn } from "./i18n.js";

/** What the page needs to know of a preset to word things (never to judge moves). */
export function rulesFacts(preset, options = {}) {
  const is2022 = preset === "mattel2022";
  let mode = "tokens";
  if (is2022) mode = "elimination";
  else if (preset === "classic1980" && options.scoring === "points") mode = "points";
  return {
    preset,
    limitOver: preset === "gamerules", // only exceeding 99 loses
    floorZero: is2022,
    play2FirstOk: is2022,
    four99: is2022,
    hold: !is2022,
    ninetyNineSets: preset === "gamerules",
    zeroEnding99: preset === "classic1980" && options.zero_ending_99 === true,
    drawPenalty: !is2022 && options.draw_penalty === true,
    mode,
    target: Number(options.target ?? 100),
  };
}

export function presetTitle(preset) {
  if (preset === "mattel2022") return t("ONO 99 (Mattel 2022)");
  if (preset === "gamerules") return t("O'NO 99 (1980, exceeding 99 loses)");
  return t("O'NO 99 (1980)");
}

export function cardName(code, preset) {
  code = String(code);
  if (/^\d+$/.test(code)) return code;
  switch (code) {
    case "-10": return t("-10");
    case "R": return t("Reverse");
    case "P2": return preset === "mattel2022" ? t("Play 2") : t("Double Play");
    case "H": return t("Hold");
    case "99": return preset === "mattel2022" ? t("ONO 99") : t("O'NO 99");
    case "99x4": return t("four ONO 99 cards");
    case "draw": return t("draw");
    default: return code;
  }
}

export function directionText(d) {
  return d === 1 ? t("clockwise") : t("counterclockwise");
}

/** Why the viewer cannot make `code` now, or null when view.legal holds it. */
export function whyNot(code, view) {
  if ((view.legal || []).includes(code)) return null;
  const r = rulesFacts(view.rules, view.options);
  const name = cardName(code, view.rules);
  if (view.to_move === null || view.to_move === undefined) return t("The game is over");
  if (code === "draw") return t("You have no card to draw now");
  if (view.to_move !== view.seat) {
    return t("It is not your turn: {name} plays now", { name: view.names[view.to_move] });
  }
  if (code === "99x4") {
    if (!r.four99) return t("These rules have no four-card ONO 99 discard");
    return t("You need four ONO 99 cards to discard them together");
  }
  if (!(view.hand || []).includes(code)) return t("You have no {card} in your hand", { card: name });
  if (view.bust_mode) {
    return t("You have no safe card: give up one of your number cards (it is not counted and you are out of the round)");
  }
  if (code === "99") {
    if (r.zeroEnding99) {
      if (view.total % 10 === 0) return t("Only one {card} card may be played per turn", { card: name });
      return t("{card} may be played only when the total ends in 0", { card: name });
    }
    return t("The {card} card can never be played: it stays in your hand", { card: name });
  }
  if (code === "P2" && view.plays_left === 2 && !r.play2FirstOk) {
    return t("A {card} cannot be the first of your two cards", { card: name });
  }
  if (/^\d+$/.test(code)) {
    const total = view.total + Number(code);
    if (r.limitOver) return t("{card} would take the total to {total}: going over 99 loses", { card: name, total });
    return t("{card} would take the total to {total}: reaching 99 loses", { card: name, total });
  }
  return t("You cannot play {card} now", { card: name });
}

export function winnerText(winner, names, you) {
  if (winner === null || winner === undefined) return t("No winner yet");
  if (Array.isArray(winner)) return t("{names} share the win", { names: winner.map((s) => names[s]).join(", ") });
  if (winner === you) return t("You win the game!");
  return t("{name} wins the game!", { name: names[winner] });
}

/** Whose move it is, with the Play 2 duty and a pending draw (texts.turn_text). */
export function turnText(view) {
  const names = view.names;
  if (view.to_move === null || view.to_move === undefined) return winnerText(view.winner, names, view.seat);
  const mover = names[view.to_move];
  if (view.seat === null || view.seat === undefined || view.to_move !== view.seat) {
    if (view.seat !== null && view.pending_draw === view.seat) return t("Draw your card before {name} plays!", { name: mover });
    if (view.owes_two === view.to_move) return t("{name} must play two cards", { name: mover });
    return t("{name} is playing…", { name: mover });
  }
  if (view.bust_mode) return t("No safe card: choose a number card to give up");
  if (view.pending_draw === view.seat) return t("Draw your card, then play your second card");
  if (view.owes_two === view.seat) {
    if (view.plays_left === 2) return t("Your turn: play two cards (first card)");
    return t("Your turn: play your second card");
  }
  return t("Your turn: play a card");
}

export function scoreText(view, seat) {
  const parts = [];
  if (view.tokens) parts.push(tn("{count} token", "{count} tokens", view.tokens[seat]));
  if (view.scores) parts.push(tn("{count} point", "{count} points", view.scores[seat]));
  return parts.join(", ");
}

export function statusText(view, seat) {
  if ((view.out || []).includes(seat)) return t("out of the game");
  if ((view.round_out || []).includes(seat)) return t("out of this round");
  return "";
}

const cardCode = (c) => (c === null || c === undefined ? null : String(c));

/** One announcement line for a server event {kind, seat, card, total, info}, or null.
 * Events of the viewer's own seat are told in the second person (narrate.narrate). */
export function narrate(ev, view) {
  const names = view.names || [];
  const preset = view.rules;
  const you = view.seat;
  const info = ev.info || {};
  const k = ev.kind;
  const who = ev.seat !== null && ev.seat !== undefined ? names[ev.seat] : "";
  const card = cardCode(ev.card);
  const cname = card === null ? "" : cardName(card, preset);
  const mine = you !== null && you !== undefined && ev.seat === you;
  const drawPenalty = rulesFacts(preset, view.options).drawPenalty;
  if (k === "game_over") {
    const w = info.winner;
    if (w === null || w === undefined) return null;
    return winnerText(w, names, you);
  }
  if (mine && k !== "reverse" && k !== "round_end") {
    switch (k) {
      case "play": return t("You play {card} — total {total}", { card: cname, total: ev.total });
      case "four99": return t("You discard four ONO 99 cards — total {total}", { total: ev.total });
      case "round_start": return t("Round {round}: you start", { round: info.round });
      case "draw": {
        const count = Number(info.count ?? 1);
        if (count === 0) return t("You cannot draw: no cards are left");
        if (Array.isArray(info.cards) && info.cards.length) {
          const shown = info.cards.map((c) => cardName(String(c), preset)).join(" ");
          return tn("You draw {cards}", "You draw {cards}", info.cards.length, { cards: shown });
        }
        if (drawPenalty || count !== 1) return tn("You draw {count} card", "You draw {count} cards", count);
        return null;
      }
      case "owes_two": return t("You must play two cards");
      case "bust":
        if (card !== null) return t("You have no safe card and give up {card}", { card: cname });
        return t("You have no safe card");
      case "out_of_round": return t("You are out of the round");
      case "token_lost": {
        const n = Number(info.tokens);
        return tn("You lose a token ({count} left)", "You lose a token ({count} left)", n);
      }
      case "eliminated": return t("You are out of the game");
      case "draw_lost": return t("You did not draw in time and lose that card");
      default: return null;
    }
  }
  switch (k) {
    case "play": return t("{name} plays {card} — total {total}", { name: who, card: cname, total: ev.total });
    case "four99": return t("{name} discards four ONO 99 cards — total {total}", { name: who, total: ev.total });
    case "round_start": return t("Round {round}: {name} starts", { round: info.round, name: who });
    case "draw": {
      const count = Number(info.count ?? 1);
      if (count === 0) return t("{name} cannot draw: no cards are left", { name: who });
      if (drawPenalty || count !== 1) return tn("{name} draws {count} card", "{name} draws {count} cards", count, { name: who });
      return null;
    }
    case "reshuffle": return t("The discard pile is shuffled into a new draw pile");
    case "reverse": return info.direction === 1 ? t("Play now goes clockwise") : t("Play now goes counterclockwise");
    case "owes_two": return t("{name} must play two cards", { name: who });
    case "bust":
      if (card !== null) return t("{name} has no safe card and plays {card}", { name: who, card: cname });
      return t("{name} has no safe card", { name: who });
    case "out_of_round": return t("{name} is out of the round", { name: who });
    case "token_lost": {
      const n = Number(info.tokens);
      return tn("{name} loses a token ({count} left)", "{name} loses a token ({count} left)", n, { name: who });
    }
    case "eliminated": return t("{name} is out of the game", { name: who });
    case "draw_lost": return t("{name} did not draw in time and loses that card", { name: who });
    case "round_end":
      if (Array.isArray(info.scores)) {
        const scores = names.map((n, s) => `${n} ${info.scores[s]}`).join(", ");
        return t("Round {round} ends. Scores: {scores}", { round: info.round, scores });
      }
      return t("Round {round} ends", { round: info.round });
    default: return null;
  }
}

/** Announcements worked out from two consecutive views, for a server that sends no
 * events: a card played, a new round, a player out, the winner. */
export function diffLines(prev, cur) {
  if (!prev || !cur) return [];
  const lines = [];
  const names = cur.names || [];
  const you = cur.seat;
  const prevOut = new Set(prev.out || []);
  if (cur.round === prev.round) {
    const added = (cur.discard || []).length - (prev.discard || []).length;
    if (added === 1 && prev.to_move !== null && prev.to_move !== undefined) {
      const card = cur.discard[cur.discard.length - 1];
      const ev = { kind: "play", seat: prev.to_move, card, total: cur.total };
      lines.push(narrate(ev, cur));
    }
    if (cur.direction !== prev.direction) lines.push(narrate({ kind: "reverse", info: { direction: cur.direction } }, cur));
  } else {
    lines.push(narrate({ kind: "round_end", info: { round: prev.round } }, cur));
  }
  for (const s of cur.out || []) if (!prevOut.has(s)) lines.push(narrate({ kind: "eliminated", seat: s }, cur));
  if (cur.winner !== null && cur.winner !== undefined && (prev.winner === null || prev.winner === undefined)) {
    lines.push(winnerText(cur.winner, names, you));
  }
  return lines.filter(Boolean);
}

/** The rules in short paragraphs (texts.rules_help), for the help panel. */
export function rulesHelp(preset, options = {}) {
  const r = rulesFacts(preset, options);
  const c = (code) => cardName(code, preset);
  const lines = [presetTitle(preset)];
  if (r.limitOver) {
    lines.push(t("Take turns playing one card onto the pile and say the new total. A card that takes the total over 99 loses; 99 itself is fine."));
  } else {
    lines.push(t("Take turns playing one card onto the pile and say the new total. A card that takes the total to 99 or more loses."));
  }
  lines.push(t("You must play a safe card if you have one. After playing you draw back to four cards."));
  if (r.drawPenalty) {
    lines.push(t("Draw penalty: drawing is your own move. If anyone plays a card before you draw, that card is lost and you play on with fewer cards."));
  }
  if (r.mode === "elimination") lines.push(t("A player with no safe card is out of the game. The last player left wins."));
  else if (r.mode === "tokens") lines.push(t("A player with no safe card loses the round and a token; with no tokens left they are out. The last player left wins."));
  else {
    lines.push(t("A player with no safe card gives up a number card and is out of the round. When one player is left, everyone scores the cards in hand (numbers: face value, 99: 20, other cards: 15, out of the round: 25). At {target} points a player is out; fewest points wins.", { target: r.target }));
  }
  lines.push(t("Cards:"));
  lines.push(t("0 to 10: add their value."));
  lines.push(r.floorZero ? t("-10: subtract ten (the total never goes below 0).") : t("-10: subtract ten (the total may go below 0)."));
  lines.push(t("{card}: reverse the direction of play (with two players: the other plays again).", { card: c("R") }));
  if (r.play2FirstOk) {
    lines.push(t("{card}: the next player must play two cards, unless they answer with {reverse} or {card}, which passes the duty on.", { card: c("P2"), reverse: c("R") }));
  } else {
    lines.push(t("{card}: the next player must play two cards, unless they answer with {reverse} or {hold}, which passes the duty on.", { card: c("P2"), reverse: c("R"), hold: c("H") }));
  }
  if (r.hold) lines.push(t("{card}: adds 0.", { card: c("H") }));
  if (r.ninetyNineSets) lines.push(t("{card}: sets the total to 99.", { card: c("99") }));
  else if (r.zeroEnding99) lines.push(t("{card}: adds 0, only when the total ends in 0 (one per turn).", { card: c("99") }));
  else lines.push(t("{card}: can never be played.", { card: c("99") }));
  if (r.four99) lines.push(t("Four {card} cards can be discarded together as your play.", { card: c("99") }));
  return lines;
}
