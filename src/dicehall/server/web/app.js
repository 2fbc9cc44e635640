// The page's entry point: a hash router between the lobby, a room, a table and a replay.
//   #/               lobby: new table, join with a code, open tables
//   #/room/CODE      the invite link: take a seat or watch
//   #/table/ID       a table, played with this browser's seat token or watched
//   #/replay/ID[/N]  a finished game on the board, step by step, from seat N or a spectator
//   #/replay         a transcript file dropped on the page, replayed the same way

import { showLobby, showRoom } from "./lobby.js";
import { showReplay } from "./replay.js";
import { TableScreen } from "./table.js";

const main = document.getElementById("app");
let screen = null; // the screen on show; has destroy() when it holds timers or sockets

function route() {
  if (screen && screen.destroy) screen.destroy();
  screen = null;
  const [kind, id, part] = location.hash.replace(/^#\/?/, "").split("/").map(decodeURIComponent);
  if (kind === "room" && id) screen = showRoom(main, id);
  else if (kind === "table" && id) screen = new TableScreen(main, id);
  else if (kind === "replay") screen = showReplay(main, id, part);
  else screen = showLobby(main);
  main.focus({ preventScroll: true });
}

window.addEventListener("hashchange", route);
route();

// A handle for debugging from the console (and for the browser tests):
// window.dicehall.screen.connection.drop() simulates a dropped connection.
window.dicehall = {
  get screen() {
    return screen;
  },
};
