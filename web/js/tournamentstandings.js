// A tournament's standings and games, drawn from its one view (Tournament.view(), docs/
// PROTOCOL.md "Tournaments"): rank, name, points — with the fire of a streak in an arena —,
// wins/draws/losses, the tie-breaks of a Swiss or a round robin, and each player's score
// sheet; then the games, each with a link to watch it at the board.

import { h, s } from "./dom.js";

/** The flame lichess shows beside a player on a streak (every win counts double). */
function fire() {
  return h(
    "span",
    {
      class: "fire",
      title: "On a streak: a win counts double",
      role: "img",
      "aria-label": "on a streak",
    },
    s(
      "svg",
      { viewBox: "0 0 16 16", "aria-hidden": "true" },
      s("path", {
        d:
          "M8 1c1 3 5 4.5 5 9a5 5 0 0 1-10 0c0-2.2 1.2-3.6 2.2-4.6" +
          ".2 1.5.8 2.4 1.8 2.9C6.6 5.8 7 3.3 8 1z",
      }),
    ),
  );
}

/** The mark of a player who went berserk in a game (half the clock, one more point on a win). */
function bolt() {
  return h(
    "span",
    {
      class: "bolt",
      title: "Berserk: half the clock, one more point on a win",
      role: "img",
      "aria-label": "berserk",
    },
    s(
      "svg",
      { viewBox: "0 0 16 16", "aria-hidden": "true" },
      s("path", { d: "M9.5 1 3 9h4l-1 6 6.5-8h-4z" }),
    ),
  );
}

/** A number of points: "2", "1½", "½". */
export function pointsText(p) {
  if (typeof p !== "number") return p === null || p === undefined ? "" : String(p);
  const whole = Math.floor(p);
  const half = Math.abs(p - whole - 0.5) < 1e-9;
  if (half) return `${whole || ""}½`;
  return String(Math.round(p * 100) / 100);
}

const OUTCOMES = {
  W: "won",
  D: "drew",
  L: "lost",
  B: "a bye",
  R: "a round of rest",
  "+": "won: the opponent withdrew",
  "-": "lost: withdrew",
  A: "aborted",
};

/**
 * One line of a score sheet, {outcome, points, opponents?, fire?, berserk?}: its points (in
 * orange when a fire doubled them, underlined when berserk), a rest "–", an aborted game "×".
 */
function sheetEntry(e) {
  const cls = ["sheet-game"];
  if (e.fire) cls.push("double");
  if (e.berserk) cls.push("berserk");
  if (e.points === 0) cls.push("zero");
  const vs =
    Array.isArray(e.opponents) && e.opponents.length ? ` vs ${e.opponents.join(", ")}` : "";
  const fire = e.fire ? ", on fire (double)" : "";
  const title = `${OUTCOMES[e.outcome] || e.outcome}${vs}${fire}${e.berserk ? ", berserk" : ""}`;
  const text = e.outcome === "A" ? "×" : e.outcome === "R" ? "–" : pointsText(e.points);
  return h(
    "span",
    { class: cls.join(" "), title, dataset: { outcome: e.outcome, room: e.room || "" } },
    text,
  );
}

function playerCell(row) {
  const account = typeof row.key === "string" && row.key.startsWith("u:") ? row.key.slice(2) : null;
  const name = account
    ? h("a", { href: `#/@/${account}`, class: "name" }, row.name)
    : h("span", { class: "name" }, row.name);
  const rating =
    typeof row.rating === "number"
      ? h("span", { class: "rating muted" }, String(Math.round(row.rating)))
      : null;
  const tags = [];
  if (row.bot) tags.push(h("span", { class: "badge bot" }, "BOT"));
  if (row.paused) tags.push(h("span", { class: "badge paused" }, "paused"));
  else if (row.playing) tags.push(h("span", { class: "badge playing" }, "playing"));
  const sheet =
    Array.isArray(row.sheet) && row.sheet.length
      ? h(
          "div",
          { class: "sheet", "aria-label": "score sheet" },
          row.sheet.map((e) => sheetEntry(e)),
        )
      : null;
  return h(
    "td",
    { class: "player" },
    h("div", { class: "who" }, name, " ", rating, ...tags),
    sheet,
  );
}

/**
 * The standings table of `view`, the row of `myName` marked. Arena: rank, player (with the
 * score sheet), points with the fire of a streak, W/D/L; Swiss and round robin add Buchholz
 * and Sonneborn–Berger.
 */
