// loadGame returns a game's module: its board, its controls.
export async function loadGame(name) {
  return import(`./games/${name}.js`);
}
