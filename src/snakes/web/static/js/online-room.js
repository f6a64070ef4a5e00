// The transport of an online room (js/store.js): the game socket, which delivers the
// server's messages and its own state to the store, and this device's fair-dice seeds.
// Loaded with the first online room: a game at your own table never needs it.

import { Connection } from "./connection.js";
import { sendSeeds } from "./fair-seeds.js";

export function openTransport(code, secret, store) {
  const connection = new Connection({
    room: code,
    secret,
    onMessage: (message) => store.dispatch(message),
    onState: (state) => store.dispatch({ type: "connection", state, at: Date.now() }),
  });
  const stopSeeds = sendSeeds(store);
  connection.connect();
  return {
    send: (message) => connection.send(message),
    /** "closed": given up for good (the room is gone); "idle": the screens left it. */
    close(final = "idle") {
      stopSeeds();
      connection.close(final);
    },
  };
}
