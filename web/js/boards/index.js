// Which board draws which game: chosen by the board the game names in its info
// (Game.board): "grid" is the board described as data that any such game gets, the others
// are boards of their own. A game whose board is unknown here gets the generic view.

import { createApocalypseBoard, describeApocalypseMove } from "./apocalypse.js";
import { createBanqiBoard, describeBanqiMove } from "./banqi.js";
import { createChessBoard, describeChessMove } from "./chess.js";
import { createDescribedBoard, describeDescribedMove } from "./described.js";
import { createGenericBoard, describeGenericMove } from "./generic.js";
import { createHaseBoard, describeHaseMove } from "./hase.js";

const BOARDS = {
  grid: [createDescribedBoard, describeDescribedMove],
  chess: [createChessBoard, describeChessMove],
  apocalypse: [createApocalypseBoard, describeApocalypseMove],
  banqi: [createBanqiBoard, describeBanqiMove],
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
