// The game modules this shell knows, by game type name. A game module draws the board,
// explains moves and results; the shell does everything that is the same for every game.
// Each game has two entry modules: ``intro``, what the lobby shows (tagline, rules, seat
// colours, art), and ``full``, that plus the board; each with the stylesheets it needs,
// fetched alongside its code. The lobby loads only the intro, so a first visit downloads
// no board code. The paths are relative, so they keep the page's asset version
// (/static/<version>/...).
import { t } from "./i18n.js";
import { loadCode, stylesheet } from "./util.js";

const games = {
  "nova-luna": {
    intro: {
      module: () => import("../games/nova-luna/intro.js"),
      styles: ["../games/nova-luna/tiles.css", "../games/nova-luna/colours.css"],
    },
    full: {
      module: () => import("../games/nova-luna/index.js"),
      styles: ["../games/nova-luna/tiles.css", "../games/nova-luna/colours.css", "../games/nova-luna/board.css"],
    },
  },
  nmbr9: {
    intro: {
      module: () => import("../games/nmbr9/intro.js"),
      styles: ["../games/nmbr9/intro.css"],
    },
    full: {
      module: () => import("../games/nmbr9/index.js"),
      styles: ["../games/nmbr9/intro.css", "../games/nmbr9/board.css"],
    },
  },
};

const cache = new Map();

function load(typeName, typeInfo, part) {
  if (!games[typeName]) return Promise.reject(new Error(t("This page cannot show games of type {type}.", { type: typeName })));
  const key = `${typeName} ${part}`;
  if (!cache.has(key)) {
    const { module, styles } = games[typeName][part];
    const styled = Promise.all(styles.map((path) => stylesheet(new URL(path, import.meta.url))));
    cache.set(key, Promise.all([loadCode(module), styled]).then(([m]) => {
      const mod = m.default;
      if (typeInfo && mod.setup) mod.setup(typeInfo);
      return mod;
    }, (err) => {
      cache.delete(key); // try again next time
      throw err;
    }));
  }
  return cache.get(key);
}

/** What the lobby needs of a game (see above). */
export function gameIntro(typeName, typeInfo) {
  return load(typeName, typeInfo, "intro");
}

/** The whole game module, board included. */
export function gameModule(typeName, typeInfo) {
  return load(typeName, typeInfo, "full");
}
