// The game at your own table, kept on this device (IndexedDB) with every action and its
// finished games' records, so Home offers "Resume game" after the app closed, offline.

const DB = "snakes-local";
const STORE = "games";
let opening = null;

function db() {
  if (!opening) {
    opening = new Promise((resolve, reject) => {
      const request = indexedDB.open(DB, 1);
      request.onupgradeneeded = () => request.result.createObjectStore(STORE, { keyPath: "code" });
      request.onsuccess = () => resolve(request.result);
      request.onerror = () => reject(request.error);
    });
    opening.catch(() => {
      opening = null;
    });
  }
  return opening;
}

async function run(mode, work) {
  const base = await db();
  return new Promise((resolve, reject) => {
    const tx = base.transaction(STORE, mode);
    const result = work(tx.objectStore(STORE));
    tx.oncomplete = () => resolve(result && "result" in result ? result.result : undefined);
    tx.onerror = () => reject(tx.error);
    tx.onabort = () => reject(tx.error);
  });
}

/** Keep `game` (with its `code`), in place of any other. */
export function putGame(game) {
  return run("readwrite", (store) => {
    store.clear();
    store.put(game);
  });
}

export async function getGame(code) {
  const found = await run("readonly", (store) => store.get(code));
  return found || null;
}

export function deleteGames() {
  return run("readwrite", (store) => store.clear());
}
