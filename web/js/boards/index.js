// Which board draws which game.

import { createApocalypseBoard, describeApocalypseMove } from "./apocalypse.js";
import { createBanqiBoard, describeBanqiMove } from "./banqi.js";
import { createChessBoard, describeChessMove } from "./chess.js";
import { createGenericBoard, describeGenericMove } from "./generic.js";
import { createHaseBoard, describeHaseMove } from "./hase.js";

const BOARDS = {
  chess: [createChessBoard, describeChessMove],
  dark_chess: [createChessBoard, describeChessMove],
  apocalypse: [createApocalypseBoard, describeApocalypseMove],
  banqi: [createBanqiBoard, describeBanqiMove],
  hase_und_igel: [createHaseBoard, describeHaseMove],
};

/** A board for `game`: {update(update, legal), release()}. */
export function createBoard(game, boardHost, infoHost, ctx) {
  const [create] = BOARDS[game] || [createGenericBoard];
  return create(boardHost, infoHost, ctx);
}

/** The log line for the move an update reports (movers = seats that moved). */
export function describeMove(game, info, update, movers) {
  const [, describe] = BOARDS[game] || [null, describeGenericMove];
  try {
    return describe(info, update, movers);
  } catch {
    return null;
  }
}

/** Games with their own list of every legal move (the room adds none). */
export const OWN_MOVE_LIST = new Set(["hase_und_igel"]);