export function standingsTable(view, spec, me) {
  const rows = Array.isArray(view.standings) ? view.standings : [];
  if (!rows.length)
    return h("p", { class: "empty-note", id: "t-standings" }, "Nobody has joined yet.");
  const arena = spec.system === "arena";
  const ties = !arena;
  const head = [
    h("th", { scope: "col", class: "rank" }, h("abbr", { title: "Rank" }, "#")),
    h("th", { scope: "col" }, "Player"),
    h("th", { scope: "col", class: "num" }, h("abbr", { title: "Points" }, "Pts")),
    h(
      "th",
      { scope: "col", class: "num wdl" },
      h("abbr", { title: "Wins / draws / losses" }, "W/D/L"),
    ),
  ];
  if (ties) {
    head.push(
      h(
        "th",
        { scope: "col", class: "num tb" },
        h("abbr", { title: "Buchholz: the sum of the opponents' scores" }, "BH"),
      ),
      h(
        "th",
        { scope: "col", class: "num tb" },
        h(
          "abbr",
          {
            title: "Sonneborn–Berger: the scores of the opponents beaten, and half of those drawn",
          },
          "SB",
        ),
      ),
    );
  }
  const body = rows.map((row) => {
    const tb = row.tiebreaks || {};
    const onFire =
      arena && (row.fire || (typeof row.streak === "number" ? row.streak >= 2 : !!row.streak));
    const cells = [
      h("td", { class: "rank" }, row.rank ?? ""),
      playerCell(row),
      h(
        "td",
        { class: "num points", dataset: { points: row.points ?? 0 } },
        onFire ? fire() : null,
        pointsText(row.points ?? 0),
      ),
      h("td", { class: "num wdl" }, `${row.wins ?? 0}/${row.draws ?? 0}/${row.losses ?? 0}`),
    ];
    if (ties)
      cells.push(
        h("td", { class: "num tb" }, pointsText(tb.buchholz ?? "")),
        h("td", { class: "num tb" }, pointsText(tb.sb ?? tb.sonneborn_berger ?? "")),
      );
    const mine = me.key
      ? row.key === me.key
      : me.name && row.name === me.name && !row.bot && !row.key;
    return h(
      "tr",
      {
        class: `${mine ? "me" : ""}${onFire ? " on-fire" : ""}`.trim() || null,
        dataset: { name: row.name, rank: row.rank ?? "" },
      },
      cells,
    );
  });
  return h(
    "table",
    { class: "standings", id: "t-standings" },
    h("caption", { class: "visually-hidden" }, "Standings"),
    h("thead", {}, h("tr", {}, head)),
    h("tbody", {}, body),
  );
}

/** A game's result in words: "1–0", "½–½", "Ada 1st, Bob 2nd…", or "in play". */
export function resultText(game) {
  if (game.ongoing) return "in play";
  const r = game.result;
  if (r === null || r === undefined) return game.reason === "aborted" ? "aborted" : "no result";
  if (typeof r === "string") return r;
  const ranks = Array.isArray(r) ? r : r && Array.isArray(r.ranks) ? r.ranks : null;
  if (!ranks) return r && r.reason === "aborted" ? "aborted" : "over";
  if (ranks.length === 2) {
    if (ranks[0] === ranks[1]) return "½–½";
    return ranks[0] < ranks[1] ? "1–0" : "0–1";
  }
  const names = Array.isArray(game.players) ? game.players : [];
  const place = (rank) => 1 + ranks.filter((r) => r < rank).length; // ranks: smaller is better
  return ranks
    .map((rank, seat) => ({ rank, seat }))
    .sort((a, b) => a.rank - b.rank)
    .map(({ rank, seat }) => `${place(rank)}. ${names[seat] || `seat ${seat + 1}`}`)
    .join(", ");
}

/** The games, newest first; `mineOnly` keeps those `myName` plays in. */
export function gamesList(view, myName, mineOnly, limit = 60) {
  let games = Array.isArray(view.games) ? [...view.games].reverse() : [];
  const isMine = (g) => !!myName && Array.isArray(g.players) && g.players.includes(myName);
  if (mineOnly) games = games.filter(isMine);
  if (!games.length)
    return [
      h(
        "p",
        { class: "empty-note", id: "t-games" },
        mineOnly ? "You have played no game here yet." : "No game yet.",
      ),
    ];
  const shown = games.slice(0, limit);
  return [
    h(
      "ul",
      { class: "t-games", id: "t-games" },
      shown.map((g) => {
        const players = Array.isArray(g.players) ? g.players : [];
        const berserk = new Set(Array.isArray(g.berserk) ? g.berserk : []);
        const names = players.map((name, i) => [
          i ? (players.length > 2 ? ", " : " – ") : null,
          h(
            "span",
            { class: berserk.has(name) ? "berserk" : null },
            name,
            berserk.has(name) ? bolt() : null,
          ),
        ]);
        const cls = [
          g.ongoing ? "ongoing" : "over",
          isMine(g) ? "mine" : null,
          players.length > 2 ? "many" : null,
        ];
        return h(
          "li",
          { class: cls.filter(Boolean).join(" "), dataset: { room: g.room } },
          h(
            "span",
            { class: "players" },
            g.round ? h("span", { class: "round muted" }, `R${g.round} `) : null,
            names,
          ),
          h("span", { class: "result" }, resultText(g)),
          h(
            "a",
            {
              class: "button secondary small",
              href: `#room=${g.room}`,
              dataset: { watch: g.room },
            },
            g.ongoing ? "Watch" : "Replay",
          ),
        );
      }),
    ),
    games.length > limit ? h("p", { class: "muted" }, `and ${games.length - limit} more`) : null,
  ].filter(Boolean);
}
