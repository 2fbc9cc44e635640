// The page's entry point: a hash router between the lobby, a room, a table and a replay.
//   #/               lobby: new table, join with a code, open tables
//   #/room/CODE      the invite link: take a seat or watch
//   #/table/ID       a table, played with this browser's seat token or watched
//   #/replay/ID[/N]  a finished game on the board, step by step, from seat N or a spectator
//   #/replay         a transcript file dropped on the page, replayed the same way
//   #/review/ID[/N]  a finished game's review: seat N's decisions rated against the solver
//   #/practice/G[/N] practice puzzles in game G (at N seats), scored against the solver
//   #/account        register, log in, log out, delete the account
//   #/player/NAME    a player's ratings, rating history and games
//   #/leaderboard/G  the best ratings in game G
//   #/game/ID        a finished game: players, result, rating changes, transcript, dice check
//   #/guide/GAME     a first-game guide: a short scripted game, explained step by step

import { refreshAccountLink, showAccount } from "./account.js";
import { showGuide } from "./guide.js";
import { showLobby, showRoom } from "./lobby.js";
import { showGameRecord, showLeaderboard, showPlayer } from "./profiles.js";
import { applyPrefs } from "./prefs.js";
import { showPractice } from "./practice.js";
import { showReplay } from "./replay.js";
import { showReview } from "./review.js";
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
  else if (kind === "review" && id) screen = showReview(main, id, part);
  else if (kind === "practice" && id) screen = showPractice(main, id, part);
  else if (kind === "account") screen = showAccount(main);
  else if (kind === "player" && id) screen = showPlayer(main, id);
  else if (kind === "leaderboard") screen = showLeaderboard(main, id);
  else if (kind === "game" && id) screen = showGameRecord(main, id);
  else if (kind === "guide" && id) screen = showGuide(main, id);
  else screen = showLobby(main);
  main.focus({ preventScroll: true });
}

applyPrefs();
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
