// The page's entry point: a hash router between the lobby, a room, a table and a replay.
//   #/               lobby: new table, join with a code, open tables
//   #/room/CODE      the invite link: take a seat or watch
//   #/table/ID       a table, played with this browser's seat token or watched
//   #/replay/ID[/N]  a finished game on the board, step by step, from seat N or a spectator
//   #/replay         a transcript file dropped on the page, replayed the same way
//   #/account        register, log in, log out, delete the account
//   #/player/NAME    a player's ratings, rating history and games
//   #/leaderboard/G  the best ratings in game G
//   #/game/ID        a finished game: players, result, rating changes, transcript, dice check

import { refreshAccountLink, showAccount } from "./account.js";
import { showLobby, showRoom } from "./lobby.js";
import { showGameRecord, showLeaderboard, showPlayer } from "./profiles.js";
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
  else if (kind === "account") screen = showAccount(main);
  else if (kind === "player" && id) screen = showPlayer(main, id);
  else if (kind === "leaderboard") screen = showLeaderboard(main, id);
  else if (kind === "game" && id) screen = showGameRecord(main, id);
  else screen = showLobby(main);
  main.focus({ preventScroll: true });
}

window.addEventListener("hashchange", route);
route();
refreshAccountLink();

// A handle for debugging from the console (and for the browser tests):
// window.dicehall.screen.connection.drop() simulates a dropped connection.
window.dicehall = {
  get screen() {
    return screen;
  },
};
