// "Your games": what this browser created or joined, with the seat tokens it plays.
// Seat tokens are secrets: they live here and in the URL fragment, never in a query string.

const KEY = "boardgames.games.v1";

function load() {
  try {
    const data = JSON.parse(localStorage.getItem(KEY) || "{}");
    return data && typeof data === "object" ? data : {};
  } catch {
    return {};
  }
}

function save(data) {
  try {
    localStorage.setItem(KEY, JSON.stringify(data));
  } catch {
    /* private mode: the links still work */
  }
}

export function allGames() {
  return Object.values(load()).sort((a, b) => (b.touched || "").localeCompare(a.touched || ""));
}

export function getGame(id) {
  return load()[id] || null;
}

/** Merge ``info`` into the stored entry for game ``id``. */
export function rememberGame(id, info) {
  const data = load();
  const old = data[id] || { id, tokens: [] };
  const merged = { ...old, ...info, id, touched: new Date().toISOString() };
  if (info.tokens) merged.tokens = [...new Set([...(old.tokens || []), ...info.tokens])];
  data[id] = merged;
  save(data);
  return merged;
}

export function setPlayed(id, tokens) {
  const data = load();
  if (!data[id]) return;
  data[id].played = tokens;
  save(data);
}

export function forgetGame(id) {
  const data = load();
  delete data[id];
  save(data);
}

/** The tokens in ``#seat=A,B`` of the current address. */
export function fragmentTokens() {
  const params = new URLSearchParams(location.hash.slice(1));
  const raw = params.get("seat") || "";
  return raw.split(",").map((t) => t.trim()).filter(Boolean);
}

export function gameLink(id, tokens) {
  return tokens && tokens.length ? `/g/${id}#seat=${tokens.join(",")}` : `/g/${id}`;
}
