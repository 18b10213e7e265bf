// One WebSocket per page (docs/table-api.md): states in, actions out, reconnect with backoff.

export class Connection {
  /** query: "role=table" or "seat=<token>" (or a function giving it at each connect);
   * handlers: onState, onHello, onError, onStatus, onMessage */
  constructor(query, handlers) {
    this.query = query;
    this.handlers = handlers;
    this.rev = -1;
    this.drawn = Promise.resolve(); // the states handed to onState so far, one after another
    this.nextId = 1;
    this.pending = new Map();
    this.backoff = 250;
    this.open();
  }

  open() {
    const scheme = location.protocol === "https:" ? "wss" : "ws";
    const query = typeof this.query === "function" ? this.query() : this.query;
    const ws = new WebSocket(`${scheme}://${location.host}/ws?${query}`);
    this.ws = ws;
    ws.onopen = () => {
      this.backoff = 250;
      this.handlers.onStatus?.("open");
    };
    ws.onmessage = (event) => this.receive(JSON.parse(event.data));
    ws.onclose = (event) => {
      for (const { reject } of this.pending.values()) reject({ code: "closed", reason: "" });
      this.pending.clear();
      if (event.code === 4403) {
        // the reason says why: "replaced" (a new seat link), "game_changed", "forbidden", …
        this.handlers.onStatus?.("forbidden", event.reason);
        return;
      }
      this.handlers.onStatus?.("closed");
      setTimeout(() => this.open(), this.backoff);
      this.backoff = Math.min(this.backoff * 2, 4000);
    };
  }

  receive(msg) {
    const settle = (ok) => {
      const waiter = this.pending.get(msg.ref);
      if (waiter) {
        this.pending.delete(msg.ref);
        ok ? waiter.resolve(msg) : waiter.reject(msg);
      }
    };
    switch (msg.type) {
      case "hello":
        this.handlers.onHello?.(msg);
        break;
      case "state":
        if (msg.rev > this.rev || msg.rev === undefined) {
          this.rev = msg.rev ?? this.rev;
          // in order, one at a time: onState waits (a game's strings, its plugin), and an older
          // state finishing after a newer one would be drawn over it
          this.drawn = this.drawn.then(() => this.handlers.onState?.(msg.state, msg.rev)).catch((err) => console.error(err));
        }
        break;
      case "ack":
        settle(true);
        break;
      case "error":
        if (msg.ref !== undefined && this.pending.has(msg.ref)) settle(false);
        else this.handlers.onError?.(msg);
        break;
      default:
        this.handlers.onMessage?.(msg);
    }
  }

  /** Send a message; resolves on its ack, rejects with the server's error. */
  send(message) {
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      if (!this.ws || this.ws.readyState !== WebSocket.OPEN) {
        reject({ code: "closed", reason: "not connected" });
        return;
      }
      this.pending.set(id, { resolve, reject });
      this.ws.send(JSON.stringify({ ...message, id }));
      // Messages without an ack (drop, gate, language) settle when their state arrives.
      if (["drop", "gate", "language", "ping"].includes(message.type)) {
        setTimeout(() => {
          if (this.pending.delete(id)) resolve({ type: "sent" });
        }, 1500);
      }
    });
  }
}

// The table token of a paired device (docs/table-api.md, "Pairing"); the host's own screen
// needs none. Every request of the page sends it.
const TOKEN_KEY = "castillo.table_token";
export const tableToken = {
  get: () => localStorage.getItem(TOKEN_KEY),
  set: (token) => localStorage.setItem(TOKEN_KEY, token),
  clear: () => localStorage.removeItem(TOKEN_KEY),
};

// A request that never reached the server (Chromium aborts requests in flight with
// ERR_NETWORK_CHANGED when a tablet's Wi-Fi or a fresh network comes up) is tried again;
// a POST only when the caller says it is safe to repeat.
const NETWORK_RETRIES = [200, 400, 800, 1600, 3200, 4000, 4000, 4000, 4000];

export async function getJson(url, options = {}) {
  const token = tableToken.get();
  const repeatable = options.repeatable ?? (options.method ?? "GET") === "GET";
  const { repeatable: _, ...init } = options;
  const request = () =>
    fetch(url, {
      ...init,
      headers: {
        "Content-Type": "application/json",
        ...(token ? { Authorization: `Bearer ${token}` } : {}),
        ...(init.headers ?? {}),
      },
    });
  let r;
  for (let attempt = 0; ; attempt++) {
    try {
      r = await request();
      break;
    } catch (err) {
      if (!repeatable || attempt >= NETWORK_RETRIES.length) throw { code: "network", reason: String(err?.message ?? err) };
      await new Promise((resolve) => setTimeout(resolve, NETWORK_RETRIES[attempt]));
    }
  }
  const body = await r.json().catch(() => ({}));
  if (!r.ok) throw { code: body.error ?? r.status, reason: body.reason ?? r.statusText, key: body.key, params: body.params, errors: body.errors };
  return body;
}

export const postJson = (url, body, { repeatable = false } = {}) =>
  getJson(url, { method: "POST", body: JSON.stringify(body ?? {}), repeatable });
