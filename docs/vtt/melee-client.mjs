// A minimal Melee client for a VTT module (Foundry VTT, Owlbear Rodeo...): plain fetch,
// runs in browsers and in Node 18+. Tested by tests/browser/vtt-snippet.test.mjs.
export class MeleeClient {
  constructor(baseUrl, token = null) { this.baseUrl = baseUrl; this.token = token; }

  async request(method, path, body, headers = {}) {
    const response = await fetch(this.baseUrl + path, {
      method,
      headers: { "Content-Type": "application/json", ...(this.token ? { Authorization: `Bearer ${this.token}` } : {}), ...headers },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const data = response.status === 204 ? null : await response.json();
    if (!response.ok) {
      const retryAfter = Number(response.headers.get("Retry-After") || 1);
      throw Object.assign(new Error(data.detail), { problem: data, retryAfter });
    }
    return data;
  }

  // Creating returns the GM's token and one per combatant: hand each player theirs.
  async createCombat(body) {
    const combat = await this.request("POST", "/combats", body, { "Idempotency-Key": crypto.randomUUID() });
    this.token = combat.tokens.gm;
    return combat;
  }

  // Flaky network, or Melee could not confirm the change (503)? The same Idempotency-Key makes a
  // retry return the first answer, never act twice. Retried: no answer at all, 503, and the 409s
  // that say "try again" (request in flight, other actions kept winning); any other problem is final.
  async act(combatId, action, { retries = 3 } = {}) {
    const key = crypto.randomUUID();
    for (let attempt = 0; ; attempt++) {
      try {
        return await this.request("POST", `/combats/${combatId}/actions`, action, { "Idempotency-Key": key });
      } catch (error) {
        if (!MeleeClient.retryable(error) || attempt >= retries) throw error;
        // Retry-After, with jitter so that clients who collided do not collide again.
        await new Promise((done) => setTimeout(done, 1000 * (error.retryAfter ?? 1) * (0.5 + Math.random())));
      }
    }
  }

  static retryable(error) {
    const type = error.problem?.type;
    return !error.problem || error.problem.status === 503
      || type === "/problems/request-in-flight" || type === "/problems/version-conflict";
  }

  odds(combatId, action) { return this.request("POST", `/combats/${combatId}/odds`, { action }); }

  // Who must act now, and with what: prompt exactly these players.
  async prompts(combatId) { return (await this.request("GET", `/combats/${combatId}`)).awaiting; }

  // The live log. fetch can send the token as a header; reconnect with lastSeq after a drop.
  async follow(combatId, onEntry, { after = 0, signal } = {}) {
    const response = await fetch(`${this.baseUrl}/combats/${combatId}/stream?after=${after}`, {
      headers: { Authorization: `Bearer ${this.token}` }, signal,
    });
    const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
    let buffer = "";
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return;
      buffer += value;
      let end;
      while ((end = buffer.indexOf("\n\n")) >= 0) {
        const block = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        const event = /^event: (.*)$/m.exec(block)?.[1];
        const data = /^data: (.*)$/m.exec(block)?.[1];
        if (event === "entry") await onEntry(JSON.parse(data));
        if (event === "reconnect" || event === "gone" || event === "revoked") return event;
      }
    }
  }
}
