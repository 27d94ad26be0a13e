// Loading a game's own modules: a game module draws the board, explains moves and
// results; the shell does everything that is the same for every game. Each game has two
// entry modules, as the server's type description names them ("modules", relative to
// the game's folder /static/games/<name>/): ``intro``, what the lobby shows (tagline,
// rules, seat colours, art), and ``full``, that plus the board; each with the
// stylesheets it needs, fetched alongside its code. The lobby loads only the intro, so a
// first visit downloads no board code. The URLs are resolved against this module's, so
// they keep the page's asset version (/static/<version>/...).
import { t } from "./i18n.js";
import { loadCode, stylesheet } from "./util.js";

const cache = new Map();

function load(typeName, typeInfo, part) {
  const entry = typeInfo && typeInfo.modules && typeInfo.modules[part];
  if (!entry) return Promise.reject(new Error(t("This page cannot show games of type {type}.", { type: typeName })));
  const key = `${typeName} ${part}`;
  if (!cache.has(key)) {
    const folder = new URL(`../games/${encodeURIComponent(typeName)}/`, import.meta.url);
    const module = () => import(new URL(entry.module, folder).href);
    const styled = Promise.all((entry.styles || []).map((path) => stylesheet(new URL(path, folder))));
    cache.set(key, Promise.all([loadCode(module), styled]).then(([m]) => {
      const mod = m.default;
      if (mod.setup) mod.setup(typeInfo);
      return mod;
    }, (err) => {
      cache.delete(key); // try again next time
      throw err;
    }));
  }
  return cache.get(key);
}

/** What the lobby needs of a game (see above); ``typeInfo`` is its type description. */
export function gameIntro(typeName, typeInfo) {
  return load(typeName, typeInfo, "intro");
}

/** The whole game module, board included. */
export function gameModule(typeName, typeInfo) {
  return load(typeName, typeInfo, "full");
}
