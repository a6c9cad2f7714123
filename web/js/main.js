// Kibitz in the browser: start the connection, keep the player's name, route between the
// lobby (#) and a room (#room=ID; #room=ID&watch opens a spectator-only tab with a session
// of its own, so a player can watch their own game as the public sees it), a profile
// (#/@/NAME), the tournaments (#/tournaments) and one tournament (#/tournament/ID).

import { App, currentRoomId } from "./app.js";
import { toast } from "./dom.js";
import { LobbyView } from "./lobby.js";
import { account, installAccounts } from "./account.js"; // accounts (issue 13)
import { ProfileView, profileName } from "./profile.js"; // accounts (issue 13)
import { RoomView } from "./room.js";
import { TournamentView } from "./tournament.js"; // tournaments (issue 38)
import { TournamentsView } from "./tournaments.js";
import { tournamentRoute } from "./tournamentwords.js";
import { sounds } from "./sounds.js";
import { useTabStorage } from "./storage.js";

const spectatorOnly = /[#&]watch\b/.test(location.hash);
if (spectatorOnly) useTabStorage();

const app = new App({ spectatorOnly });
const main = document.getElementById("main");
const nameInput = document.getElementById("player-name");
const connBadge = document.getElementById("conn");
let view = null;
let viewKey = null;

// -- the player's name ----------------------------------------------------------------------

function initName() {
  let name = window.localStorage.getItem("kibitz.name");
  try {
    name = name ? JSON.parse(name) : "";
  } catch {
    name = "";
  }
  if (!name) {
    name = `Player ${Math.floor(100 + Math.random() * 900)}`;
    window.localStorage.setItem("kibitz.name", JSON.stringify(name));
  }
  nameInput.value = name;
  nameInput.addEventListener("change", () => {
    const v = nameInput.value.trim();
    if (v) window.localStorage.setItem("kibitz.name", JSON.stringify(v));
  });
}

function playerName() {
  if (account.user) return account.user; // the server seats an account under its own name
  const v = nameInput.value.trim();
  if (!v) {
    toast("Please enter your name first.");
    nameInput.focus();
    return null;
  }
  return v;
}

// -- routing --------------------------------------------------------------------------------

function route() {
  const id = currentRoomId();
  const profile = profileName(); // accounts (issue 13): #/@/NAME
  const tour = tournamentRoute(); // tournaments (issue 38): #/tournaments, #/tournament/ID
  const key = profile
    ? `@${profile}`
    : tour
      ? `tournament:${tour.id || ""}`
      : id
        ? `room:${id}`
        : "lobby";
  if (key === viewKey) return;
  if (view) view.destroy();
  viewKey = key;
  if (tour)
    view = tour.id
      ? new TournamentView(app, main, tour.id, { playerName })
      : new TournamentsView(app, main, { playerName });
  else
    view = profile
      ? new ProfileView(app, main, profile)
      : id
        ? new RoomView(app, main, id, { playerName })
        : new LobbyView(app, main, { playerName });
  // a new page starts at its top (on a phone: the board, not the lobby's middle)
  window.scrollTo(0, 0);
  if (
    document.activeElement &&
    document.activeElement !== document.body &&
    !main.contains(document.activeElement) &&
    document.activeElement !== nameInput
  ) {
    main.focus();
  }
}

// -- connection badge -----------------------------------------------------------------------

const STATUS_TEXT = {
  connecting: "Connecting…",
  online: "Online",
  offline: "Offline — reconnecting…",
  idle: "Disconnected",
};

app.addEventListener("status", (e) => {
  connBadge.dataset.state = e.detail;
  connBadge.textContent = STATUS_TEXT[e.detail] || e.detail;
  if (view && view.onStatus) view.onStatus(e.detail);
});

document.querySelector(".skip").addEventListener("click", (e) => {
  e.preventDefault();
  main.focus();
});

window.addEventListener("hashchange", route);

// A read-only window for tests and curious people: the latest update per room.
window.kibitz = Object.freeze({
  latest: (id) => app.latest(id || currentRoomId()),
  held: (id) => app.heldSeats(id || currentRoomId()),
  legal: (id) => app.legalFor(app.latest(id || currentRoomId())),
  state: () => app.conn.state,
  deltas: () => ({ applied: app.conn.deltas, gaps: app.conn.gaps }),
  games: () => app.games,
  sounds: () => [...sounds.played],
});

initName();
installAccounts(app, document.querySelector("header.top")); // accounts (issue 13)
route();
app.start();
