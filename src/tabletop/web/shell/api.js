// JSON over HTTP; every failure becomes an ApiError with a readable message, in the
// page's language: the server's error names its msgid (key) and arguments.
import { formatNumber, language, t } from "./i18n.js";

export class ApiError extends Error {
  constructor(message, status) {
    super(message);
    this.status = status;
  }
}

export async function api(path, { method = "GET", body, token } = {}) {
  const headers = {};
  if (body !== undefined) headers["Content-Type"] = "application/json";
  if (token) headers.Authorization = `Bearer ${token}`;
  let response;
  try {
    response = await fetch(path, {
      method,
      headers,
      body: body === undefined ? undefined : typeof body === "string" ? body : JSON.stringify(body),
    });
  } catch {
    throw new ApiError(t("The server cannot be reached. Check your connection and try again."), 0);
  }
  let data = null;
  try {
    data = await response.json();
  } catch {
    data = null;
  }
  if (!response.ok) {
    const message = data && typeof data.error === "string"
      ? errorText(data.key, data.args, data.error)
      : t("the server answered {status}", { status: response.status });
    throw new ApiError(capitalise(message), response.status);
  }
  return data;
}

/** The text of a server error: its msgid ``key`` with ``args`` in the page's language
 * (an argument that is itself a msgid, e.g. "the request body", is translated too), or
 * the server's English ``fallback`` when it sent no key. */
export function errorText(key, args, fallback) {
  if (typeof key !== "string" || !key) return fallback || "";
  const values = {};
  for (const [name, value] of Object.entries(args && typeof args === "object" ? args : {})) {
    values[name] = typeof value === "string" ? argText(value) : value;
  }
  return t(key, values);
}

/** A text argument of the server's in the page's language: a number it wrote in
 * English ("71.6", "45%") as Intl writes it ("71,6", "45 %"), a msgid translated. */
function argText(value) {
  const decimal = /^-?\d+\.(\d+)$/.exec(value);
  if (decimal) return formatNumber(Number(value), decimal[1].length);
  const share = /^(-?\d+(?:\.\d+)?)%$/.exec(value);
  if (share) return new Intl.NumberFormat(language(), { style: "percent" }).format(Number(share[1]) / 100);
  return t(value);
}

/** A sentence the server sent as parts (``[{key, args}]``, joined with nothing between:
 * log entries), in the page's language; ``fallback`` (its English text) without parts. */
export function partsText(parts, fallback) {
  if (!Array.isArray(parts)) return fallback || "";
  return parts.map((p) => errorText(p.key, p.args, p.text)).join("");
}

export function capitalise(text) {
  const t = String(text || "").trim();
  return t ? t[0].toUpperCase() + t.slice(1) : t;
}

let typesPromise = null;
/** The game types the server hosts (cached). */
export function gameTypes() {
  typesPromise ??= api("/api/types").then((d) => d.types).catch((err) => {
    typesPromise = null;
    throw err;
  });
  return typesPromise;
}
