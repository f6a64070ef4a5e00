// The functions of an ES module and how many lines each spans, from a small tokenizer:
// comments, strings, template literals (with their ${} parts) and regular expression
// literals are read as whole tokens, so a brace inside one never counts. A function is
// `function name(...) {`, a method `name(...) {`, or an arrow `(...) => {`; it spans
// from its header's first line to its closing brace's.
//
//   node tests/js/support/js-functions.mjs [--over N] FILE_OR_FOLDER...
//
// prints each module's line count, then every function longer than N lines (default 100).

import { readFileSync, readdirSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import { pathToFileURL } from "node:url";

// After these a `/` starts a regular expression, not a division.
const BEFORE_REGEX = new Set(["return", "typeof", "instanceof", "in", "of", "new", "delete", "void", "throw", "case", "do", "else", "yield", "await"]);
// `word(...) {` with these words is a statement, not a method.
const NOT_METHODS = new Set(["if", "for", "while", "switch", "catch", "with", "function", "return"]);
const PUNCTUATORS = ["=>", "...", "===", "!==", "**=", "<<=", ">>=", ">>>=", "&&=", "||=", "??=", "==", "!=", "<=", ">=", "&&", "||", "??", "?.", "++", "--", "+=", "-=", "*=", "/=", "%=", "&=", "|=", "^=", "**", "<<", ">>", ">>>"];

/** Tokens of `source`: {type: "word"|"number"|"string"|"template"|"regex"|"punct", value, line}. */
export function tokenize(source) {
  const tokens = [];
  const braces = []; // "{" or "${" for every open brace: "}" of a "${" resumes its template
  let i = 0;
  let line = 1;
  const push = (type, value, at) => tokens.push({ type, value, line: at });
  const newlines = (text) => {
    for (const ch of text) if (ch === "\n") line += 1;
  };

  // A template's text from i (after ` or }) up to its end or its next ${.
  const templateText = () => {
    const start = line;
    let j = i;
    while (j < source.length) {
      const ch = source[j];
      if (ch === "\\") j += 2;
      else if (ch === "`") {
        newlines(source.slice(i, j + 1));
        i = j + 1;
        push("template", "`", start);
        return;
      } else if (ch === "$" && source[j + 1] === "{") {
        newlines(source.slice(i, j + 2));
        i = j + 2;
        braces.push("${");
        push("template", "${", start);
        return;
      } else j += 1;
    }
    throw new SyntaxError(`an unclosed template literal from line ${start}`);
  };

  const regexAllowed = () => {
    const last = tokens[tokens.length - 1];
    if (!last) return true;
    if (last.type === "word") return BEFORE_REGEX.has(last.value);
    if (last.type === "punct") return ![")", "]", "}"].includes(last.value);
    return last.type === "template" && last.value === "${";
  };

  while (i < source.length) {
    const ch = source[i];
    if (ch === "\n") {
      line += 1;
      i += 1;
    } else if (/\s/.test(ch)) {
      i += 1;
    } else if (ch === "/" && source[i + 1] === "/") {
      while (i < source.length && source[i] !== "\n") i += 1;
    } else if (ch === "/" && source[i + 1] === "*") {
      const end = source.indexOf("*/", i + 2);
      if (end < 0) throw new SyntaxError(`an unclosed comment on line ${line}`);
      newlines(source.slice(i, end + 2));
      i = end + 2;
    } else if (ch === "'" || ch === '"') {
      let j = i + 1;
      while (j < source.length && source[j] !== ch) {
        if (source[j] === "\n") throw new SyntaxError(`an unclosed string on line ${line}`);
        j += source[j] === "\\" ? 2 : 1;
      }
      push("string", source.slice(i, j + 1), line);
      i = j + 1;
    } else if (ch === "`") {
      i += 1;
      templateText();
    } else if (ch === "/" && regexAllowed()) {
      let j = i + 1;
      let inClass = false;
      while (j < source.length && (inClass || source[j] !== "/")) {
        if (source[j] === "\n") throw new SyntaxError(`an unclosed regular expression on line ${line}`);
        if (source[j] === "\\") j += 1;
        else if (source[j] === "[") inClass = true;
        else if (source[j] === "]") inClass = false;
        j += 1;
      }
      j += 1;
      while (/[a-z]/.test(source[j] || "")) j += 1;
      push("regex", source.slice(i, j), line);
      i = j;
    } else if (/[A-Za-z_$\u0080-\uffff]/.test(ch)) {
      let j = i + 1;
      while (j < source.length && /[\w$\u0080-\uffff]/.test(source[j])) j += 1;
      push("word", source.slice(i, j), line);
      i = j;
    } else if (/[0-9]/.test(ch) || (ch === "." && /[0-9]/.test(source[i + 1]))) {
      let j = i + 1;
      while (j < source.length && /[\w.]/.test(source[j])) j += 1;
      push("number", source.slice(i, j), line);
      i = j;
    } else if (ch === "{") {
      braces.push("{");
      push("punct", "{", line);
      i += 1;
    } else if (ch === "}") {
      const open = braces.pop();
      if (open === undefined) throw new SyntaxError(`an unmatched } on line ${line}`);
      if (open === "${") {
        push("template", "}", line);
        i += 1;
        templateText();
      } else {
        push("punct", "}", line);
        i += 1;
      }
    } else {
      const long = PUNCTUATORS.filter((p) => source.startsWith(p, i)).sort((a, b) => b.length - a.length)[0];
      const value = long || ch;
      push("punct", value, line);
      i += value.length;
    }
  }
  if (braces.length) throw new SyntaxError(`${braces.length} unclosed brace(s) at the end`);
  return tokens;
}

/** The index of the token that closes the bracket opened at `open`. */
function closing(tokens, open) {
  const pairs = { "(": ")", "[": "]", "{": "}" };
  const want = pairs[tokens[open].value];
  let depth = 0;
  for (let k = open; k < tokens.length; k++) {
    const tok = tokens[k];
    if (tok.type !== "punct" && !(tok.type === "template" && tok.value !== "`")) continue;
    if (tok.value === tokens[open].value || (tokens[open].value === "{" && tok.value === "${")) depth += 1;
    else if (tok.value === want) {
      depth -= 1;
      if (depth === 0) return k;
    }
  }
  throw new SyntaxError(`no closing ${want} for line ${tokens[open].line}`);
}

/** The index of the token that opens the bracket closed at `close`. */
function opening(tokens, close) {
  const pairs = { ")": "(", "]": "[" };
  const want = pairs[tokens[close].value];
  let depth = 0;
  for (let k = close; k >= 0; k--) {
    const tok = tokens[k];
    if (tok.type !== "punct") continue;
    if (tok.value === tokens[close].value) depth += 1;
    else if (tok.value === want) {
      depth -= 1;
      if (depth === 0) return k;
    }
  }
  throw new SyntaxError(`no opening ${want} for line ${tokens[close].line}`);
}

const isPunct = (tok, value) => tok && tok.type === "punct" && tok.value === value;

/** Every function in `source`: [{name, start, end, lines}], in the order they begin. */
export function functions(source) {
  const tokens = tokenize(source);
  const found = [];
  const add = (name, startTok, body) => {
    const end = tokens[closing(tokens, body)].line;
    found.push({ name, start: startTok.line, end, lines: end - startTok.line + 1 });
  };
  for (let k = 0; k < tokens.length; k++) {
    const tok = tokens[k];
    if (tok.type === "word" && tok.value === "function") {
      let n = k + 1;
      if (isPunct(tokens[n], "*")) n += 1;
      const name = tokens[n].type === "word" ? tokens[n].value : nameBefore(tokens, k);
      while (!isPunct(tokens[n], "(")) n += 1;
      const body = closing(tokens, n) + 1;
      const head = tokens[k - 1] && tokens[k - 1].value === "async" ? k - 1 : k;
      add(name, tokens[head], body);
    } else if (isPunct(tok, "=>") && isPunct(tokens[k + 1], "{")) {
      const params = isPunct(tokens[k - 1], ")") ? opening(tokens, k - 1) : k - 1;
      const head = tokens[params - 1] && tokens[params - 1].value === "async" ? params - 1 : params;
      add(nameBefore(tokens, head), tokens[head], k + 1);
    } else if (tok.type === "word" && isPunct(tokens[k + 1], "(") && !NOT_METHODS.has(tok.value)
      && !isPunct(tokens[k - 1], ".") && !(tokens[k - 1] && tokens[k - 1].value === "function")) {
      const close = closing(tokens, k + 1);
      if (isPunct(tokens[close + 1], "{")) {
        let head = k;
        while (tokens[head - 1] && ["async", "static", "get", "set"].includes(tokens[head - 1].value)) head -= 1;
        add(tok.value, tokens[head], close + 1);
      }
    }
  }
  return found;
}

/** `const name = ` / `name: ` before a function expression, else "(anonymous)". */
function nameBefore(tokens, k) {
  const before = tokens[k - 1];
  const name = tokens[k - 2];
  if (before && name && name.type === "word" && (isPunct(before, "=") || isPunct(before, ":"))) return name.value;
  return "(anonymous)";
}

/** Every .js file under each path, sorted. */
export function jsFiles(paths) {
  const out = [];
  const walk = (path) => {
    if (statSync(path).isDirectory()) for (const entry of readdirSync(path).sort()) walk(join(path, entry));
    else if (path.endsWith(".js") || path.endsWith(".mjs")) out.push(path);
  };
  for (const path of paths) walk(path);
  return out;
}

/** The line count of a file as `wc -l` gives it. */
export function lineCount(source) {
  return source.split("\n").length - (source.endsWith("\n") ? 1 : 0);
}

function main(args) {
  let over = 100;
  const paths = [];
  for (let k = 0; k < args.length; k++) {
    if (args[k] === "--over") over = Number(args[++k]);
    else paths.push(args[k]);
  }
  const long = [];
  console.log("lines  module");
  for (const file of jsFiles(paths.length ? paths : ["src/snakes/web/static/js"])) {
    const source = readFileSync(file, "utf8");
    console.log(`${String(lineCount(source)).padStart(5)}  ${relative(process.cwd(), file)}`);
    for (const fn of functions(source)) if (fn.lines > over) long.push({ file: relative(process.cwd(), file), ...fn });
  }
  console.log(`\nfunctions over ${over} lines: ${long.length}`);
  for (const fn of long.sort((a, b) => b.lines - a.lines)) console.log(`${String(fn.lines).padStart(5)}  ${fn.file}:${fn.start} ${fn.name}`);
}

if (import.meta.url === pathToFileURL(process.argv[1] || "").href) main(process.argv.slice(2));
