// /play's words: every text the interface has in English it has in French and
// Portuguese too (and no other), with the same {placeholders}.
// Usage: node i18n.test.mjs
import assert from "node:assert/strict";
import { WORDS } from "../../service/web/static/play-i18n.js";

function leaves(node, path = []) {
  return Object.entries(node).flatMap(([key, value]) => (value && typeof value === "object" ? leaves(value, [...path, key]) : [[[...path, key].join("."), value]]));
}
const placeholders = (text) => [...String(text).matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();
const english = new Map(leaves(WORDS.en));
for (const lang of ["fr", "pt"]) {
  const words = new Map(leaves(WORDS[lang]));
  assert.deepEqual([...english.keys()].filter((key) => !words.has(key)), [], `${lang}: missing`);
  assert.deepEqual([...words.keys()].filter((key) => !english.has(key)), [], `${lang}: not in English`);
  for (const [key, text] of words) assert.deepEqual(placeholders(text), placeholders(english.get(key)), `${lang}: ${key}`);
}
console.log("i18n: 1 passed, 0 failed");
