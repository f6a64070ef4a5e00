// Seat names: the server's rule (snakes/server/rooms/names.py), checked in the page before
// a name is sent or a local game starts, so that the page refuses what the server would,
// and nothing else. Both read Unicode's properties (default-ignorable, variation selector,
// emoji), never a list kept by hand; tests/browser/test_names_page.py holds the two to
// each other.

export const NAME_MAX = 20; // characters; an emoji sequence counts as one
export const NAME_MAX_CODE_POINTS = 4 * NAME_MAX;
export const MAX_MARKS = 4; // combining marks on one character
const EMOJI_JOINED = 4; // emoji one ZWJ sequence may join

// A possible emoji sequence (UTS #51, section 1.4.9): a flag, or an emoji with a skin
// tone, VS16 (and a keycap's U+20E3) or tags; up to four of them joined by ZWJ.
const ELEMENT = String.raw`(?:\p{Regional_Indicator}\p{Regional_Indicator}|\p{Emoji}(?:\p{Emoji_Modifier}|\u{FE0F}\u{20E3}?|[\u{E0020}-\u{E007E}]+\u{E007F})?)`;
const SEQUENCE = String.raw`${ELEMENT}(?:\u{200D}${ELEMENT}){0,${EMOJI_JOINED - 1}}`;
const EMOJI = new RegExp(`^${SEQUENCE}$`, "u");
const TOKEN = new RegExp(`${SEQUENCE}|[^]`, "gu");
const INVISIBLE = /[\p{Default_Ignorable_Code_Point}\p{Variation_Selector}]/u;
const CONTROL = /[\p{Cc}\p{Cf}\p{Cs}\p{Co}\p{Cn}\p{Zl}\p{Zp}]/u;
const MARK = /^\p{M}$/u;
const BLANK = /^[\p{White_Space}\p{M}\u2800]$/u; // no ink of their own
const TRIM = /^\p{White_Space}+|\p{White_Space}+$/gu;

/** The name as the server keeps it: NFC, white space cut from both ends. */
export function trimName(name) {
  return String(name).normalize("NFC").replace(TRIM, "");
}

/** A name's characters as the rule counts them: an emoji sequence is one. */
export function characters(name) {
  return String(name).match(TOKEN) || [];
}

const visible = (ch) => (ch.length > 1 && EMOJI.test(ch)) || !(BLANK.test(ch) || INVISIBLE.test(ch) || CONTROL.test(ch));

/**
 * What is wrong with a name, by the server's rule, in its words: "" (nothing), "length",
 * "invisible", "control", "blank" (nothing visible) or "marks" (too many on one character).
 */
export function nameProblem(name) {
  const trimmed = trimName(name);
  const chars = characters(trimmed);
  if (chars.length < 1 || chars.length > NAME_MAX || Array.from(trimmed).length > NAME_MAX_CODE_POINTS) return "length";
  // Outside an emoji sequence a character stands alone: none of these may.
  const single = chars.filter((ch) => Array.from(ch).length === 1);
  if (single.some((ch) => INVISIBLE.test(ch))) return "invisible";
  if (single.some((ch) => CONTROL.test(ch))) return "control";
  if (!chars.some(visible)) return "blank";
  let marks = 0;
  for (const ch of chars) {
    marks = MARK.test(ch) ? marks + 1 : 0;
    if (marks > MAX_MARKS) return "marks";
  }
  return "";
}
