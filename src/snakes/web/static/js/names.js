// Seat names by the server's rule (server/rooms/names.py: why each part), on the
// browser's Unicode data; tests/browser/test_names_page.py holds the two together.

export const NAME_MAX = 20; // an emoji sequence counts as one
export const NAME_MAX_CODE_POINTS = 4 * NAME_MAX;
export const MAX_MARKS = 4;
const EMOJI_JOINED = 4;
// UTS #51's possible emoji sequence: a flag, or an emoji with a skin tone, VS16 (a keycap) or tags.
const ELEMENT = String.raw`(?:\p{Regional_Indicator}\p{Regional_Indicator}|\p{Emoji}(?:\p{Emoji_Modifier}|\u{FE0F}\u{20E3}?|[\u{E0020}-\u{E007E}]+\u{E007F})?)`;
const SEQUENCE = String.raw`${ELEMENT}(?:\u{200D}${ELEMENT}){0,${EMOJI_JOINED - 1}}`;
const EMOJI = new RegExp(`^${SEQUENCE}$`, "u");
const TOKEN = new RegExp(`${SEQUENCE}|[^]`, "gu");
const INVISIBLE = /[\p{Default_Ignorable_Code_Point}\p{Variation_Selector}]/u;
const CONTROL = /[\p{Cc}\p{Cf}\p{Cs}\p{Co}\p{Cn}\p{Zl}\p{Zp}]/u;
const MARK = /^\p{M}$/u;
const BLANK = /^[\p{White_Space}\p{M}\u2800]$/u;
const TRIM = /^\p{White_Space}+|\p{White_Space}+$/gu;

export function trimName(name) {
  return String(name).normalize("NFC").replace(TRIM, "");
}

export function characters(name) {
  return String(name).match(TOKEN) || [];
}

const visible = (ch) => (ch.length > 1 && EMOJI.test(ch)) || !(BLANK.test(ch) || INVISIBLE.test(ch) || CONTROL.test(ch));

// "" or what is wrong, in the server's words: length, invisible, control, blank, marks.
export function nameProblem(name) {
  const trimmed = trimName(name);
  const chars = characters(trimmed);
  if (chars.length < 1 || chars.length > NAME_MAX || Array.from(trimmed).length > NAME_MAX_CODE_POINTS) return "length";
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
