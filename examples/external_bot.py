"""A bot that lives outside the server: it takes a seat over the wire and plays.

    python examples/external_bot.py ws://127.0.0.1:8765/ws ROOM_ID [NAME]

It sees exactly what a person in that seat sees (its `update` messages) and answers with
one of the `legal` moves — here a random one; put your own search in `choose`.
"""

import asyncio
import random
import sys

from server.sdk import KibitzClient, KibitzError


def choose(update: dict, rng: random.Random) -> str:
    return rng.choice(update["legal"])


async def main(url: str, room: str, name: str = "Randy") -> None:
    rng = random.Random()
    async with await KibitzClient.connect(url) as client:
        seated = await client.request("take_seat", room=room, name=name)
        print(f"{name} sits in seat {seated['seat']} of room {room}", flush=True)
        while True:
            update = await client.next_update(room, timeout=3600)
            if update["status"] == "over":
                print("game over:", update["outcome"], flush=True)
                return
            if update.get("legal"):  # our turn (and not sealed yet)
                move = choose(update, rng)
                try:
                    await client.request("move", room=room, move=move, version=update["version"])
                except KibitzError as exc:
                    if exc.code != "stale_version":  # a newer update is on its way
                        raise


if __name__ == "__main__":
    asyncio.run(main(*sys.argv[1:]))
