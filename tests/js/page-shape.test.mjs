// The page's code stays in reach: every screen module at most 300 lines, no function of
// the page's over 100 lines, and no screen importing another that imports it back (a
// dynamic import counts: a cycle is a cycle whenever it loads). Measured with the
// tokenizer of ./support/js-functions.mjs, which `node tests/js/support/js-functions.mjs`
// also runs to list every module's length and the longest functions.

import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { functions, jsFiles, lineCount, tokenize } from "./support/js-functions.mjs";

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "../..");
const STATIC = join(ROOT, "src/snakes/web/static");
const SCREENS = join(STATIC, "js/screens");
const MAX_SCREEN_LINES = 300;
const MAX_FUNCTION_LINES = 100;

/** The modules `file` imports (statically or not), by path. */
export function importsOf(file) {
  const tokens = tokenize(readFileSync(file, "utf8"));
  const found = [];
  tokens.forEach((tok, k) => {
    const next = tokens[k + 1];
    const after = tokens[k + 2];
    let target = null;
    if (tok.type === "word" && tok.value === "from" && next && next.type === "string") target = next.value;
    else if (tok.type === "word" && tok.value === "import" && next && next.type === "string") target = next.value;
    else if (tok.type === "word" && tok.value === "import" && next && next.value === "(" && after && after.type === "string") target = after.value;
    if (target && target.slice(1, -1).startsWith(".")) found.push(resolve(dirname(file), target.slice(1, -1)));
  });
  return found;
}

/** A cycle in the graph {node: [nodes]}, as a list of nodes, or null. */
export function cycleIn(graph) {
  const state = new Map();
  const path = [];
  const visit = (node) => {
    if (state.get(node) === "done") return null;
    if (state.get(node) === "open") return path.slice(path.indexOf(node)).concat(node);
    state.set(node, "open");
    path.push(node);
    for (const next of graph[node] || []) {
      const found = visit(next);
      if (found) return found;
    }
    path.pop();
    state.set(node, "done");
    return null;
  };
  for (const node of Object.keys(graph)) {
    const found = visit(node);
    if (found) return found;
  }
  return null;
}

test("every screen module is at most 300 lines", () => {
  const long = jsFiles([SCREENS])
    .map((file) => ({ file: relative(STATIC, file), lines: lineCount(readFileSync(file, "utf8")) }))
    .filter(({ lines }) => lines > MAX_SCREEN_LINES);
  assert.deepEqual(long, []);
});

test("no function of the page is over 100 lines", () => {
  const long = jsFiles([join(STATIC, "js"), join(STATIC, "sw.js")]).flatMap((file) =>
    functions(readFileSync(file, "utf8"))
      .filter((fn) => fn.lines > MAX_FUNCTION_LINES)
      .map((fn) => `${relative(STATIC, file)}:${fn.start} ${fn.name} (${fn.lines} lines)`));
  assert.deepEqual(long, []);
});

test("no screen imports a screen that imports it back", () => {
  const screens = jsFiles([SCREENS]);
  const graph = Object.fromEntries(screens.map((file) => [file, importsOf(file).filter((target) => screens.includes(target))]));
  const cycle = cycleIn(graph);
  assert.equal(cycle && cycle.map((file) => relative(STATIC, file)).join(" -> "), null);
});

test("the checks find what they must (a check that finds nothing proves nothing)", () => {
  // A long function, a dynamic import back, and the tokenizer's hard cases.
  const body = Array.from({ length: 101 }, (_, i) => `  x += ${i}; // }`).join("\n");
  const source = `const re = /[}{]/g;\nconst s = \`\${"}"}{\`;\nexport function long() {\n${body}\n}\nconst a = (n) => { return n / 2; };\nclass C { method(a) { if (a) { return "{"; } } }\n`;
  const found = functions(source).map(({ name, lines }) => [name, lines]);
  assert.deepEqual(found, [["long", 103], ["a", 1], ["method", 1]]);
  assert.deepEqual(cycleIn({ a: ["b"], b: ["c"], c: ["a"] }), ["a", "b", "c", "a"]);
  assert.equal(cycleIn({ a: ["b"], b: ["c"], c: [] }), null);
  const game = join(SCREENS, "game.js");
  assert.ok(importsOf(game).some((target) => target.endsWith("js/store.js")), "static imports are read");
  assert.ok(importsOf(game).some((target) => target.endsWith("js/online-table.js")), "dynamic imports are read");
});
