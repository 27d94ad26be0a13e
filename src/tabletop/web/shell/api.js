// JSON over HTTP; every failure becomes an ApiError with a readable message.

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
    throw new ApiError("The server cannot be reached. Check your connection and try again.", 0);
  }
  let data = null;
  try {
    data = await response.json();
  } catch {
    data = null;
  }
  if (!response.ok) {
    const message = data && typeof data.error === "string" ? data.error : `the server answered ${response.status}`;
    throw new ApiError(capitalise(message), response.status);
  }
  return data;
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
