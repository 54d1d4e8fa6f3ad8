// Preloaded (node --import) by test_typescript_sdk.py before the SDK's example: writes each
// creation body (POST /combats) to stderr, to check that the example sends no `seed`.
const inner = globalThis.fetch;
globalThis.fetch = async (input, init = {}) => {
  if (init.method === "POST" && new URL(String(input)).pathname === "/combats") process.stderr.write(`creation body: ${init.body}\n`);
  return inner(input, init);
};
