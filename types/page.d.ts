// Types of what the server sends the pages (docs/protocol.md), for the JSDoc of
// src/ono99/web/static/js (checked by `npm run typecheck`; nothing is compiled).
// `View`'s keys are ono99.view.VIEW_JSON's: tests/web/test_page_code.py holds them equal.

/** A seat's view of the game (`state` messages' `view`, VIEW_JSON). */
interface View {
  seat: number | null;
  rules: string;
  options: Record<string, unknown>;
  names: string[];
  hand: string[];
  hand_sizes: number[];
  total: number;
  direction: 1 | -1;
  to_move: number | null;
  owes_two: number | null;
  plays_left: number;
  legal: string[];
  bust_mode: boolean;
  discard: string[];
  draw_pile: number;
  laid_down: string[][];
  out: number[];
  round_out: number[];
  tokens: number[] | null;
  scores: number[] | null;
  round: number;
  winner: number | number[] | null;
  pending_draw: number | null;
}

/** What words.js reads of a view or of the companion's state (a subset of View). */
interface Standing {
  out?: number[];
  round_out?: number[];
  winner?: number | number[] | null;
  tokens?: number[] | null;
  scores?: number[] | null;
}

/** One value of a `choice` option (ChoiceOut). */
interface ChoiceWords { value: string; label: string }

/** One option a preset takes (OptionOut, R-SET-6). */
interface OptionWords {
  name: string;
  label: string;
  type: "bool" | "int" | "choice";
  default: boolean | number | string;
  choices: ChoiceWords[] | null;
  min: number | null;
  max: number | null;
  needs: Record<string, string> | null;
}

/** A preset as the page shows it (PresetOut). */
interface PresetWords {
  name: string;
  title: string;
  players: [number, number];
  options: OptionWords[];
  cards: Record<string, string>;
  help: string[];
}

/** GET /api/i18n/{lang}. */
interface Catalog {
  lang: string;
  dir: string;
  messages: Record<string, string>;
  plurals: Record<string, string[]>;
  presets: PresetWords[];
}

/** Values filled into a message's {placeholders}. */
type Params = Record<string, string | number>;

/** A JSON value as parseJSON returns it (integers beyond 2^53 as BigInt). */
type Json = null | boolean | number | bigint | string | Json[] | { [key: string]: Json };

interface JSON {
  /** JSON.rawJSON (ES2025): where the browser has it. */
  rawJSON?: (text: string) => unknown;
}
