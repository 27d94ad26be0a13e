// The game modules this shell knows, by game type name. A game module draws the board,
// explains moves and results; the shell does everything that is the same for every game.
// Each game has two entry modules: ``intro``, what the lobby shows (tagline, rules, seat
// colours, art), and ``full``, that plus the board. The lobby loads only the intro, so a
// first visit downloads no board code. The paths are relative, so they keep the page's
// asset version (/static/<version>/...).

const games = {
  "nova-luna": {
    intro: () => import("../games/nova-luna/intro.js"),
    full: () => import("../games/nova-luna/index.js"),
  },
};

const cache = new Map();

function load(typeName, typeInfo, part) {
  if (!games[typeName]) return Promise.reject(new Error(`This page cannot show games of type ${typeName}.`));
  const key = `${typeName} ${part}`;
  if (!cache.has(key)) {
    cache.set(key, games[typeName][part]().then((m) => {
      const mod = m.default;
      if (typeInfo && mod.setup) mod.setup(typeInfo);
      return mod;
    }, () => {
      cache.delete(key); // try again next time
      // After an upgrade this page's version of the code is gone: only a reload helps.
      throw new Error("The game's code could not be loaded: reload the page (the server may have been updated).");
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
