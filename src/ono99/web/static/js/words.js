// Words for what the server sent: card names, why a card cannot be played, whose turn
// it is. Display only — the server decides what is legal (view.legal); these mirror
// ono99/tui/texts.py, with the same msgids. Announcements are the server's own narration
// (each event's `text`, ono99/narrate.py): the page never words an event itself.
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

/** The name of a card code as the preset names it: the 99 card (code `99`, all digits
 * like a number card, so it is looked up before the number test) is "ONO 99" in
 * mattel2022 and "O'NO 99" in the 1980 presets. */
export function cardName(code, preset) {
  code = String(code);
  if (code !== "99" && /^\d+$/.test(code)) return code;
  switch (code) {
    case "-10": return t("-10");
    case "R": return t("Reverse");
    case "P2": return preset === "mattel2022" ? t("Play 2") : t("Double Play");
    case "H": return t("Hold");
    case "99": return preset === "mattel2022" ? t("ONO 99") : t("O'NO 99");
    case "99x4": return t("four ONO 99 cards"); // only mattel2022 has it
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
