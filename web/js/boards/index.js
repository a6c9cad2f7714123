// Which board draws which game: chosen by the board the game names in its info
// (Game.board). Every game on a grid of squares — the games described as data ("grid") and
// those with a word of their own for their board ("chess": chess and Dark Chess, "banqi",
// "apocalypse") — is drawn by the one described board from the description in its view;
// Hase und Igel's track ("track") is the one board of its own. A game whose board is unknown
// here gets the generic view.

import { createDescribedBoard, describeDescribedMove } from "./described.js";
import { createGenericBoard, describeGenericMove } from "./generic.js";
import { createHaseBoard, describeHaseMove } from "./hase.js";

const DESCRIBED = [createDescribedBoard, describeDescribedMove];

const BOARDS = {
  grid: DESCRIBED,
  chess: DESCRIBED,
  apocalypse: DESCRIBED,
  banqi: DESCRIBED,
  track: [createHaseBoard, describeHaseMove],
};

function boardOf(info) {
  return BOARDS[info && info.board] || [createGenericBoard, describeGenericMove];
}

/** A board for the game of `info`: {update(update, legal), release()}. */
export function createBoard(info, boardHost, infoHost, ctx) {
  const [create] = boardOf(info);
  return create(boardHost, infoHost, ctx);
}

/** The log line for the move an update reports (movers = seats that moved). */
export function describeMove(info, update, movers) {
  const [, describe] = boardOf(info);
  try {
    return describe(info, update, movers);
  } catch {
    return null;
  }
}

/** Boards with their own list of every legal move (the room adds none). */
export const OWN_MOVE_LIST = new Set(["track"]);
