// The game modules this shell knows, by game type name. A game module draws the board,
// explains moves and results; the shell does everything that is the same for every game.

const loaders = {
  "nova-luna": () => import("../games/nova-luna/index.js"),
};

const cache = new Map();

export async function gameModule(typeName, typeInfo) {
  if (!loaders[typeName]) throw new Error(`This page cannot show games of type ${typeName}.`);
  if (!cache.has(typeName)) {
    cache.set(typeName, loaders[typeName]().then((m) => {
      const mod = m.default;
      if (typeInfo && mod.setup) mod.setup(typeInfo);
      return mod;
    }));
  }
  return cache.get(typeName);
}
